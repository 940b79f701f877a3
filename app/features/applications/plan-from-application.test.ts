import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { insertApplication } from "../../../tests/support/submission-fixtures";
import type { MembershipAnswer } from "~/features/membership/contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("an approved application's member gets a plan from the application", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect, { TIME_ZONE: "America/New_York" });
    staff = await loginAs(server, "limited_admin", { username: "plan-staff" });
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  const approve = async (id: number) => {
    const res = await server.request("/api/admin/forms", {
      method: "PUT",
      cookie: staff.cookie,
      json: { id: `application_${id}`, status: "approved" },
    });
    expect(res.status).toBe(200);
  };
  const makeMember = async (id: number, linkTo: number | null = null) => {
    const res = await server.request(`/api/admin/applications/${id}/member`, { method: "POST", cookie: staff.cookie, json: { linkTo } });
    expect(res.status).toBeLessThan(300);
    return ((await res.json()) as { member: { id: number } }).member.id;
  };
  const membership = async (memberId: number) =>
    (await (await server.request(`/api/admin/members/${memberId}/membership`, { cookie: staff.cookie })).json()) as MembershipAnswer;

  it("takes the amount of coverage and the beneficiary, bills monthly, and is approved on the association's day of the approval", async () => {
    const id = await insertApplication(server.services.database, {
      applicant_name: "Robin Planholder",
      dob: "1979-04-02",
      email: "robin@example.com",
      amount_of_coverage: "125000.50",
      beneficiary_name: "Casey Planholder",
      beneficiary_relationship: "spouse",
    });
    await approve(id);
    // Approved at 03:30 UTC on March 1: still February 28 in New York.
    await db()
      .updateTable("audit_log")
      .set({ created_at: "2026-03-01T03:30:00.000Z" })
      .where("action", "=", "submissions.status")
      .where("target_label", "=", `application_${id}`)
      .execute();
    const memberId = await makeMember(id);
    const view = await membership(memberId);
    expect(view.plan).toEqual({
      billing: "monthly",
      coverageCents: 12_500_050,
      beneficiaryName: "Casey Planholder",
      beneficiaryRelationship: "spouse",
      approvedOn: "2026-02-28",
      carriedPaidThrough: null,
    });
    expect(view.coverage.label).toBe("Awaiting first payment");
    const audit = await db()
      .selectFrom("audit_log")
      .select(["details"])
      .where("action", "=", "membership.plan")
      .where("target_id", "=", memberId)
      .execute();
    expect(audit.map((a) => JSON.parse(a.details!))).toEqual([
      { billing: "monthly", approvedOn: "2026-02-28", application: `application_${id}` },
    ]);
  });

  it("is approved today when the log holds no approval, and a member linked to keeps the plan they have", async () => {
    const id = await insertApplication(server.services.database, {
      applicant_name: "Sky Nolog",
      dob: "1990-06-06",
      email: "sky@example.com",
      status: "approved",
    });
    const memberId = await makeMember(id);
    expect((await membership(memberId)).plan?.approvedOn).toBe(server.services.coverage.today());

    const existing = await server.services.auth.users.createMember({
      certificate: "PLAN-KEEP",
      birthdateDigest: server.services.auth.digestBirthdate("1966-01-01"),
      firstName: "Lee",
      lastName: "Keeper",
    });
    const put = await server.request(`/api/admin/members/${existing.id}/membership/plan`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { billing: "annual", approvedOn: "2024-05-05", coverageAmount: "90000" },
    });
    expect(put.status).toBe(200);
    const linked = await insertApplication(server.services.database, {
      applicant_name: "Lee Keeper",
      dob: "1966-01-01",
      email: "lee@example.com",
      status: "approved",
    });
    expect(await makeMember(linked, existing.id)).toBe(existing.id);
    expect((await membership(existing.id)).plan).toMatchObject({ billing: "annual", approvedOn: "2024-05-05", coverageCents: 9_000_000 });
  });
  it("leaves out an amount of coverage no plan can hold (it stays for staff to give), and still makes the member", async () => {
    // $999,999,999: past the plan's column on PostgreSQL, which would refuse the whole approval.
    const id = await insertApplication(server.services.database, {
      applicant_name: "Huge Coverage",
      dob: "1970-01-01",
      amount_of_coverage: "999999999",
    });
    await approve(id);
    const view = await membership(await makeMember(id));
    expect(view.plan).toMatchObject({ billing: "monthly", coverageCents: null });
    const top = await insertApplication(server.services.database, {
      applicant_name: "Top Coverage",
      dob: "1970-01-02",
      amount_of_coverage: "10,000,000",
    });
    await approve(top);
    expect((await membership(await makeMember(top))).plan).toMatchObject({ coverageCents: 1_000_000_000 });
  });
});
