import Papa from "papaparse";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { addDays, firstOfNextMonth, formatLongDay } from "~/features/membership/coverage";
import { COVERAGE_KINDS } from "~/features/membership/statuses";
import type { MembersPage } from "./contract";
import type { AuditEntry } from "~/domain/audit";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("member administration: coverage status filter, counts and export", (dialect) => {
  let server: TestServer;
  let limited: { cookie: string; userId: number };
  let boss: { cookie: string; userId: number };
  let today: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect);
    limited = await loginAs(server, "limited_admin", { username: "coverage-limited" });
    boss = await loginAs(server, "super_admin", { username: "coverage-boss" });
    today = server.services.coverage.today();
    const { auth, database } = server.services;
    const add = async (key: string, firstName: string) => {
      const { id } = await auth.users.createMember({
        certificate: `COV-${key}`,
        birthdateDigest: auth.digestBirthdate("1980-01-15"),
        firstName,
        lastName: "Tester",
      });
      ids[key] = id;
      return id;
    };
    const call = async (path: string, json: unknown, cookie = limited.cookie, method = "POST") => {
      const res = await server.request(path, { method, cookie, json });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    const plan = (id: number, approvedOn: string) =>
      call(`/api/admin/members/${id}/membership/plan`, { billing: "monthly", approvedOn }, limited.cookie, "PUT");
    const pay = (id: number, paidOn: string, amount = "19.95") =>
      call(`/api/admin/members/${id}/membership/payments`, { amount, paidOn, method: "check", reference: null });
    // Coverage carried over from old records, written as the member import writes it.
    const carried = async (id: number, paidThrough: string) => {
      const now = new Date().toISOString();
      await database.db
        .insertInto("membership_plans")
        .values({ user_id: id, billing: "monthly", approved_on: null, carried_paid_through: paidThrough, created_at: now, updated_at: now })
        .execute();
    };

    await add("A-NOPLAN", "Nora");
    await plan(await add("B-AWAIT", "Abe"), today);
    const starts = await add("C-STARTS", "Sam");
    await plan(starts, today);
    await pay(starts, today);
    await carried(await add("D-COVERED", '=HYPERLINK("http://x")'), addDays(today, 10));
    await carried(await add("E-PASTDUE", "Pat"), addDays(today, -10));
    await carried(await add("F-LAPSED", "Lee"), addDays(today, -40));
    const cancelled = await add("G-CANCEL", "Cal");
    await plan(cancelled, addDays(today, -60));
    await call(`/api/admin/members/${cancelled}/membership/cancel`, { cancelledOn: today, reason: "Moved away" }, boss.cookie);
    await carried(await add("H-COVERED", "Hal"), addDays(today, 200));
  });
  afterAll(() => server.close());

  const list = async (query: string) => {
    const res = await server.request(`/api/admin/members?q=COV-&${query}`, { cookie: limited.cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as MembersPage;
  };

  it("counts the members the search matches in each status, and shows each row's status", async () => {
    const page = await list("");
    expect(page.coverageDay).toBe(today);
    expect(page.coverageCounts).toEqual({
      "no-plan": 1,
      "awaiting-first-payment": 1,
      starts: 1,
      covered: 2,
      "past-due": 1,
      lapsed: 1,
      cancelled: 1,
    });
    expect(Object.keys(page.coverageCounts)).toEqual([...COVERAGE_KINDS]);
    expect(page.members.map((m) => [m.certificate_number, m.coverage.label])).toEqual([
      ["COV-A-NOPLAN", "No plan on record"],
      ["COV-B-AWAIT", "Awaiting first payment"],
      ["COV-C-STARTS", `Starts ${formatLongDay(firstOfNextMonth(today))}`],
      ["COV-D-COVERED", "Covered"],
      ["COV-E-PASTDUE", "Past due"],
      ["COV-F-LAPSED", "Lapsed"],
      ["COV-G-CANCEL", "Cancelled"],
      ["COV-H-COVERED", "Covered"],
    ]);
    expect(page.members.find((m) => m.certificate_number === "COV-E-PASTDUE")!.coverage).toEqual({
      status: "past-due",
      label: "Past due",
      paidThrough: addDays(today, -10),
    });
  });

  it("filters by status, pages within it, and keeps the counts of the whole search", async () => {
    const covered = await list("coverage=covered&sort=certificate_number&dir=desc");
    expect(covered.members.map((m) => m.certificate_number)).toEqual(["COV-H-COVERED", "COV-D-COVERED"]);
    expect(covered.pagination).toEqual({ page: 1, pageSize: 25, total: 2, totalPages: 1 });
    expect(covered.coverageCounts.covered).toBe(2);
    expect(covered.coverageCounts.lapsed).toBe(1);

    const second = await list("coverage=covered&pageSize=10&page=2");
    expect(second.members).toEqual([]);
    expect(second.pagination.total).toBe(2);

    expect((await list("coverage=past-due")).members.map((m) => m.certificate_number)).toEqual(["COV-E-PASTDUE"]);
    expect((await list("coverage=starts")).members.map((m) => m.certificate_number)).toEqual(["COV-C-STARTS"]);
    expect((await list("coverage=no-plan")).members.map((m) => m.certificate_number)).toEqual(["COV-A-NOPLAN"]);

    // The other filters narrow the counts too.
    await server.request(`/api/admin/members/${ids["F-LAPSED"]}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: false } });
    const inactive = await list("status=inactive");
    expect(inactive.coverageCounts).toMatchObject({ lapsed: 1, covered: 0, "no-plan": 0 });
    const active = await list("status=active&coverage=lapsed");
    expect(active.members).toEqual([]);
    expect(active.coverageCounts.lapsed).toBe(0);
    await server.request(`/api/admin/members/${ids["F-LAPSED"]}`, { method: "PATCH", cookie: limited.cookie, json: { is_active: true } });
  });

  it("answers a row it changes with that member's status", async () => {
    const res = await server.request(`/api/admin/members/${ids["E-PASTDUE"]}`, {
      method: "PATCH",
      cookie: limited.cookie,
      json: { is_active: true },
    });
    const body = (await res.json()) as { member: MembersPage["members"][number] };
    expect(body.member.coverage).toEqual({ status: "past-due", label: "Past due", paidThrough: addDays(today, -10) });
  });

  it("refuses a status that is none with 400 and the reason", async () => {
    for (const path of ["/api/admin/members?coverage=paid", "/api/admin/members/export?coverage=Covered"]) {
      const res = await server.request(path, { cookie: limited.cookie });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("Coverage must be one of no-plan, awaiting-first-payment");
    }
  });

  it("exports the filtered list with each member's status, formulas kept as text, and audits the filter", async () => {
    const res = await server.request("/api/admin/members/export?q=COV-&coverage=covered", { cookie: limited.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/);
    const parsed = Papa.parse<string[]>((await res.text()).trim(), { newline: "\r\n" });
    expect(parsed.data[0]).toEqual([
      "certificate_number",
      "first_name",
      "last_name",
      "email",
      "status",
      "coverage_status",
      "paid_through",
      "last_login_at",
      "created_at",
      "phone",
      "address1",
      "address2",
      "city",
      "state",
      "zip",
      "plan",
      "coverage_amount",
    ]);
    expect(parsed.data.slice(1).map((r) => r.slice(0, 7))).toEqual([
      ["COV-D-COVERED", '\'=HYPERLINK("http://x")', "Tester", "", "active", "Covered", addDays(today, 10)],
      ["COV-H-COVERED", "Hal", "Tester", "", "active", "Covered", addDays(today, 200)],
    ]);

    const starts = await (await server.request("/api/admin/members/export?q=COV-C&coverage=starts", { cookie: limited.cookie })).text();
    expect(starts).toContain(`Starts ${formatLongDay(firstOfNextMonth(today))}`);

    const audit = await server.request("/api/admin/audit?action=members.export", { cookie: boss.cookie });
    const entries = ((await audit.json()) as { entries: AuditEntry[] }).entries;
    expect(entries.find((e) => e.details?.coverage === "covered")).toMatchObject({
      row_count: 2,
      details: { q: "COV-", coverage: "covered" },
    });
  });
});
