import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { decodeBody, startSmtp } from "../../../tests/support/smtp";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { addDays } from "~/platform/dates";
import { StaffPermissions } from "~/features/auth/staff-permissions.server";
import { UsersRepo } from "~/features/auth/users.server";
import type { PublicUser } from "~/features/auth/user";
import type { CoverageKind } from "~/features/membership/statuses";
import { coverageCensus } from "~/features/membership/census.server";
import {
  ANNOUNCEMENT_MESSAGES,
  PREVIEW_MISSING_TEXT,
  SKIP_REASONS,
  type AnnouncementAnswer,
  type AudienceCount,
  type PreviewAnswer,
} from "./contract";
import { ANNOUNCEMENT_KIND } from "./service.server";
import { endsWithTheFile, LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS } from "../../../tests/support/loaded-machine";

vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const PUBLIC_URL = "https://aha.example.org";
const METRICS_TOKEN = "metrics-token-announcements";

/**
 * Announcements on a real database, a real HTTP server and a real SMTP server: the audience by
 * coverage, one mail per member with their own values, sent once whatever the instances,
 * clicks and restarts, with the one-click unsubscribe; cancelled, skipped and killed halfway.
 */
describeEachDatabase("announcements", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let refusing: string | null = null;
  let whileSending: (() => Promise<void>) | null = null;
  let a: TestServer;
  let b: TestServer;
  let admin: { cookie: string; userId: number };
  const settings = { ratePerSecond: 1000, batchSize: 4 };

  beforeAll(async () => {
    smtp = await startSmtp({ refuse: () => refusing, beforeAnswer: async () => await whileSending?.() });
    const env = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL, REMINDER_SMTP_CONNECTIONS: "2", METRICS_TOKEN };
    a = await startTestServer(dialect, env, { reminders: { settings } });
    b = await startSiblingServer(a, { reminders: { settings } });
    admin = await loginAs(a, "super_admin");
    await a.services.database.db.updateTable("users").set({ email: "staff@aha.example.org" }).where("id", "=", admin.userId).execute();
  });
  afterAll(async () => {
    await a.services.reminders.stop();
    await b.services.reminders.stop();
    await b.close();
    await a.close();
    await smtp.close();
  });
  beforeEach(async () => {
    const { db } = a.services.database;
    await db.deleteFrom("membership_reminders").execute();
    await db.deleteFrom("announcements").execute();
    await db.deleteFrom("announcement_opt_outs").execute();
    await db.deleteFrom("users").where("role", "=", "user").execute();
    smtp.received.length = 0;
    refusing = null;
    whileSending = null;
  });

  let seq = 0;
  const today = () => a.services.coverage.today();

  /** A member in `status` today (by the one rule: checked against the census below). */
  async function member(
    status: CoverageKind,
    opts: { email?: string | null; state?: string; billing?: "monthly" | "annual"; firstName?: string; approvedOn?: string } = {},
  ) {
    const { db } = a.services.database;
    const { auth } = a.services;
    seq++;
    const certificate = `ANN${seq}X${Date.now() % 100000}`;
    const firstName = opts.firstName ?? `Pat${seq}`;
    const { id } = await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName });
    const email = opts.email === undefined ? `member${seq}@example.org` : opts.email;
    await db
      .updateTable("users")
      .set({ email, state: opts.state ?? "FL", first_name: firstName })
      .where("id", "=", id)
      .execute();
    const day = today();
    const at = new Date().toISOString();
    if (status !== "no-plan") {
      const carried: Partial<Record<CoverageKind, string>> = {
        covered: addDays(day, 60),
        "past-due": addDays(day, -5),
        lapsed: addDays(day, -60),
        cancelled: addDays(day, 60),
      };
      await db
        .insertInto("membership_plans")
        .values({
          user_id: id,
          billing: opts.billing ?? "monthly",
          coverage_cents: null,
          beneficiary_name: null,
          beneficiary_relationship: null,
          approved_on: opts.approvedOn ?? (carried[status] ? addDays(day, -400) : day),
          carried_paid_through: carried[status] ?? null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      if (status === "starts")
        await db
          .insertInto("membership_payments")
          .values({
            user_id: id,
            amount_cents: opts.billing === "annual" ? 9900 : 1995,
            paid_on: day,
            method: "card",
            reference: null,
            refund_of: null,
            note: null,
            recorded_by: null,
            recorded_by_label: null,
            recorded_at: at,
          })
          .execute();
      if (status === "cancelled")
        await db
          .insertInto("membership_events")
          .values({
            user_id: id,
            kind: "cancelled",
            on_date: addDays(day, -1),
            reason: "Moved away",
            recorded_by: null,
            recorded_by_label: null,
            recorded_at: at,
          })
          .execute();
    }
    return { id, email, certificate, firstName };
  }

  const api = (pathname: string, init: RequestInit & { json?: unknown } = {}, who = admin) =>
    a.request(`/api/admin/announcements${pathname}`, { ...init, cookie: who.cookie });
  const draft = (overrides: Record<string, unknown> = {}) => ({
    subject: "Storm season: {first_name}, check your roof",
    body: "Dear {first_name},\nyour coverage is paid through {paid_through}.\nMembership ID: {membership_id}\n",
    audience: { statuses: ["covered"] },
    ...overrides,
  });
  async function create(overrides: Record<string, unknown> = {}) {
    const res = await api("", { method: "POST", json: draft(overrides) });
    expect(res.status).toBe(201);
    return ((await res.json()) as AnnouncementAnswer).announcement;
  }
  const get = async (id: number) => ((await (await api(`/${id}`)).json()) as AnnouncementAnswer).announcement;
  const count = async (audience: Record<string, unknown>) => {
    const res = await api("/audience", { method: "POST", json: { audience } });
    expect(res.status).toBe(200);
    return (await res.json()) as AudienceCount;
  };
  /** Every check of both instances until the announcement is no longer sending. */
  async function sendAll(id: number) {
    for (let i = 0; i < 50 && ["scheduled", "sending"].includes((await get(id)).status); i++)
      await Promise.all([a.services.reminders.runOnce(), b.services.reminders.runOnce()]);
  }
  const mailsTo = (email: string | null) => smtp.received.filter((m) => m.to[0] === email);

  it("counts the audience by coverage status, plan, state and joining day, less those without an address or opted out", async () => {
    const made: Record<string, Awaited<ReturnType<typeof member>>> = {};
    for (const status of ["no-plan", "awaiting-first-payment", "starts", "covered", "past-due", "lapsed", "cancelled"] as const)
      made[status] = await member(status);
    const annual = await member("covered", { billing: "annual", state: "GA", approvedOn: "2020-06-01" });
    const noEmail = await member("covered", { email: null });
    const optedOut = await member("covered");
    await a.services.announcements.setReceive(optedOut.id, false, "account");
    const inactive = await member("covered");
    await a.services.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", inactive.id).execute();

    // The fixtures are in the statuses they claim, by the census.
    const census = await coverageCensus(a.services.database.db, today());
    for (const [status, m] of Object.entries(made)) expect([status, census.get(m.id)?.state.kind ?? "no-plan"]).toEqual([status, status]);

    for (const status of ["no-plan", "awaiting-first-payment", "starts", "past-due", "lapsed", "cancelled"])
      expect(await count({ statuses: [status] })).toMatchObject({ matching: 1, withoutEmail: 0, optedOut: 0, recipients: 1 });
    // Covered: the one of the table, annual, no address, opted out (the deactivated one is nobody's audience).
    expect(await count({ statuses: ["covered"] })).toMatchObject({ matching: 4, withoutEmail: 1, optedOut: 1, recipients: 2 });
    expect(await count({ statuses: ["past-due", "lapsed"] })).toMatchObject({ matching: 2, recipients: 2 });
    expect(await count({})).toMatchObject({ matching: 10, recipients: 8 });
    expect(await count({ plans: ["annual"] })).toMatchObject({ matching: 1 });
    expect(await count({ states: ["ga"] })).toMatchObject({ matching: 1 });
    expect(await count({ joinedBefore: "2021-01-01" })).toMatchObject({ matching: 1 });
    expect(await count({ joinedAfter: "2021-01-01", statuses: ["covered"] })).toMatchObject({ matching: 3 });
    expect(annual.id).toBeGreaterThan(0);
    expect(noEmail.email).toBeNull();

    // The count is kept between keystrokes, and follows every change at once: an opt-out, a deactivation, a new member.
    await a.services.announcements.setReceive(made.covered.id, false, "link");
    expect(await count({ statuses: ["covered"] })).toMatchObject({ matching: 4, optedOut: 2, recipients: 1 });
    await new UsersRepo(a.services.database.db).setMemberActive(made.covered.id, false, ["id"]);
    expect(await count({ statuses: ["covered"] })).toMatchObject({ matching: 3, recipients: 1 });
    await member("covered");
    expect(await count({ statuses: ["covered"] })).toMatchObject({ matching: 4, recipients: 2 });

    const bad = await api("/audience", { method: "POST", json: { audience: { statuses: ["gold"] } } });
    expect(bad.status).toBe(400);
    const order = await api("/audience", { method: "POST", json: { audience: { joinedAfter: "2022-01-01", joinedBefore: "2021-01-01" } } });
    expect(order.status).toBe(400);
    expect(JSON.stringify(await order.json())).toContain(ANNOUNCEMENT_MESSAGES.joinedOrder);
  });

  it("each recipient gets exactly one mail with their own values and a one-click unsubscribe; two Send presses on two instances send it once", async () => {
    const members = [
      await member("covered"),
      await member("covered"),
      await member("covered"),
      await member("covered"),
      await member("covered"),
    ];
    const noEmail = await member("covered", { email: null });
    const lapsed = await member("lapsed");
    const ann = await create();

    const presses = await Promise.all([
      api(`/${ann.id}/send`, { method: "POST" }),
      b.request(`/api/admin/announcements/${ann.id}/send`, { method: "POST", cookie: admin.cookie }),
      api(`/${ann.id}/send`, { method: "POST" }),
    ]);
    expect(presses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const started = await get(ann.id);
    expect(started.status).toBe("sending");
    expect(started.progress).toMatchObject({ recipients: 6, skipped: { [SKIP_REASONS.noAddress]: 1 } });

    await sendAll(ann.id);
    const done = await get(ann.id);
    expect(done.status).toBe("sent");
    expect(done.progress).toMatchObject({ recipients: 6, sent: 5, waiting: 0, failed: 0 });
    expect(smtp.received).toHaveLength(5);
    for (const m of members) {
      const mails = mailsTo(m.email);
      expect(mails).toHaveLength(1);
      const text = decodeBody(mails[0].raw);
      expect(text).toContain(`Subject: Storm season: ${m.firstName}, check your roof`);
      expect(text).toContain(`Dear ${m.firstName},`);
      expect(text).toContain(`Membership ID: ${m.certificate}`);
      expect(text).not.toContain("{paid_through}");
      expect(text).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      const link = /^List-Unsubscribe:\s*<(https:\/\/aha\.example\.org\/unsubscribe\/[^>]+)>/m.exec(text)?.[1];
      expect(link).toBeTruthy();
      expect(text).toContain(`To stop announcements, open: ${link}`);
      // Never the member's id alone: the token is the id and its HMAC.
      expect(link!.endsWith(`/unsubscribe/${m.id}`)).toBe(false);
    }
    expect(mailsTo(lapsed.email)).toHaveLength(0);
    expect(mailsTo(noEmail.email)).toHaveLength(0);
    // An audience nobody in it can receive is refused before anything starts.
    const nobody = await create({ audience: { statuses: ["cancelled"] } });
    const refused = await api(`/${nobody.id}/send`, { method: "POST" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(ANNOUNCEMENT_MESSAGES.noRecipients);
    expect((await get(nobody.id)).status).toBe("draft");
    // A sent announcement cannot be edited, sent again or deleted.
    expect((await api(`/${ann.id}`, { method: "PUT", json: draft() })).status).toBe(409);
    expect((await api(`/${ann.id}/send`, { method: "POST" })).status).toBe(409);
    expect((await api(`/${ann.id}`, { method: "DELETE" })).status).toBe(409);
    // Who sent it, to how many, with the audience, is in the audit log.
    const audit = await a.services.database.db.selectFrom("audit_log").selectAll().where("action", "=", "announcements.send").execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.userId, row_count: 5, target_label: "Storm season: {first_name}, check your roof" });
    expect(JSON.parse(String(audit[0].details))).toMatchObject({ audience: { statuses: ["covered"] }, matching: 6, withoutEmail: 1 });

    // Two presses in the same moment on both instances' services (no HTTP between): one starts it.
    const twin = await create({ audience: { statuses: ["lapsed"] } });
    const actor = { id: admin.userId, role: "super_admin" } as PublicUser;
    const both = await Promise.allSettled([
      a.services.announcements.sendNow(actor, twin.id),
      b.services.announcements.sendNow(actor, twin.id),
    ]);
    expect(both.map((r) => (r.status === "rejected" ? String(r.reason) : r.value.status)).sort()).toEqual([
      `Error: ${ANNOUNCEMENT_MESSAGES.notStartable}`,
      "sending",
    ]);
    await sendAll(twin.id);
    expect(mailsTo(lapsed.email)).toHaveLength(1);

    // /metrics: the mails by outcome (this instance's and the other's add up), and nothing left waiting.
    const scrape = async (server: TestServer) =>
      (await server.request("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const [ma, mb] = [await scrape(a), await scrape(b)];
    const sentBy = (text: string) => Number(/^aha_announcement_mails_total\{outcome="sent"\} (\d+)$/m.exec(text)?.[1]);
    expect(sentBy(ma) + sentBy(mb)).toBe(6);
    expect(ma).toMatch(/^aha_mail_outbox_waiting\{kind="announcement"\} 0$/m);
  });

  it("starts of one announcement at once, on both instances: one start, one audit entry, the recipients fixed once", async () => {
    const members = [];
    for (let i = 0; i < 5; i++) members.push(await member("covered"));
    const ann = await create();
    const { db } = a.services.database;
    // Its time came (as a check of each instance finds it), or Send now was pressed and the server stopped before starting it.
    for (const status of ["scheduled", "starting"]) {
      await db.deleteFrom("membership_reminders").execute();
      await db.deleteFrom("audit_log").where("action", "=", "announcements.send").execute();
      await db
        .updateTable("announcements")
        .set({ status, scheduled_at: new Date(Date.now() - 1000).toISOString(), sent_by: admin.userId, recipients: null, started_at: null })
        .where("id", "=", ann.id)
        .execute();
      // SQLite: both instances of this process would block its one thread in turn (a BEGIN
      // IMMEDIATE waits synchronously for the other's write lock), so one instance's four.
      const instances = dialect === "postgres" ? [a, b, a, b] : [a, a, a, a];
      const starts = await Promise.all(instances.map((server) => server.services.announcements.start(ann.id)));
      expect([status, starts.filter(Boolean).length]).toEqual([status, 1]);
      const row = await db.selectFrom("announcements").select(["status", "recipients"]).where("id", "=", ann.id).executeTakeFirstOrThrow();
      expect([status, row]).toEqual([status, { status: "sending", recipients: members.length }]);
      const audit = await db
        .selectFrom("audit_log")
        .select("row_count")
        .where("action", "=", "announcements.send")
        .where("target_id", "=", ann.id)
        .execute();
      expect([status, audit]).toEqual([status, [{ row_count: members.length }]]);
      const rows = await db.selectFrom("membership_reminders").select("user_id").where("period", "=", String(ann.id)).execute();
      expect([status, rows.map((r) => r.user_id).sort((x, y) => x - y)]).toEqual([status, members.map((m) => m.id)]);
    }
    await sendAll(ann.id);
    for (const m of members) expect(mailsTo(m.email)).toHaveLength(1);
  });

  it("a member's own values add no header, line or link; subjects are one line and unknown fields are refused by name", async () => {
    const evil = await member("covered", { firstName: "Eve" });
    const link = await member("covered", { firstName: "Mal" });
    const { db } = a.services.database;
    // Written past the forms' checks (an old import): CR/LF and a header, an address.
    await db.updateTable("users").set({ first_name: "Eve\r\nBcc: victim@example.net\u2028X" }).where("id", "=", evil.id).execute();
    await db.updateTable("users").set({ first_name: "www.evil.example/pay" }).where("id", "=", link.id).execute();
    const ann = await create();
    expect((await api(`/${ann.id}/send`, { method: "POST" })).status).toBe(200);
    await sendAll(ann.id);
    const eve = decodeBody(mailsTo(evil.email)[0].raw);
    // One line, and holding an address: the value is not used at all.
    expect(eve).toContain("Subject: Storm season: Member, check your roof");
    expect(eve).not.toMatch(/^Bcc:/m);
    expect(smtp.received.flatMap((m) => m.to)).not.toContain("victim@example.net");
    const mal = decodeBody(mailsTo(link.email)[0].raw);
    expect(mal).not.toContain("evil.example");
    expect(mal).toContain("Dear Member,");

    for (const [json, message] of [
      [draft({ subject: "Hello\r\nBcc: x@example.net" }), ANNOUNCEMENT_MESSAGES.subjectOneLine],
      [draft({ subject: "Hello\u2028there" }), ANNOUNCEMENT_MESSAGES.subjectOneLine],
      [draft({ body: "Dear {firstname}" }), ANNOUNCEMENT_MESSAGES.unknownField("firstname")],
      [draft({ subject: "{coverage_amount} due" }), ANNOUNCEMENT_MESSAGES.unknownField("coverage_amount")],
      [draft({ body: "   " }), ANNOUNCEMENT_MESSAGES.bodyRequired],
      [draft({ body: "a\u0000b" }), ANNOUNCEMENT_MESSAGES.bodyControl],
    ] as const) {
      const res = await api("", { method: "POST", json });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(JSON.stringify(message).slice(1, -1));
    }
  });

  it("preview fills in a chosen member's values; Send test goes to the staff member's own address only", async () => {
    const m = await member("covered", { firstName: "Lou" });
    const res = await api("/preview", { method: "POST", json: { ...draft(), certificateNumber: m.certificate.toLowerCase() } });
    expect(res.status).toBe(200);
    const preview = (await res.json()) as PreviewAnswer;
    expect(preview.subject).toBe("Storm season: Lou, check your roof");
    expect(preview.text).toContain(`Membership ID: ${m.certificate}`);
    expect(preview.member).toMatchObject({ certificateNumber: m.certificate, name: "Lou", missing: null });
    expect((await api("/preview", { method: "POST", json: { ...draft(), certificateNumber: "NOPE1" } })).status).toBe(400);

    // Issue 48: the audience's first member has no address; the preview is read as the first who will receive it.
    const audience = { statuses: ["covered"], states: ["WY"] };
    const none = await member("covered", { firstName: "Noaddr", email: null, state: "WY" });
    const gets = await member("covered", { firstName: "Gets", state: "WY" });
    const asFirst = (await (await api("/preview", { method: "POST", json: { ...draft(), audience } })).json()) as PreviewAnswer;
    expect(asFirst.member).toEqual({ certificateNumber: gets.certificate, name: "Gets", missing: null });
    // A member chosen by their number who would not receive it is said to.
    const chosen = await api("/preview", { method: "POST", json: { ...draft(), audience, certificateNumber: none.certificate } });
    expect(((await chosen.json()) as PreviewAnswer).member).toEqual({
      certificateNumber: none.certificate,
      name: "Noaddr",
      missing: "address",
    });
    expect(PREVIEW_MISSING_TEXT.address).toBe("This member has no e-mail address: they will not receive it.");

    const test = await api("/test", { method: "POST", json: { ...draft(), to: "someone@example.net" } });
    expect(test.status).toBe(400); // no address may be typed: the schema is strict
    const sent = await api("/test", { method: "POST", json: draft() });
    expect(sent.status).toBe(200);
    expect(smtp.received.map((r) => r.to)).toEqual([["staff@aha.example.org"]]);
    expect(decodeBody(smtp.received[0].raw)).toContain("Subject: [Test] Storm season: Lou, check your roof");
    // Nothing was queued for members.
    expect(await a.services.database.db.selectFrom("membership_reminders").selectAll().execute()).toHaveLength(0);
  });

  it("one click (POST) stops announcements; the link is the member's HMAC token, and the member's account sets it too", async () => {
    const m = await member("covered");
    const token = a.services.announcements["deps"].tokens.make(m.id);
    // A forged token for the same id, a token for nobody, the MAC cut short, another member's
    // MAC, the id written with a leading zero: not valid, nothing changes.
    const [id36, mac] = token.split(".");
    const others = a.services.announcements["deps"].tokens.make(m.id + 1).split(".")[1];
    for (const bad of [
      `${id36}.${"A".repeat(32)}`,
      "zzzz",
      `${id36}.`,
      `${id36}.${mac.slice(0, 31)}`,
      `${id36}.${others}`,
      `0${id36}.${mac}`,
    ]) {
      const res = await fetch(`${a.url}/unsubscribe/${bad}`, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(404);
    }
    expect(await a.services.announcements.receives(m.id)).toBe(true);
    // The mail program's one click: no cookie, no Origin.
    const click = await fetch(`${a.url}/unsubscribe/${token}`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(click.status).toBe(200);
    expect(await a.services.announcements.receives(m.id)).toBe(false);
    // Any other POST is not a one click: it goes on to the page (none in this API-only server) and changes nothing here.
    await a.services.announcements.setReceive(m.id, true, "account");
    const other = await fetch(`${a.url}/unsubscribe/${token}`, {
      method: "POST",
      body: "a=b",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(other.status).not.toBe(200);
    expect(await a.services.announcements.receives(m.id)).toBe(true);

    // My account: the member's own choice; staff and visitors have none.
    const login = await loginAs(a, "member");
    const mine = (init: RequestInit & { json?: unknown } = {}, cookie = login.cookie) =>
      a.request("/api/account/announcements", { ...init, cookie });
    expect(await (await mine()).json()).toEqual({ success: true, receive: true });
    expect((await mine({ method: "PUT", json: { receive: false } })).status).toBe(200);
    expect(await a.services.announcements.receives(login.userId)).toBe(false);
    expect((await mine({ method: "PUT", json: { receive: "no" } })).status).toBe(400);
    expect((await mine({ method: "PUT", json: { receive: true } })).status).toBe(200);
    expect(await a.services.announcements.receives(login.userId)).toBe(true);
    expect((await mine({}, admin.cookie)).status).toBe(403);
    expect((await a.request("/api/account/announcements")).status).toBe(401);
  });

  it("checked again at each mail's turn: opted out, deactivated or deleted since the start is skipped with the reason", async () => {
    const [keep, quits, deactivated, deleted] = [
      await member("covered"),
      await member("covered"),
      await member("covered"),
      await member("covered"),
    ];
    const ann = await create();
    expect((await api(`/${ann.id}/send`, { method: "POST" })).status).toBe(200);
    await a.services.announcements.setReceive(quits.id, false, "link");
    const { db } = a.services.database;
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", deactivated.id).execute();
    await db.deleteFrom("users").where("id", "=", deleted.id).execute();
    await sendAll(ann.id);
    expect(smtp.received.map((m) => m.to[0])).toEqual([keep.email]);
    const done = await get(ann.id);
    expect(done.progress).toEqual({
      recipients: 4,
      sent: 1,
      waiting: 0,
      failed: 0,
      skipped: { [SKIP_REASONS.optedOut]: 1, [SKIP_REASONS.deactivated]: 1, [SKIP_REASONS.deleted]: 1 },
    });
    expect(done.problems.map((p) => [p.certificateNumber, p.reason])).toEqual(
      expect.arrayContaining([
        [quits.certificate, SKIP_REASONS.optedOut],
        [deactivated.certificate, SKIP_REASONS.deactivated],
      ]),
    );
    const csv = await api(`/${ann.id}/problems.csv`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("certificate_number,name,status,reason,attempts");
    expect(text).toContain(quits.certificate);
  });

  it("cancel mid-send: what was sent stays sent, what waits is skipped as cancelled", async () => {
    for (let i = 0; i < 8; i++) await member("covered");
    const ann = await create();
    expect((await api(`/${ann.id}/send`, { method: "POST" })).status).toBe(200);
    let cancelled = false;
    whileSending = async () => {
      if (cancelled) return;
      cancelled = true;
      expect((await api(`/${ann.id}/cancel`, { method: "POST" })).status).toBe(200);
    };
    await a.services.reminders.runOnce();
    await a.services.reminders.runOnce();
    const done = await get(ann.id);
    expect(done.status).toBe("cancelled");
    const p = done.progress!;
    // The batch in flight (claimed before the cancel) was sent; nothing after it.
    expect(p.sent).toBe(smtp.received.length);
    expect(p.sent).toBeLessThanOrEqual(settings.batchSize);
    expect(p.sent + (p.skipped[SKIP_REASONS.cancelled] ?? 0)).toBe(8);
    expect(p.waiting).toBe(0);
    expect((await api(`/${ann.id}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it("scheduled for a time in the association's zone: starts then, with the audience of that moment; a past time is refused", async () => {
    await member("covered");
    const ann = await create();
    expect((await api(`/${ann.id}/schedule`, { method: "POST", json: { at: "2020-01-01T09:00" } })).status).toBe(400);
    const later = new Date(Date.now() + 2 * 3_600_000);
    const at = later.toLocaleString("sv-SE", { timeZone: a.config.TIME_ZONE }).slice(0, 16).replace(" ", "T");
    const res = await api(`/${ann.id}/schedule`, { method: "POST", json: { at } });
    expect(res.status).toBe(200);
    const scheduled = ((await res.json()) as AnnouncementAnswer).announcement;
    expect(scheduled.status).toBe("scheduled");
    expect(Math.abs(new Date(scheduled.scheduledAt!).getTime() - later.getTime())).toBeLessThan(60_000);
    // Not yet: a check now starts nothing.
    await a.services.reminders.runOnce();
    expect((await get(ann.id)).status).toBe("scheduled");
    // Still editable until it starts; then the time comes (moved into the past here).
    const late = await member("covered");
    expect((await api(`/${ann.id}`, { method: "PUT", json: draft({ subject: "Updated" }) })).status).toBe(200);
    await a.services.database.db
      .updateTable("announcements")
      .set({ scheduled_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", ann.id)
      .execute();
    await sendAll(ann.id);
    expect((await get(ann.id)).status).toBe("sent");
    expect(smtp.received).toHaveLength(2);
    expect(decodeBody(mailsTo(late.email)[0].raw)).toContain("Subject: Updated");
  });

  it("staff only, and a limited_admin only when a super_admin allowed it", async () => {
    const limited = await loginAs(a, "limited_admin");
    const memberLogin = await loginAs(a, "member");
    expect((await a.request("/api/admin/announcements")).status).toBe(401);
    expect((await api("", {}, memberLogin)).status).toBe(403);
    const refused = await api("", {}, limited);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain(ANNOUNCEMENT_MESSAGES.forbidden);
    const permissions = new StaffPermissions(a.services.database.db);
    await permissions.set(limited.userId, "announcements", true, admin.userId, new Date().toISOString());
    expect((await api("", {}, limited)).status).toBe(200);
    await permissions.set(limited.userId, "announcements", false, admin.userId, new Date().toISOString());
    expect((await api("", {}, limited)).status).toBe(403);
    expect((await api("/abc")).status).toBe(400);
    expect((await api("/999999")).status).toBe(404);
  });

  it("a sender killed halfway (SIGKILL): another instance takes over and every member gets exactly one mail", async () => {
    const members = [];
    for (let i = 0; i < 12; i++) members.push(await member("covered"));
    const ann = await create();
    // Started now, sent by the child alone.
    await a.services.database.db
      .updateTable("announcements")
      .set({ status: "scheduled", scheduled_at: new Date(Date.now() - 1000).toISOString(), sent_by: admin.userId })
      .where("id", "=", ann.id)
      .execute();
    // The sixth mail is held at the server, unanswered, until the child is killed; then refused (never delivered).
    let seen = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    whileSending = async () => {
      if (++seen >= 6) await held;
    };
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PUBLIC_URL,
      DATA_DIR: a.dataDir,
      AUTH_SECRET: a.config.AUTH_SECRET!,
      REMINDER_SMTP_CONNECTIONS: "1",
    };
    if (dialect === "sqlite") env.SENDER_SQLITE_FILE = path.join(a.dataDir, "app.db");
    else env.SENDER_PG_SCHEMA = a.services.database.schema!;
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/support/outbox-sender.ts")], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Killed by the file's end should this test time out before its finally.
    endsWithTheFile({
      async close() {
        child.kill("SIGKILL");
        await exited;
      },
    });
    try {
      const sentRows = async () =>
        (
          await a.services.database.db
            .selectFrom("membership_reminders")
            .select("id")
            .where("kind", "=", ANNOUNCEMENT_KIND)
            .where("status", "=", "sent")
            .execute()
        ).length;
      // The first five delivered and recorded, the sixth held: kill it there.
      await vi.waitFor(async () => expect(await sentRows()).toBe(5), { timeout: LOADED_WAIT_MS, interval: 50 });
      await vi.waitFor(() => expect(seen).toBeGreaterThanOrEqual(6), { timeout: LOADED_WAIT_MS, interval: 50 });
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    refusing = "421 4.4.2 Connection dropped";
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    refusing = null;
    whileSending = null;
    expect(smtp.received).toHaveLength(5);

    // A new server on this machine takes back what the dead one held, and sends the rest.
    await a.services.reminders.start(60_000);
    await sendAll(ann.id);
    expect((await get(ann.id)).status).toBe("sent");
    const to = smtp.received.map((m) => m.to[0]).sort();
    expect(to).toEqual(members.map((m) => m.email).sort());
    await a.services.reminders.stop();
  });
});
