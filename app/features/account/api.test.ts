import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { ACCOUNT_MESSAGES, type AccountOverview } from "./contract";

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
    const saved = await put({
      email: " mia@example.com ",
      phone: "203-555-0100",
      address1: "1 Elm St",
      address2: "",
      city: "Stamford",
      state: "ct",
      zip: "06905",
    });
    expect(saved.status).toBe(200);
    const expected = {
      email: "mia@example.com",
      // Formatted as the public forms format it.
      phone: "(203) 555-0100",
      address1: "1 Elm St",
      address2: null,
      city: "Stamford",
      state: "CT",
      zip: "06905",
    };
    expect((await saved.json()).contact).toEqual(expected);
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
      [member.userId, ["email", "phone", "address1", "city", "state", "zip"]],
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
      email: "mia@example.com",
      phone: "(203) 555-0100",
      city: "Stamford",
      state: "CT",
      zip: "06905",
    });
    expect((await server.request("/api/account")).status).toBe(401);
  });
});
