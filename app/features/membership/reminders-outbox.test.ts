import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { decodeBody, startSmtp } from "../../../tests/support/smtp";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { Lease } from "~/platform/lease.server";
import type { MemberRemindersAnswer, MembersWithoutEmailAnswer } from "./contract";
import { ReminderOutbox } from "./reminder-outbox.server";
import { DEFAULT_REMINDER_SETTINGS, REMINDER_DROP_REASONS, REMINDER_LEASE } from "./reminders.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * The reminder outbox on a real database and a real SMTP server: each reminder once per member,
 * kind and period, whatever the number of instances and runs; retried after a refusal and never
 * again after success; to the member's own stored address only; none without one.
 */
describeEachDatabase("membership reminders: the outbox", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let refusing = false;
  /** Runs while the SMTP server holds a message, before it answers (null: answers at once). */
  let whileSending: (() => Promise<void>) | null = null;
  // The instances' shared clock, moved by the tests. Noon in New York.
  let clock = new Date("2027-03-20T16:00:00Z");
  const now = () => clock;
  const settings = { ratePerSecond: 1000, batchSize: 3 };
  let a: TestServer;
  let b: TestServer;
  let staff: { cookie: string };

  beforeAll(async () => {
    smtp = await startSmtp({
      refuse: () => (refusing ? "451 4.3.0 Mailbox busy, try again later" : null),
      beforeAnswer: async () => await whileSending?.(),
    });
    const env = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, REMINDER_SMTP_CONNECTIONS: "2" };
    a = await startTestServer(dialect, env, { reminders: { now, settings } });
    // A second instance over its own connection to the same database.
    b = await startSiblingServer(a, { reminders: { now, settings } });
    staff = await loginAs(a, "limited_admin");
  });
  afterAll(async () => {
    await a.services.reminders.stop();
    await b.services.reminders.stop();
    await b.close();
    await a.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await a.services.database.db.deleteFrom("membership_plans").execute();
    await a.services.database.db.deleteFrom("membership_reminders").execute();
    await a.services.database.db.deleteFrom("membership_reminder_days").execute();
    smtp.received.length = 0;
    refusing = false;
    clock = new Date("2027-03-20T16:00:00Z");
  });
  afterEach(() => {
    refusing = false;
    whileSending = null;
  });

  let seq = 0;
  /** A member with a plan and, unless `email` is null, an address. */
  async function member(
    plan: { billing: "monthly" | "annual"; approvedOn?: string | null; carried?: string | null },
    opts: { email?: string | null; payments?: Array<[string, number]>; cancelledOn?: string } = {},
  ) {
    const { db } = a.services.database;
    const { auth } = a.services;
    seq++;
    const certificate = `REM${dialect}${seq}${Date.now() % 100000}`;
    const { id } = await auth.users.createMember({
      certificate,
      birthdateDigest: auth.digestBirthdate("1980-01-15"),
      firstName: `Pat${seq}`,
    });
    const email = opts.email === undefined ? `member${seq}@example.org` : opts.email;
    await db.updateTable("users").set({ email }).where("id", "=", id).execute();
    const at = new Date().toISOString();
    await db
      .insertInto("membership_plans")
      .values({
        user_id: id,
        billing: plan.billing,
        coverage_cents: null,
        beneficiary_name: null,
        beneficiary_relationship: null,
        approved_on: plan.approvedOn ?? null,
        carried_paid_through: plan.carried ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    for (const [paidOn, cents] of opts.payments ?? [])
      await db
        .insertInto("membership_payments")
        .values({
          user_id: id,
          amount_cents: cents,
          paid_on: paidOn,
          method: "card",
          reference: null,
          refund_of: null,
          note: null,
          recorded_by: null,
          recorded_by_label: null,
          recorded_at: at,
        })
        .execute();
    if (opts.cancelledOn)
      await db
        .insertInto("membership_events")
        .values({
          user_id: id,
          kind: "cancelled",
          on_date: opts.cancelledOn,
          reason: "Moved away",
          recorded_by: null,
          recorded_by_label: null,
          recorded_at: at,
        })
        .execute();
    return { id, email, certificate };
  }

  const recipients = () => smtp.received.flatMap((m) => m.to).sort();
  const remindersOf = async (id: number) => {
    const res = await a.request(`/api/admin/members/${id}/membership/reminders`, { cookie: staff.cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as MemberRemindersAnswer;
  };

  it("two instances, runs repeated and the clock moved across due dates: each reminder is sent exactly once", async () => {
    // Due on March 20: past due since March 16 (carried coverage through March 15).
    const early = await member({ billing: "monthly", carried: "2027-03-15" });
    // Due after March 20, by March 25:
    const dueSoon = await member({ billing: "annual", approvedOn: "2026-03-15" }, { payments: [["2026-03-15", 9900]] }); // March 24
    const firstPayment = await member({ billing: "monthly", approvedOn: "2027-03-20" }); // March 23
    const pastDue = await member({ billing: "monthly", carried: "2027-03-22" }); // March 23
    const lapsed = await member({ billing: "monthly", carried: "2027-02-20" }); // grace ended March 22
    // Never: no address; cancelled; covered monthly.
    const noAddress = await member({ billing: "monthly", carried: "2027-03-15" }, { email: null });
    await member({ billing: "monthly", carried: "2027-03-15" }, { cancelledOn: "2027-03-01" });
    await member({ billing: "monthly", carried: "2027-12-31" });

    const ra = a.services.reminders;
    const rb = b.services.reminders;
    // March 20, both instances at once, twice: the lease lets one run at a time.
    const first = await Promise.all([ra.runOnce(), rb.runOnce()]);
    expect(first.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    await Promise.all([ra.runOnce(), rb.runOnce()]);
    expect(recipients()).toEqual([early.email]);

    // March 25. Without the lease too: both plan and send at once; the outbox alone keeps it to once.
    clock = new Date("2027-03-25T16:00:00Z");
    const planned = await Promise.all([ra.planToday(), rb.planToday()]);
    expect(planned[0] + planned[1]).toBe(4);
    const sent = await Promise.all([ra.sendWaiting(), rb.sendWaiting()]);
    expect(sent[0].sent + sent[1].sent).toBe(4);
    await Promise.all([ra.runOnce(), rb.runOnce(), ra.sendWaiting(), rb.sendWaiting()]);
    // The next day, still past due, lapsed...: the same periods, nothing new.
    clock = new Date("2027-03-26T16:00:00Z");
    await Promise.all([ra.runOnce(), rb.runOnce()]);
    await Promise.all([ra.runOnce(), rb.runOnce()]);

    expect(recipients()).toEqual([early.email, dueSoon.email, firstPayment.email, pastDue.email, lapsed.email].sort());
    // Only the member's own stored address, and nothing to the member without one.
    for (const mail of smtp.received) expect(mail.to).toHaveLength(1);
    expect(recipients()).not.toContain(noAddress.email);
    const mailTo = (email: string | null) => decodeBody(smtp.received.find((m) => m.to[0] === email)!.raw);
    expect(mailTo(dueSoon.email)).toMatch(/Subject: Your annual membership payment is due soon/);
    expect(mailTo(dueSoon.email)).toContain(`Dear Pat`);
    expect(mailTo(dueSoon.email)).toContain(dueSoon.certificate);
    expect(mailTo(lapsed.email)).toMatch(/Subject: Your membership has lapsed/);
    expect(mailTo(firstPayment.email)).toMatch(/Subject: Your membership is waiting for its first payment/);
    // The pool keeps at most REMINDER_SMTP_CONNECTIONS open per instance.
    expect(smtp.stats.maxConnections).toBeLessThanOrEqual(4);

    const view = await remindersOf(pastDue.id);
    expect(view).toMatchObject({ hasEmail: true, enabled: true });
    expect(view.reminders).toEqual([
      expect.objectContaining({
        kind: "past-due",
        label: "Past due",
        period: "2027-03-22",
        status: "sent",
        sentTo: pastDue.email,
        attempts: 1,
      }),
    ]);
    expect((await remindersOf(noAddress.id)).hasEmail).toBe(false);
    const without = (await (
      await a.request("/api/admin/membership/reminders/without-email", { cookie: staff.cookie })
    ).json()) as MembersWithoutEmailAnswer;
    expect(without.members.map((m) => m.id)).toEqual([noAddress.id]);
    expect(without.total).toBe(1);
  });

  it("an SMTP server that refuses, then accepts, gets each reminder once; staff see the failure and its retry time", async () => {
    const one = await member({ billing: "monthly", carried: "2027-03-15" });
    const two = await member({ billing: "monthly", carried: "2027-03-16" });
    refusing = true;
    expect(await a.services.reminders.runOnce()).toMatchObject({ planned: 2, sent: 0, failed: 2 });
    expect(smtp.received).toHaveLength(0);
    const failed = (await remindersOf(one.id)).reminders[0];
    expect(failed).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: "2027-03-20T16:01:00.000Z" });
    expect(failed.lastError).toContain("451");

    // Before the retry time nothing is tried, even with the server back.
    refusing = false;
    expect(await b.services.reminders.runOnce()).toMatchObject({ sent: 0, failed: 0 });
    clock = new Date("2027-03-20T16:01:00Z");
    expect(await b.services.reminders.runOnce()).toMatchObject({ sent: 2 });
    clock = new Date("2027-03-20T18:00:00Z");
    await Promise.all([a.services.reminders.runOnce(), b.services.reminders.runOnce()]);
    expect(recipients()).toEqual([one.email, two.email].sort());
    expect((await remindersOf(one.id)).reminders[0]).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("backs off longer after each refusal", async () => {
    const one = await member({ billing: "monthly", carried: "2027-03-15" });
    refusing = true;
    await a.services.reminders.runOnce();
    clock = new Date("2027-03-20T16:01:00Z");
    await a.services.reminders.runOnce();
    expect((await remindersOf(one.id)).reminders[0]).toMatchObject({
      status: "failed",
      attempts: 2,
      nextAttemptAt: "2027-03-20T16:03:00.000Z",
    });
  });

  it("a restart goes on where it stopped: rows a stopped sender claimed are sent once their claim runs out", async () => {
    const one = await member({ billing: "monthly", carried: "2027-03-15" });
    const two = await member({ billing: "monthly", carried: "2027-03-15" });
    await a.services.reminders.planToday();
    // A sender that died holding both rows' claims.
    const outbox = new ReminderOutbox(a.services.database.db, a.services.database.dialect);
    const claimed = await outbox.claim("gone-host/1/x/y", 10, clock.toISOString(), "2027-03-20T16:05:00.000Z");
    expect(claimed).toHaveLength(2);
    expect(await b.services.reminders.runOnce()).toMatchObject({ sent: 0 });
    expect((await remindersOf(one.id)).reminders[0]).toMatchObject({ status: "queued", sending: true });
    clock = new Date("2027-03-20T16:06:00Z");
    expect(await b.services.reminders.runOnce()).toMatchObject({ sent: 2 });
    expect(await a.services.reminders.runOnce()).toMatchObject({ sent: 0 });
    expect(recipients()).toEqual([one.email, two.email].sort());
  });

  it("a reminder no longer due when its turn comes (the member paid; the address was removed) is not sent", async () => {
    const paid = await member({ billing: "monthly", carried: "2027-03-15" });
    const removed = await member({ billing: "monthly", carried: "2027-03-15" });
    const changed = await member({ billing: "monthly", carried: "2027-03-15" });
    await a.services.reminders.planToday();
    const { db } = a.services.database;
    const at = new Date().toISOString();
    await db
      .insertInto("membership_payments")
      .values({
        user_id: paid.id,
        amount_cents: 1995,
        paid_on: "2027-03-20",
        method: "card",
        reference: null,
        refund_of: null,
        note: null,
        recorded_by: null,
        recorded_by_label: null,
        recorded_at: at,
      })
      .execute();
    await db.updateTable("users").set({ email: null }).where("id", "=", removed.id).execute();
    // The address at the time of sending is the one used.
    await db.updateTable("users").set({ email: "new-address@example.org" }).where("id", "=", changed.id).execute();
    expect(await a.services.reminders.sendWaiting()).toEqual({ sent: 1, failed: 0, dropped: 2 });
    expect(recipients()).toEqual(["new-address@example.org"]);
    expect((await remindersOf(paid.id)).reminders[0]).toMatchObject({ status: "dropped", lastError: REMINDER_DROP_REASONS.noLongerDue });
    expect((await remindersOf(removed.id)).reminders[0]).toMatchObject({ status: "dropped", lastError: REMINDER_DROP_REASONS.noAddress });
  });

  it("a deactivated member gets no reminder: none is planned, one already waiting is dropped, and staff see why", async () => {
    const off = await member({ billing: "monthly", carried: "2027-03-15" });
    const later = await member({ billing: "monthly", carried: "2027-03-15" });
    const noAddress = await member({ billing: "monthly", carried: "2027-03-15" }, { email: null });
    const deactivate = async (id: number) => {
      const res = await a.request(`/api/admin/members/${id}`, { method: "PATCH", cookie: staff.cookie, json: { is_active: false } });
      expect(res.status).toBe(200);
    };
    await deactivate(off.id);
    await deactivate(noAddress.id);
    expect(await a.services.reminders.planToday()).toBe(1);
    // Deactivated between planning and sending.
    await deactivate(later.id);
    expect(await a.services.reminders.sendWaiting()).toEqual({ sent: 0, failed: 0, dropped: 1 });
    expect(smtp.received).toEqual([]);
    expect((await remindersOf(off.id)).reminders).toEqual([]);
    expect((await remindersOf(later.id)).reminders[0]).toMatchObject({ status: "dropped", lastError: REMINDER_DROP_REASONS.deactivated });
    // Nobody to chase for an address either.
    const without = (await (
      await a.request("/api/admin/membership/reminders/without-email", { cookie: staff.cookie })
    ).json()) as MembersWithoutEmailAnswer;
    expect(JSON.stringify(without)).not.toContain(noAddress.certificate);
  });

  it("one instance at a time: another waits out a live lease, and takes it once it has run out", async () => {
    const one = await member({ billing: "monthly", carried: "2027-03-15" });
    const lease = new Lease(a.services.database.db, REMINDER_LEASE);
    expect(await lease.take("elsewhere/1/x/y", 60_000, clock.getTime())).toBe(true);
    expect(await a.services.reminders.runOnce()).toBeNull();
    expect(await b.services.reminders.runOnce()).toBeNull();
    clock = new Date(clock.getTime() + 61_000);
    expect(await b.services.reminders.runOnce()).toMatchObject({ planned: 1, sent: 1 });
    // Released after the run: the other instance takes it at once.
    expect(await a.services.reminders.runOnce()).toEqual({ planned: 0, sent: 0, failed: 0, dropped: 0 });
    expect(recipients()).toEqual([one.email]);
  });

  it("a sender whose lease was taken over mid-run (it stalled past the lease) stops after its batch; the lease stays the new holder's", async () => {
    const members = [];
    for (let i = 0; i < 5; i++) members.push(await member({ billing: "monthly", carried: "2027-03-15" }));
    const lease = new Lease(b.services.database.db, REMINDER_LEASE);
    let tookOver: boolean | null = null;
    // While the first mail is on the wire, A's lease runs out and another instance takes it.
    whileSending = async () => {
      whileSending = null;
      clock = new Date(clock.getTime() + DEFAULT_REMINDER_SETTINGS.leaseTtlMs + 1000);
      tookOver = await lease.take("instance-b", DEFAULT_REMINDER_SETTINGS.leaseTtlMs, clock.getTime());
    };
    expect(await a.services.reminders.runOnce()).toEqual({ planned: 5, sent: 3, failed: 0, dropped: 0 });
    expect(tookOver).toBe(true);
    expect(smtp.received).toHaveLength(3);
    expect((await lease.read())?.holder).toBe("instance-b");
    // The rest wait, unclaimed, for the lease's holder.
    const left = await a.services.database.db
      .selectFrom("membership_reminders")
      .select(["status", "claimed_by"])
      .where("status", "=", "queued")
      .execute();
    expect(left).toEqual([
      { status: "queued", claimed_by: null },
      { status: "queued", claimed_by: null },
    ]);
    expect(await b.services.reminders.runOnce()).toBeNull();
    await lease.release("instance-b");
    expect(await b.services.reminders.runOnce()).toMatchObject({ sent: 2 });
    expect(recipients()).toEqual(members.map((m) => m.email).sort());
  });

  it("a sender's late outcome for a row whose claim ran out and was sent by another leaves the row sent, once", async () => {
    const late = await member({ billing: "monthly", carried: "2027-03-15" });
    const early = await member({ billing: "monthly", carried: "2027-03-16" });
    await a.services.reminders.planToday();
    const outboxA = new ReminderOutbox(a.services.database.db, a.services.database.dialect);
    const outboxB = new ReminderOutbox(b.services.database.db, b.services.database.dialect);
    const at = (minutes: number) => new Date(clock.getTime() + minutes * 60_000).toISOString();
    const row = async (userId: number) =>
      await a.services.database.db
        .selectFrom("membership_reminders")
        .select(["id", "status", "attempts", "sent_to", "last_error", "claimed_by"])
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
    const claimedByA = await outboxA.claim("sender-a", 10, at(0), at(5));
    expect(claimedByA.map((c) => c.userId).sort()).toEqual([late.id, early.id].sort());
    // A stalls; its claims run out; B claims both rows.
    const claimedByB = await outboxB.claim("sender-b", 10, at(6), at(11));
    expect(claimedByB.map((c) => c.id)).toEqual(claimedByA.map((c) => c.id));
    const failure = (id: number) => ({ id, status: "failed" as const, error: "451 4.3.0 Try again later", nextAttemptAt: at(8) });
    const lateId = (await row(late.id)).id;
    const earlyId = (await row(early.id)).id;
    // B sends one; A's "failed" comes after: the row stays sent, tried once.
    await outboxB.record("sender-b", [{ id: lateId, status: "sent", sentTo: late.email! }], at(6));
    await outboxA.record("sender-a", [failure(lateId)], at(7));
    await outboxA.release("sender-a", [lateId]);
    expect(await row(late.id)).toEqual({
      id: lateId,
      status: "sent",
      attempts: 1,
      sent_to: late.email,
      last_error: null,
      claimed_by: null,
    });
    // A's "failed" comes while B still holds the other row: B's claim and its outcome stand.
    await outboxA.record("sender-a", [failure(earlyId)], at(7));
    await outboxA.release("sender-a", [earlyId]);
    expect(await row(early.id)).toMatchObject({ status: "queued", attempts: 0, claimed_by: "sender-b" });
    await outboxB.record("sender-b", [{ id: earlyId, status: "sent", sentTo: early.email! }], at(8));
    expect(await row(early.id)).toMatchObject({ status: "sent", attempts: 1, last_error: null, claimed_by: null });
  });

  it.skipIf(dialect !== "postgres")(
    "two senders claiming at once on PostgreSQL claim different rows: a row another sender's claim has locked is skipped",
    async () => {
      for (let i = 0; i < 4; i++) await member({ billing: "monthly", carried: "2027-03-15" });
      expect(await a.services.reminders.planToday()).toBe(4);
      const now = clock.toISOString();
      const until = new Date(clock.getTime() + 5 * 60_000).toISOString();
      const db = a.services.database.db;
      /** Whether a backend waits on a lock that the transaction of backend `pid` holds. */
      const waitsOn = async (pid: number) =>
        (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(db))
          .rows[0].n > 0;
      let claimedByB: Promise<number[]> | null = null;
      let settled = false;
      let bWaitedOnA = false;
      const claimedByA = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        const ids = (await new ReminderOutbox(trx, "postgres").claim("sender-a", 2, now, until)).map((c) => c.id);
        // A's claim is not committed yet: B claims on its own connection meanwhile.
        claimedByB = new ReminderOutbox(b.services.database.db, "postgres")
          .claim("sender-b", 2, now, until)
          .then((claimed) => claimed.map((c) => c.id))
          .finally(() => (settled = true));
        // Until B has its answer, or waits on a row A's transaction holds (then A commits).
        while (!settled && !(bWaitedOnA = await waitsOn(rows[0].pid))) await new Promise((resolve) => setTimeout(resolve, 5));
        return ids;
      });
      const idsB = await claimedByB!;
      expect(claimedByA).toHaveLength(2);
      expect(idsB.filter((id) => claimedByA.includes(id))).toEqual([]);
      expect(idsB).toHaveLength(2);
      // Nor did B wait for A: the rows A holds are passed over, not waited for.
      expect(bWaitedOnA).toBe(false);
    },
  );

  it("staff only; an unknown member is a 404; a bad id a 400", async () => {
    const m = await loginAs(a, "member");
    expect((await a.request(`/api/admin/members/${m.userId}/membership/reminders`, { cookie: m.cookie })).status).toBe(403);
    expect((await a.request(`/api/admin/members/${m.userId}/membership/reminders`)).status).toBe(401);
    expect((await a.request(`/api/admin/members/999999/membership/reminders`, { cookie: staff.cookie })).status).toBe(404);
    expect((await a.request(`/api/admin/members/abc/membership/reminders`, { cookie: staff.cookie })).status).toBe(400);
    expect((await a.request(`/api/admin/membership/reminders/without-email`, { cookie: m.cookie })).status).toBe(403);
  });
});
