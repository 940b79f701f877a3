import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startPageTestServer, type PageTestServer } from "../../../tests/support/page-app";
import { describeEachDatabase } from "../../../tests/support/test-app";
import { addDays, firstOfNextMonth, formatLongDay } from "./coverage";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * The public check's page (/verify/<token>) as a scanner reads it, status by status: the
 * headline, the one date named for what it is, each person's first name and last initial, and
 * the day of the check; nothing else of the household reaches the page, its data included.
 */
describeEachDatabase("the proof-of-coverage check's page", (dialect) => {
  let server: PageTestServer;
  let staff: { id: number };
  let today: string;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
    staff = { id: Number((await server.services.auth.createStaff("verify-page-staff", "correct horse battery", "super_admin")).id) };
    today = server.services.coverage.today();
  });
  afterAll(() => server.close());

  let n = 0;
  /** A member named Dana Rivera with a monthly plan approved `approvedOn` and `months` paid that day. */
  async function member(approvedOn: string, months: number) {
    const { coverage, auth } = server.services;
    const { id } = await auth.users.createMember({
      certificate: `VP${dialect}${++n}`,
      birthdateDigest: auth.digestBirthdate("1980-01-15"),
      firstName: "Dana",
      lastName: "Rivera",
    });
    await coverage.setPlan(staff, id, {
      billing: "monthly",
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn,
    });
    if (months) await coverage.recordPayment(staff, id, { amount: 1995 * months, paidOn: approvedOn, method: "card", reference: null });
    return id;
  }

  /** The page's words, and its whole HTML (the loader's data is in it too). */
  async function page(memberId: number) {
    const token = await server.services.verify.tokenFor(memberId);
    await server.services.database.db.deleteFrom("rate_limits").execute();
    const res = await server.request(`/verify/${token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    const words = main
      .replace(/<\/(dt|dd|h1|p)>/g, " | ")
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ");
    return { words, html };
  }

  it("covered, with a co-insured: both people by first name and last initial, covered through, checked today", async () => {
    const id = await member(addDays(today, -40), 24);
    await server.services.coverage.setCoInsured(staff, id, {
      firstName: "Sam",
      lastName: "Quintero",
      birthdate: "1984-07-09",
      gender: "Male",
      email: "sam.q@example.com",
      phone: "(555) 123-4567",
    });
    const { coverage } = await server.services.coverage.view(id);
    const { words, html } = await page(id);
    expect(words).toContain(
      `Covered | Member | Dana R. | Co-insured | Sam Q. | Covered through | ${formatLongDay(coverage.paidThrough!)} | Checked ${formatLongDay(today)} |`,
    );
    const certificate = `VP${dialect}${n}`;
    for (const secret of ["Quintero", "Rivera", "1984-07-09", "sam.q@example.com", "123-4567", certificate])
      expect(html).not.toContain(secret);
  });

  it("paid, not begun: Not yet covered, Coverage starts and the day", async () => {
    const { words } = await page(await member(today, 1));
    expect(words).toContain(`Not yet covered | Member | Dana R. | Coverage starts | ${formatLongDay(firstOfNextMonth(today))} |`);
    expect(words).not.toContain("Covered through");
    expect(words).toContain(`Checked ${formatLongDay(today)}`);
  });

  it("cancelled: Not covered, Coverage ended the day before the cancellation", async () => {
    const id = await member(addDays(today, -40), 24);
    await server.services.coverage.cancel(staff, id, { cancelledOn: today, reason: "Moved" });
    const { words } = await page(id);
    expect(words).toContain(`Not covered | Member | Dana R. | Coverage ended | ${formatLongDay(addDays(today, -1))} |`);
  });

  it("lapsed: Not covered, Coverage ended the last day paid for", async () => {
    const approvedOn = addDays(today, -200);
    const id = await member(approvedOn, 1);
    const { coverage } = await server.services.coverage.view(id);
    expect(coverage.label).toBe("Lapsed");
    expect((await page(id)).words).toContain(`Not covered | Member | Dana R. | Coverage ended | ${formatLongDay(coverage.paidThrough!)} |`);
  });

  it("awaiting the first payment: Not covered, none in force", async () => {
    expect((await page(await member(today, 0))).words).toContain("Not covered | Member | Dana R. | Coverage | None in force |");
  });
});
