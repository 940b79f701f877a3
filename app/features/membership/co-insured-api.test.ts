import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { insertApplication } from "../../../tests/support/submission-fixtures";
import { CO_INSURED_MESSAGES } from "./co-insured";
import { MEMBERSHIP_MESSAGES, type MembershipAnswer } from "./contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const SAM = {
  firstName: "Sam",
  lastName: "Quintero",
  birthdate: "1984-07-09",
  gender: "Male",
  email: "sam.q@example.com",
  phone: "(555) 123-4567",
};

describeEachDatabase("membership: the co-insured of a household plan", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = await loginAs(server, "limited_admin", { username: "co-insured-staff" });
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  const base = (id: number) => `/api/admin/members/${id}/membership`;
  const put = (id: number, json: unknown, cookie = staff.cookie) =>
    server.request(`${base(id)}/co-insured`, { method: "PUT", cookie, json });
  const remove = (id: number, cookie = staff.cookie) => server.request(`${base(id)}/co-insured`, { method: "DELETE", cookie });
  const view = async (id: number) => (await (await server.request(base(id), { cookie: staff.cookie })).json()) as MembershipAnswer;
  const audit = async (id: number) =>
    (
      await db()
        .selectFrom("audit_log")
        .select(["action", "details", "target_label"])
        .where("target_id", "=", id)
        .where("action", "=", "membership.co_insured")
        .orderBy("id")
        .execute()
    ).map((a) => ({ ...a, details: JSON.parse(a.details ?? "null") as unknown }));
  async function memberWithPlan() {
    const m = await loginAs(server, "member");
    const res = await server.request(`${base(m.userId)}/plan`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { billing: "monthly", approvedOn: "2026-01-15" },
    });
    expect(res.status).toBe(200);
    return m;
  }

  it("staff add, change and remove the co-insured; each is audited by field name, never by value", async () => {
    const m = await memberWithPlan();
    expect((await view(m.userId)).coInsured).toBeNull();

    const added = await put(m.userId, { ...SAM, phone: "555.123.4567" });
    expect(added.status).toBe(200);
    expect(((await added.json()) as MembershipAnswer).coInsured).toEqual(SAM);

    const changed = await put(m.userId, { ...SAM, email: "", gender: "Prefer not to say" });
    expect(changed.status).toBe(200);
    expect((await view(m.userId)).coInsured).toEqual({ ...SAM, email: null, gender: "Prefer not to say" });

    const removed = await remove(m.userId);
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as MembershipAnswer).coInsured).toBeNull();
    const again = await remove(m.userId);
    expect(again.status).toBe(404);
    expect((await again.json()).error).toBe(CO_INSURED_MESSAGES.none);

    const entries = await audit(m.userId);
    expect(entries.map((e) => e.details)).toEqual([
      { change: "added", fields: ["firstName", "lastName", "birthdate", "gender", "email", "phone"] },
      { change: "changed", fields: ["gender", "email"] },
      { change: "removed" },
    ]);
    const { certificate_number } = await db()
      .selectFrom("users")
      .select("certificate_number")
      .where("id", "=", m.userId)
      .executeTakeFirstOrThrow();
    expect(entries.every((e) => e.target_label === certificate_number)).toBe(true);
    for (const secret of ["Sam", "Quintero", "1984", "sam.q", "123-4567", "123.4567", "Male"])
      expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it("refuses bad fields with their messages and keeps what was there; no plan, no co-insured", async () => {
    const m = await memberWithPlan();
    expect((await put(m.userId, SAM)).status).toBe(200);
    const bad = await put(m.userId, {
      firstName: "Pay now at http://evil.example/pay - urgent",
      lastName: "Rivera",
      birthdate: "2999-01-01",
      email: "not-an-address",
      phone: "call me",
      gender: "x",
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details).toEqual({
      firstName: "First name must be a name, not a web or e-mail address.",
      birthdate: "Date of birth cannot be in the future.",
      email: CO_INSURED_MESSAGES.email,
      phone: CO_INSURED_MESSAGES.phone,
      gender: CO_INSURED_MESSAGES.gender,
    });
    expect((await put(m.userId, { firstName: "Sam\u0000" })).status).toBe(400);
    expect((await put(m.userId, "Sam")).status).toBe(400);
    expect((await view(m.userId)).coInsured).toEqual(SAM);

    const planless = await loginAs(server, "member");
    const refused = await put(planless.userId, SAM);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe(MEMBERSHIP_MESSAGES.noPlan);
    expect(await db().selectFrom("membership_co_insured").select("user_id").where("user_id", "=", planless.userId).execute()).toEqual([]);
    expect((await put(999_999, SAM)).status).toBe(404);
  });

  it("two staff adding at once take turns: one row, one added and one changed", async () => {
    const m = await memberWithPlan();
    const answers = await Promise.all([put(m.userId, SAM), put(m.userId, { ...SAM, firstName: "Samantha" })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await audit(m.userId)).map((e) => (e.details as { change: string }).change).sort()).toEqual(["added", "changed"]);
    expect(await db().selectFrom("membership_co_insured").select("user_id").where("user_id", "=", m.userId).execute()).toHaveLength(1);
  });

  it("the member sees the co-insured's name and no more of them; no one else reaches them", async () => {
    const m = await memberWithPlan();
    await put(m.userId, SAM);
    const own = await server.request("/api/account/membership", { cookie: m.cookie });
    const text = await own.text();
    expect((JSON.parse(text) as MembershipAnswer).coInsured).toEqual({
      firstName: "Sam",
      lastName: "Quintero",
      birthdate: null,
      gender: null,
      email: null,
      phone: null,
    });
    for (const secret of ["1984", "sam.q", "123-4567", "123.4567", "Male"]) expect(text).not.toContain(secret);

    // Another member reaches neither the staff answer nor the changes.
    const other = await loginAs(server, "member");
    expect((await server.request(base(m.userId), { cookie: other.cookie })).status).toBe(403);
    expect((await put(m.userId, { firstName: "Mallory" }, other.cookie)).status).toBe(403);
    expect((await remove(m.userId, other.cookie)).status).toBe(403);
    expect((await server.request(`${base(m.userId)}/co-insured`, { method: "DELETE" })).status).toBe(401);
    expect((await view(m.userId)).coInsured).toEqual(SAM);
  });

  it("deleting the member deletes the co-insured with the plan", async () => {
    const m = await memberWithPlan();
    await put(m.userId, SAM);
    const res = await server.request(`/api/admin/members/${m.userId}`, { method: "DELETE", cookie: staff.cookie });
    expect(res.status).toBe(200);
    expect(await db().selectFrom("membership_co_insured").select("user_id").where("user_id", "=", m.userId).execute()).toEqual([]);
  });

  const approveAndMake = async (id: number, linkTo: number | null = null) => {
    const approved = await server.request("/api/admin/forms", {
      method: "PUT",
      cookie: staff.cookie,
      json: { id: `application_${id}`, status: "approved" },
    });
    expect(approved.status).toBe(200);
    const res = await server.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie: staff.cookie, json: { linkTo } });
    expect(res.status).toBeLessThan(300);
    return ((await res.json()) as { member: { id: number } }).member.id;
  };

  it("a member made from an application has its co-applicant as the plan's co-insured, audited with the application", async () => {
    const id = await insertApplication(server.services.database, {
      applicant_name: "Dana Household",
      dob: "1982-02-02",
      co_applicant_name: " Sam  Q. Household ",
      co_dob: "1983-03-03",
      co_gender: "Other",
      co_email: "sam.h@example.com",
      co_phone: "(555) 222-3333",
    });
    const memberId = await approveAndMake(id);
    expect((await view(memberId)).coInsured).toEqual({
      firstName: "Sam Q.",
      lastName: "Household",
      birthdate: "1983-03-03",
      gender: "Other",
      email: "sam.h@example.com",
      phone: "(555) 222-3333",
    });
    expect((await audit(memberId)).map((e) => e.details)).toEqual([{ change: "added", application: `application_${id}` }]);
  });

  it("an application without a co-applicant gives none; a member linked to who keeps their plan gets none", async () => {
    const alone = await insertApplication(server.services.database, {
      applicant_name: "Lone Applicant",
      dob: "1975-05-05",
      co_applicant_name: null,
      co_dob: null,
      co_gender: null,
      co_email: null,
      co_phone: null,
    });
    expect((await view(await approveAndMake(alone))).coInsured).toBeNull();

    const existing = await server.services.auth.users.createMember({
      certificate: `KEEP-${dialect}`,
      birthdateDigest: server.services.auth.digestBirthdate("1966-06-06"),
      firstName: "Lee",
      lastName: "Keeper",
    });
    const keeperId = Number(existing.id);
    await server.request(`${base(keeperId)}/plan`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { billing: "annual", approvedOn: "2024-05-05" },
    });
    const linked = await insertApplication(server.services.database, {
      applicant_name: "Lee Keeper",
      dob: "1966-06-06",
      co_applicant_name: "Mallory Attacker",
      co_email: "mallory@example.com",
    });
    expect(await approveAndMake(linked, keeperId)).toBe(keeperId);
    expect((await view(keeperId)).coInsured).toBeNull();
    expect(await audit(keeperId)).toEqual([]);
  });
});
