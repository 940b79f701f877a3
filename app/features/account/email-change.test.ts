import http from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { decodeBody, startSmtp } from "../../../tests/support/smtp";
import { EMAIL_CHANGE, type AccountOverview, type ContactSaved } from "./contract";
import { changedText, confirmText } from "./email-change.server";
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** Issue 39 §3.1: a member's new e-mail address takes effect only once a link sent to it is followed. */
describeEachDatabase("changing a member's e-mail address", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(dialect, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL: "https://aha.example" });
    staff = await loginAs(server, "limited_admin");
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const db = () => server.services.database.db;
  const put = (cookie: string, json: unknown) => server.request("/api/account/contact", { method: "PUT", json, cookie });
  const overview = async (cookie: string) => (await (await server.request("/api/account", { cookie })).json()) as AccountOverview;
  const emailOf = async (userId: number) =>
    (await db().selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;
  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address)).map((m) => decodeBody(m.raw));
  const linkIn = (body: string) => /https:\/\/aha\.example\/account\/email\/([A-Za-z0-9_-]{43})/.exec(body)?.[1] ?? null;
  /** A member with an address on record, as an application or an import gives one. */
  const memberWith = async (email: string | null) => {
    const member = await loginAs(server, "member");
    await db().updateTable("users").set({ email }).where("id", "=", member.userId).execute();
    return member;
  };

  it("keeps the old address until the link sent to the new one is followed, once; the old address is told", async () => {
    const old = `old-${dialect}@example.com`;
    const next = `new-${dialect}@example.com`;
    const member = await memberWith(old);
    const res = await put(member.cookie, { email: next, phone: "203-555-0100" });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as ContactSaved;
    expect(answer).toMatchObject({ success: true, emailPending: next, contact: { email: old, phone: "(203) 555-0100" } });
    expect(EMAIL_CHANGE.pending(next)).toBe(`We sent a link to ${next}: the change takes effect when you follow it.`);
    // Not yet: reminders and welcomes still go to the old address.
    expect(await emailOf(member.userId)).toBe(old);
    expect((await overview(member.cookie)).emailPending).toBe(next);

    const [mail] = mailsTo(next);
    const token = linkIn(mail)!;
    expect(token).toBeTruthy();
    // The mail tells the new address's owner nothing of the member.
    const { certificate_number } = await db()
      .selectFrom("users")
      .select("certificate_number")
      .where("id", "=", member.userId)
      .executeTakeFirstOrThrow();
    expect(mail).not.toContain(certificate_number!);
    expect(mail).not.toContain("Pat");
    expect(mailsTo(old)).toEqual([]);
    // Only the digest is stored.
    const rows = await db().selectFrom("email_changes").selectAll().where("user_id", "=", member.userId).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    // Opening the link changes nothing; confirming does, once.
    expect(await server.services.emailChanges.inspect(token)).toEqual({ state: "valid", newEmail: next });
    expect(await emailOf(member.userId)).toBe(old);
    expect(await server.services.emailChanges.confirm(token)).toEqual({ state: "valid", newEmail: next });
    expect(await emailOf(member.userId)).toBe(next);
    expect(await server.services.emailChanges.confirm(token)).toEqual({ state: "used", newEmail: next });
    expect((await overview(member.cookie)).emailPending).toBeNull();

    // The old address is told, without the new one.
    const told = mailsTo(old);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("was changed on");
    // When, in the association's zone (TIME_ZONE, New York here), the zone named (issue 48).
    expect(told[0]).toMatch(/was changed on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T\./);
    expect(told[0]).not.toContain(next);
    const audit = await db()
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "account.email_change")
      .where("target_id", "=", member.userId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(next);
  });

  it("members together cannot flood one address: 3 links a day to it, whoever asks", async () => {
    const target = `stranger-${dialect}@example.com`;
    for (let n = 0; n < 3; n++) expect((await put((await memberWith(null)).cookie, { email: target })).status).toBe(200);
    const refused = await put((await memberWith(null)).cookie, { email: target });
    expect(refused.status).toBe(429);
    expect(mailsTo(target)).toHaveLength(3);
  });

  it("an expired link, an unknown one and one replaced by a newer request say so and change nothing", async () => {
    const member = await memberWith(null);
    await put(member.cookie, { email: `first-${dialect}@example.com` });
    const first = linkIn(mailsTo(`first-${dialect}@example.com`)[0])!;
    await put(member.cookie, { email: `second-${dialect}@example.com` });
    const second = linkIn(mailsTo(`second-${dialect}@example.com`)[0])!;
    expect(await server.services.emailChanges.confirm(first)).toEqual({ state: "invalid" });
    await db().updateTable("email_changes").set({ expires_at: "2000-01-01T00:00:00.000Z" }).where("user_id", "=", member.userId).execute();
    expect(await server.services.emailChanges.confirm(second)).toEqual({ state: "expired" });
    expect(await server.services.emailChanges.confirm("x".repeat(43))).toEqual({ state: "invalid" });
    expect(await server.services.emailChanges.confirm("../../etc")).toEqual({ state: "invalid" });
    expect(await emailOf(member.userId)).toBeNull();
  });

  it("two confirmations at once use the link once", async () => {
    const member = await memberWith(`race-old-${dialect}@example.com`);
    await put(member.cookie, { email: `race-${dialect}@example.com` });
    const token = linkIn(mailsTo(`race-${dialect}@example.com`)[0])!;
    const results = await Promise.all([1, 2, 3].map(() => server.services.emailChanges.confirm(token)));
    expect(results.filter((r) => r.state === "valid")).toHaveLength(1);
    expect(mailsTo(`race-old-${dialect}@example.com`)).toHaveLength(1);
  });

  /** Runs `fn` while the database refuses `event` on `table` where `when` holds (a trigger). */
  async function whileRefused(event: string, table: string, when: string, fn: () => Promise<void>) {
    const [on, cond] = [sql.raw(`${event} on ${table}`), sql.raw(when)];
    if (dialect === "sqlite")
      await sql`create trigger planted_failure before ${on} for each row when ${cond} begin select raise(abort, 'planted failure'); end`.execute(
        db(),
      );
    else {
      await sql`create function planted_failure() returns trigger language plpgsql as $$ begin raise exception 'planted failure'; end $$`.execute(
        db(),
      );
      await sql`create trigger planted_failure before ${on} for each row when (${cond}) execute function planted_failure()`.execute(db());
    }
    try {
      await fn();
    } finally {
      if (dialect === "sqlite") await sql`drop trigger planted_failure`.execute(db());
      else await sql`drop function planted_failure() cascade`.execute(db());
    }
  }

  it("a confirmation whose transaction fails at or after the address's write leaves everything as it was", async () => {
    for (const [what, event, table, when] of [
      // The address's write itself.
      ["address", "update of email", "users", "new.email like 'rollback-new-%'"],
      // The audit entry, the transaction's last write (after the address's).
      ["audit", "insert", "audit_log", "new.action = 'account.email_change'"],
    ]) {
      const old = `rollback-old-${what}-${dialect}@example.com`;
      const next = `rollback-new-${what}-${dialect}@example.com`;
      const member = await memberWith(old);
      await put(member.cookie, { email: next });
      const token = linkIn(mailsTo(next)[0])!;
      await whileRefused(event, table, when, async () => {
        await expect(server.services.emailChanges.confirm(token), what).rejects.toThrow(/planted failure/);
      });
      expect([what, await emailOf(member.userId)]).toEqual([what, old]);
      expect([what, await server.services.emailChanges.inspect(token)]).toEqual([what, { state: "valid", newEmail: next }]);
      expect([what, await server.services.emailChanges.pending(member.userId)]).toEqual([what, next]);
      const audit = await db()
        .selectFrom("audit_log")
        .select("id")
        .where("action", "=", "account.email_change")
        .where("target_id", "=", member.userId)
        .execute();
      expect([what, audit]).toEqual([what, []]);
      expect([what, mailsTo(old)]).toEqual([what, []]);
      // The link is still good once the database takes the writes again.
      expect(await server.services.emailChanges.confirm(token)).toEqual({ state: "valid", newEmail: next });
      expect(await emailOf(member.userId)).toBe(next);
    }
  });

  it("two requests at once leave one waiting link", async () => {
    // Several members, each asking twice in the same moment: on PostgreSQL each pair's
    // transactions overlap (a waiting link another has not committed yet is not seen).
    const { auth } = server.services;
    for (let k = 0; k < 8; k++) {
      const { id } = await auth.users.createMember({
        certificate: `TWICE${dialect}${k}`,
        birthdateDigest: auth.digestBirthdate("1980-01-15"),
        firstName: "Pat",
      });
      const addresses = [1, 2].map((n) => `twice${k}-${n}-${dialect}@example.com`);
      await Promise.all(addresses.map((address) => server.services.emailChanges.request(id, address)));
      const waiting = await db()
        .selectFrom("email_changes")
        .select("new_email")
        .where("user_id", "=", id)
        .where("used_at", "is", null)
        .execute();
      expect([k, waiting.length]).toEqual([k, 1]);
      expect(addresses).toContain(waiting[0].new_email);
      expect(await server.services.emailChanges.pending(id)).toBe(waiting[0].new_email);
    }
  });

  it("saving the same waiting address again sends no second link; the requests are limited", async () => {
    const member = await memberWith(null);
    const address = (n: number) => `many${n}-${dialect}@example.com`;
    await put(member.cookie, { email: address(0) });
    await put(member.cookie, { email: address(0), city: "Stamford" });
    expect(mailsTo(address(0))).toHaveLength(1);
    for (let n = 1; n < 5; n++) expect((await put(member.cookie, { email: address(n), city: "Stamford" })).status).toBe(200);
    const refused = await put(member.cookie, { email: address(5), city: "Norwalk" });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(EMAIL_CHANGE.tooMany);
    expect(mailsTo(address(5))).toEqual([]);
    // Nothing of the refused save is kept.
    expect((await overview(member.cookie)).contact.city).toBe("Stamford");
  });

  it("removing the address takes effect at once and tells it; staff's change takes effect at once, audited, and tells the old one", async () => {
    const gone = `gone-${dialect}@example.com`;
    const member = await memberWith(gone);
    expect(await (await put(member.cookie, { email: "" })).json()).toMatchObject({ emailPending: null, contact: { email: null } });
    expect(await emailOf(member.userId)).toBeNull();
    expect(mailsTo(gone)).toHaveLength(1);

    const before = `staff-old-${dialect}@example.com`;
    const after = `staff-new-${dialect}@example.com`;
    const other = await memberWith(before);
    // A link the member waits for no longer counts once staff set the address.
    await put(other.cookie, { email: `waiting-${dialect}@example.com` });
    const waiting = linkIn(mailsTo(`waiting-${dialect}@example.com`)[0])!;
    const res = await server.request(`/api/admin/members/${other.userId}`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { first_name: "Pat", last_name: null, email: after },
    });
    expect(res.status).toBe(200);
    expect(await emailOf(other.userId)).toBe(after);
    expect(mailsTo(after)).toEqual([]);
    const told = mailsTo(before);
    expect(told).toHaveLength(1);
    expect(told[0]).not.toContain(after);
    expect(await server.services.emailChanges.confirm(waiting)).toEqual({ state: "invalid" });
    expect(await emailOf(other.userId)).toBe(after);
    const entry = await db()
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "members.update")
      .where("target_id", "=", other.userId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details!).fields).toContain("email");
  });

  it("an address the member import replaces is told too, after the import", async () => {
    const before = `import-old-${dialect}@example.com`;
    const after = `import-new-${dialect}@example.com`;
    const member = await memberWith(before);
    const { certificate_number } = await db()
      .selectFrom("users")
      .select("certificate_number")
      .where("id", "=", member.userId)
      .executeTakeFirstOrThrow();
    const res = await server.request("/api/upload-users", {
      method: "POST",
      cookie: staff.cookie,
      json: {
        csvContent: `certificate_number,birthdate,first_name,last_name,email\n${certificate_number},1980-01-15,Pat,,${after}\n`,
        filename: "m.csv",
      },
    });
    expect(res.status).toBe(200);
    expect(await emailOf(member.userId)).toBe(after);
    await expect.poll(() => mailsTo(before).length, { timeout: LOADED_WAIT_MS }).toBe(1);
    expect(mailsTo(before)[0]).not.toContain(after);
    expect(mailsTo(after)).toEqual([]);
  });

  it("sends no link whose address the asking member wrote: without PUBLIC_URL the change is refused, whatever Host says", async () => {
    const noAddress = await startTestServer(dialect, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      const member = await loginAs(noAddress, "member");
      const target = `victim-${dialect}@example.com`;
      const body = JSON.stringify({ email: target });
      // Host and Origin agree (the cross-site check passes), as a script, not a browser, sends them.
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          `${noAddress.url}/api/account/contact`,
          {
            method: "PUT",
            headers: {
              Host: "evil.example",
              Origin: "http://evil.example",
              Cookie: member.cookie,
              "Content-Type": "application/json",
              "Content-Length": Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = "";
            res.on("data", (c) => (text += c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).details).toEqual({ email: EMAIL_CHANGE.mailOff });
      expect(smtp.received.filter((m) => m.to.includes(target))).toEqual([]);
    } finally {
      await noAddress.close();
    }
  });

  it("is refused, saving nothing, when the site sends no mail", async () => {
    const quiet = await startTestServer(dialect);
    try {
      const member = await loginAs(quiet, "member");
      const res = await quiet.request("/api/account/contact", {
        method: "PUT",
        cookie: member.cookie,
        json: { email: "someone@example.com", city: "Darien" },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual({ email: EMAIL_CHANGE.mailOff });
      const row = await quiet.services.database.db
        .selectFrom("users")
        .select(["email", "city"])
        .where("id", "=", member.userId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ email: null, city: null });
    } finally {
      await quiet.close();
    }
  });
});

describe("the e-mail change's mails", () => {
  it("name the link and the association, nothing of the member", () => {
    expect(confirmText("AHA", "https://aha.example/account/email/t")).toContain("https://aha.example/account/email/t");
    expect(changedText("AHA", "info@aha.example", "November 27, 2026")).toContain("please contact us at info@aha.example");
  });
});
