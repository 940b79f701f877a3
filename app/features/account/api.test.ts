import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, sessionCookieFrom, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { guardRows, sessionKey } from "../../../tests/support/row-guard";
import { ACCOUNT_MESSAGES, type AccountOverview } from "./contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("my account", (dialect) => {
  let server: TestServer;
  let member: { cookie: string; userId: number };
  let other: { cookie: string; userId: number };
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    member = await loginAs(server, "member");
    other = await loginAs(server, "member");
    staff = await loginAs(server, "limited_admin", { username: "account-staff" });
  });
  afterAll(() => server.close());

  const overview = async (cookie = member.cookie) => {
    const res = await server.request("/api/account", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    return (await res.json()) as AccountOverview & { success: true };
  };
  const contact = { name: "Mia Member", email: "mia@example.com", phone: "", subject: "warranty", message: "Is my furnace covered?" };

  it("lists what the member sent while signed in, newest first, with each status change and its date", async () => {
    const mine = await server.request("/api/forms", { method: "POST", json: contact, cookie: member.cookie });
    expect(mine.status).toBe(201);
    const mineId = (await mine.json()).id as number;
    // Sent anonymously, or by someone else: not theirs.
    expect((await server.request("/api/forms", { method: "POST", json: { ...contact, name: "Anon" } })).status).toBe(201);
    expect((await server.request("/api/forms", { method: "POST", json: { ...contact, name: "Other" }, cookie: other.cookie })).status).toBe(
      201,
    );
    const request = await server.request("/api/cpa-requests", {
      method: "POST",
      cookie: member.cookie,
      json: { fullName: "Mia Member", email: "mia@example.com", phone: "2035550100", notes: "Statement please" },
    });
    expect(request.status).toBe(201);

    for (const status of ["in-review", "completed"])
      expect(
        (await server.request("/api/admin/forms", { method: "PUT", cookie: staff.cookie, json: { id: `contact_${mineId}`, status } }))
          .status,
      ).toBe(200);

    const { membership, submissions } = await overview();
    expect(membership).toMatchObject({ active: true, certificate: expect.any(String), memberSince: expect.any(String) });
    expect(submissions.map((s) => s.formType)).toEqual(["CPA Request", "Contact Form"]);
    const sent = submissions.find((s) => s.ref === `contact_${mineId}`)!;
    expect(sent).toMatchObject({ status: "completed", statusLabel: "Completed" });
    expect(sent.changes.map((c) => c.toLabel)).toEqual(["In Review", "Completed"]);
    expect(sent.changes.every((c) => c.at >= sent.submittedAt)).toBe(true);
    expect(submissions.find((s) => s.formType === "CPA Request")).toMatchObject({ statusLabel: "Pending", changes: [] });
    expect((await overview(other.cookie)).submissions.map((s) => s.formType)).toEqual(["Contact Form"]);
  });

  it("the member keeps their contact details; wrong ones are refused field by field; staff see them", async () => {
    const put = (json: unknown, cookie = member.cookie) => server.request("/api/account/contact", { method: "PUT", json, cookie });
    // A new e-mail address waits for a link (email-change.test.ts): this site sends no mail.
    const saved = await put({
      email: "",
      phone: "203-555-0100",
      address1: "1 Elm St",
      address2: "",
      city: "Stamford",
      state: "ct",
      zip: "06905",
    });
    expect(saved.status).toBe(200);
    const expected = {
      email: null,
      // Formatted as the public forms format it.
      phone: "(203) 555-0100",
      address1: "1 Elm St",
      address2: null,
      city: "Stamford",
      state: "CT",
      zip: "06905",
    };
    expect(await saved.json()).toEqual({ success: true, contact: expected, emailPending: null });
    expect((await overview()).contact).toEqual(expected);

    const bad = await put({ email: "mia@", phone: "12", state: "Conn", zip: "6905", city: "a\u0007b" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details).toEqual({
      email: ACCOUNT_MESSAGES.email,
      phone: ACCOUNT_MESSAGES.phone,
      state: "State must be at most 2 characters.",
      zip: ACCOUNT_MESSAGES.zip,
      city: ACCOUNT_MESSAGES.notAllowed("City"),
    });
    expect((await overview()).contact).toEqual(expected);

    // In the audit log by field name, never by value.
    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "account.contact_update")
      .execute();
    expect(audit.map((a) => [Number(a.actor_id), JSON.parse(a.details!).fields])).toEqual([
      [member.userId, ["phone", "address1", "city", "state", "zip"]],
    ]);
    expect(JSON.stringify(audit)).not.toContain("Stamford");

    // Staff: no account of their own; the member's details reach them in member administration.
    expect((await server.request("/api/account", { cookie: staff.cookie })).status).toBe(403);
    expect((await put(expected, staff.cookie)).status).toBe(403);
    const members = await (
      await server.request(`/api/admin/members?q=${encodeURIComponent((await overview()).membership.certificate)}`, {
        cookie: staff.cookie,
      })
    ).json();
    expect(members.members[0]).toMatchObject({
      phone: "(203) 555-0100",
      city: "Stamford",
      state: "CT",
      zip: "06905",
    });
    expect((await server.request("/api/account")).status).toBe(401);
  });

  describe("sign out everywhere", () => {
    /** Another session of the same account, as from another browser. */
    const memberSession = async (certificate: string) =>
      sessionCookieFrom(await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } }));
    const staffSession = async (username: string) =>
      sessionCookieFrom(
        await server.request("/api/auth/login", {
          method: "POST",
          json: { username, password: "correct horse battery", kind: "staff" },
        }),
      );
    const me = async (cookie: string) =>
      ((await (await server.request("/api/auth/me", { cookie })).json()) as { user: { id: number } | null }).user;
    const signOutEverywhere = (cookie?: string, headers: Record<string, string> = {}) =>
      server.request("/api/account/sign-out-everywhere", { method: "POST", json: {}, headers, ...(cookie ? { cookie } : {}) });
    const certificateOf = async (userId: number) =>
      (
        await server.services.database.db
          .selectFrom("users")
          .select("certificate_number")
          .where("id", "=", userId)
          .executeTakeFirstOrThrow()
      ).certificate_number!;

    it("ends every other session of the member's account, keeps this one, and leaves other accounts alone", async () => {
      const current = await loginAs(server, "member");
      const certificate = await certificateOf(current.userId);
      const others = [await memberSession(certificate), await memberSession(certificate)];
      const bystander = await loginAs(server, "member");
      const staffMember = await loginAs(server, "limited_admin");
      const guard = await guardRows(server.services.database.db, ["sessions"]);
      const res = await signOutEverywhere(current.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(await res.json()).toEqual({ success: true, ended: 2 });
      // Exactly the account's other sessions are gone; the one asking may only be touched.
      await guard.expectChanges({ sessions: { removed: others.map(sessionKey), mayChange: [sessionKey(current.cookie)] } });

      expect(await me(current.cookie)).toMatchObject({ id: current.userId });
      for (const cookie of others) expect(await me(cookie)).toBeNull();
      expect(await me(bystander.cookie)).toMatchObject({ id: bystander.userId });
      expect(await me(staffMember.cookie)).toMatchObject({ id: staffMember.userId });

      // Nothing left to end: 0, and the session asking still works.
      expect(await (await signOutEverywhere(current.cookie)).json()).toEqual({ success: true, ended: 0 });
      expect(await me(current.cookie)).toMatchObject({ id: current.userId });

      const audit = await server.services.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "account.sign_out_everywhere")
        .where("actor_id", "=", current.userId)
        .orderBy("id")
        .execute();
      expect(audit.map((a) => [a.target_type, Number(a.target_id), a.target_label, Number(a.row_count)])).toEqual([
        ["member", current.userId, certificate, 2],
        ["member", current.userId, certificate, 0],
      ]);
    });

    it("does the same for a staff account", async () => {
      const username = `everywhere${dialect}`;
      const current = await loginAs(server, "super_admin", { username });
      const other = await staffSession(username);
      const colleague = await loginAs(server, "super_admin");
      const res = await signOutEverywhere(current.cookie);
      expect(await res.json()).toEqual({ success: true, ended: 1 });
      expect(await me(other)).toBeNull();
      expect(await me(current.cookie)).toMatchObject({ id: current.userId });
      expect(await me(colleague.cookie)).toMatchObject({ id: colleague.userId });
      const entry = await server.services.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("action", "=", "account.sign_out_everywhere")
        .where("actor_id", "=", current.userId)
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ target_type: "staff", target_label: username, actor_label: username });
    });

    it("needs a session, and is refused cross-site without ending anything", async () => {
      expect((await signOutEverywhere()).status).toBe(401);
      const current = await loginAs(server, "member");
      const other = await memberSession(await certificateOf(current.userId));
      const refused = await signOutEverywhere(current.cookie, { "Sec-Fetch-Site": "cross-site" });
      expect(refused.status).toBe(403);
      expect(await me(other)).toMatchObject({ id: current.userId });
    });
  });
});
