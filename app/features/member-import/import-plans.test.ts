import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import type { MembershipAnswer } from "~/features/membership/contract";
import type { UploadResponse } from "./contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("member import: the plan columns of an association moving in", (dialect) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = (await loginAs(server, "super_admin", { username: "plans-import" })).cookie;
  });
  afterAll(() => server.close());

  const upload = async (csvContent: string) => {
    const res = await server.request("/api/upload-users", { method: "POST", cookie: admin, json: { csvContent, filename: "movers.csv" } });
    return { status: res.status, body: (await res.json()) as UploadResponse };
  };
  const membershipOf = async (certificate: string) => {
    const user = await server.services.database.db
      .selectFrom("users")
      .select("id")
      .where("certificate_number", "=", certificate)
      .executeTakeFirstOrThrow();
    return (await (await server.request(`/api/admin/members/${user.id}/membership`, { cookie: admin })).json()) as MembershipAnswer;
  };

  it("gives plans, changes them, keeps what a row leaves blank, and changes nothing the second time", async () => {
    const today = server.services.coverage.today();
    const file =
      "certificate_number,birthdate,plan,coverage_amount,paid_through\n" +
      "MOVE-1,1970-01-01,monthly,250000,2030-12-31\n" +
      "MOVE-2,1971-01-01,annual,,\n" +
      "MOVE-3,1972-01-01,,,\n" +
      "MOVE-4,1973-01-01,biweekly,,\n";
    const first = await upload(file);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(
      "Imported 3 users (3 new, 0 updated, 0 unchanged), 2 plans given or changed; 1 row had errors and was skipped.",
    );
    expect(first.body.details).toEqual(['Line 5: plan "biweekly" must be monthly or annual']);

    const one = await membershipOf("MOVE-1");
    expect(one.plan).toEqual({
      billing: "monthly",
      coverageCents: 25_000_000,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: today,
      carriedPaidThrough: "2030-12-31",
    });
    expect(one.coverage).toMatchObject({ label: "Covered", paidThrough: "2030-12-31" });
    const two = await membershipOf("MOVE-2");
    expect(two.plan).toMatchObject({ billing: "annual", coverageCents: null, approvedOn: today, carriedPaidThrough: null });
    expect(two.coverage.label).toBe("Awaiting first payment");
    expect((await membershipOf("MOVE-3")).coverage.label).toBe("No plan on record");

    // The same rows (a blank line added: the same bytes moments later would be answered with the first result).
    const again = await upload(`${file}\n`);
    expect(again.body.message).toBe("Imported 3 users (0 new, 0 updated, 3 unchanged); 1 row had errors and was skipped.");

    // A change of billing keeps the amount and the day the row leaves blank.
    await server.services.database.db.updateTable("membership_plans").set({ approved_on: "2020-02-02" }).execute();
    const changed = await upload("certificate_number,birthdate,plan\nMOVE-1,1970-01-01,annual\n");
    expect(changed.body.message).toBe("Imported 1 user (0 new, 0 updated, 1 unchanged), 1 plan given or changed.");
    expect((await membershipOf("MOVE-1")).plan).toMatchObject({
      billing: "annual",
      coverageCents: 25_000_000,
      approvedOn: "2020-02-02",
      carriedPaidThrough: "2030-12-31",
    });

    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "members.import")
      .orderBy("id")
      .execute();
    expect(audit.map((a) => JSON.parse(a.details!).plans)).toEqual([2, 0, 1]);
  });
});
