import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import { CoverageCensus, coverageCensus } from "./census.server";
import type { Billing } from "./coverage";
import { MembershipDashboard } from "./dashboard.server";
import { CoverageService } from "./service.server";
import { monthlyTrend } from "./trend";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** A small deterministic generator, so a failure names a ledger that can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const day = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

describeEachDatabase("membership: the census of every member's coverage", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  async function member(
    n: number,
    plan: { billing: Billing; approvedOn: string | null; carried?: string | null } | null,
    payments: Array<[string, number]>,
    events: Array<["cancelled" | "reinstated", string]> = [],
  ): Promise<number> {
    const { db } = ctx.services.database;
    const now = new Date().toISOString();
    const { id } = await db
      .insertInto("users")
      .values({ certificate_number: `CEN${n}`, role: "user", is_active: 1, is_core_admin: 0, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (plan)
      await db
        .insertInto("membership_plans")
        .values({
          user_id: id,
          billing: plan.billing,
          approved_on: plan.approvedOn,
          carried_paid_through: plan.carried ?? null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    for (const [paidOn, cents] of payments)
      await db
        .insertInto("membership_payments")
        .values({ user_id: id, amount_cents: cents, paid_on: paidOn, method: "card", recorded_at: now })
        .execute();
    for (const [kind, on] of events)
      await db
        .insertInto("membership_events")
        .values({ user_id: id, kind, on_date: on, reason: kind === "cancelled" ? "Asked to" : null, recorded_at: now })
        .execute();
    return Number(id);
  }

  it("gives every member the coverage their whole record gives, on any day", async () => {
    // Named cases: the ones a sum could get wrong.
    await member(1, null, []);
    await member(2, { billing: "monthly", approvedOn: "2026-01-15" }, []);
    await member(3, { billing: "monthly", approvedOn: "2026-01-31" }, [["2028-02-29", 1995]]);
    // Reached the price, refunded below it, reached it again later: the first day counts.
    await member(4, { billing: "monthly", approvedOn: "2026-01-10" }, [
      ["2026-01-12", 1995],
      ["2026-01-20", -1995],
      ["2026-03-02", 1995],
    ]);
    // Partial payments that add up; the same day twice.
    await member(5, { billing: "annual", approvedOn: "2025-11-03" }, [
      ["2025-11-05", 5000],
      ["2025-12-01", 2000],
      ["2025-12-01", 2900],
      ["2026-06-01", 500],
    ]);
    // A year paid, then a part of it refunded: below the price, but no longer awaiting a first payment.
    await member(41, { billing: "annual", approvedOn: "2026-01-10" }, [
      ["2026-01-10", 9900],
      ["2026-05-20", -4000],
    ]);
    // The only payment refunded whole.
    await member(42, { billing: "monthly", approvedOn: "2026-01-10" }, [
      ["2026-01-12", 1995],
      ["2026-01-20", -1995],
    ]);
    // Paid before approval (sent with the application).
    await member(6, { billing: "monthly", approvedOn: "2026-03-20" }, [["2026-03-01", 3990]]);
    // Carried over from the old records, then paid.
    await member(7, { billing: "monthly", approvedOn: null, carried: "2026-02-28" }, [["2026-03-01", 1995]]);
    // Cancelled, cancelled and reinstated (a new term that owns only what came after).
    await member(8, { billing: "monthly", approvedOn: "2025-06-01" }, [["2025-06-02", 5985]], [["cancelled", "2025-08-15"]]);
    await member(
      9,
      { billing: "monthly", approvedOn: "2025-06-01" },
      [
        ["2025-06-02", 5985],
        ["2026-01-05", 1995],
      ],
      [
        ["cancelled", "2025-08-15"],
        ["reinstated", "2026-01-03"],
      ],
    );
    // A member without a plan but with a stray payment row still has no plan on record.
    await member(10, null, [["2026-01-01", 1995]]);
    // Reinstated, and a payment of the earlier term refunded in the new one: the refund counts in its payment's term.
    const eleven = await member(
      11,
      { billing: "monthly", approvedOn: "2026-02-10" },
      [
        ["2026-02-12", 23940],
        ["2026-07-01", 1995],
      ],
      [
        ["cancelled", "2026-06-10"],
        ["reinstated", "2026-06-10"],
      ],
    );
    const { db: database } = ctx.services.database;
    const [earlier] = await database
      .selectFrom("membership_payments")
      .select("id")
      .where("user_id", "=", eleven)
      .where("paid_on", "=", "2026-02-12")
      .execute();
    await database
      .insertInto("membership_payments")
      .values({
        user_id: eleven,
        amount_cents: -13965,
        paid_on: "2026-06-10",
        method: "card",
        refund_of: Number(earlier.id),
        recorded_at: new Date().toISOString(),
      })
      .execute();

    const next = random(31);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    for (let n = 100; n < 260; n++) {
      const billing = pick(["monthly", "annual"] as const);
      const approvedOn = day(2025, 1 + Math.floor(next() * 12), 1 + Math.floor(next() * 28));
      const carried = next() < 0.15 ? day(2025, 1 + Math.floor(next() * 12), 28) : null;
      const payments: Array<[string, number]> = [];
      const count = Math.floor(next() * 8);
      for (let k = 0; k < count; k++) {
        const amount = next() < 0.15 ? -Math.floor(next() * 3000) : pick([1995, 1995, 9900, 1000, 3990, 500]);
        payments.push([day(2025 + Math.floor(next() * 2), 1 + Math.floor(next() * 12), 1 + Math.floor(next() * 28)), amount]);
      }
      const events: Array<["cancelled" | "reinstated", string]> = [];
      if (next() < 0.2) {
        events.push(["cancelled", day(2025, 10, 1 + Math.floor(next() * 28))]);
        if (next() < 0.5) events.push(["reinstated", day(2026, 1 + Math.floor(next() * 6), 1 + Math.floor(next() * 28))]);
      }
      await member(
        n,
        next() < 0.1 ? null : { billing, approvedOn: carried && next() < 0.5 ? null : approvedOn, carried },
        payments,
        events,
      );
    }

    for (const today of ["2025-03-01", "2026-01-01", "2026-03-31", "2026-07-04", "2027-02-28"]) {
      const census = await coverageCensus(ctx.services.database.db, today);
      const ids = (await ctx.services.database.db.selectFrom("users").select("id").where("role", "=", "user").execute()).map((r) =>
        Number(r.id),
      );
      expect(census.size).toBe(ids.length);
      const coverage = new CoverageService(
        ctx.services.database.db,
        ctx.services.database.dialect,
        ctx.services.audit,
        "UTC",
        () => new Date(`${today}T12:00:00Z`),
      );
      for (const id of ids) {
        const whole = (await coverage.view(id)).coverage;
        expect({ id, today, coverage: census.get(id) }).toEqual({ id, today, coverage: whole });
      }
    }
  });

  it("keeps the census while nothing it reads changes, and computes it again after any write or on a new day", async () => {
    const { db } = ctx.services.database;
    let today = "2026-05-10";
    const census = new CoverageCensus(db, () => today);
    const first = await census.all();
    expect((await census.all()).census).toBe(first.census);

    const fresh = async () => {
      const kept = await census.all();
      expect(kept.census).toEqual(await coverageCensus(db, today));
      return kept.census;
    };
    const id = await member(900, { billing: "monthly", approvedOn: "2026-04-01" }, []);
    let last = await fresh();
    expect(last).not.toBe(first.census);
    expect(last.get(id)?.label).toBe("Awaiting first payment");

    const now = new Date().toISOString();
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        "a payment",
        () =>
          db
            .insertInto("membership_payments")
            .values({ user_id: id, amount_cents: 1995, paid_on: "2026-04-02", method: "card", recorded_at: now })
            .execute(),
      ],
      [
        "a refund",
        () =>
          db
            .insertInto("membership_payments")
            .values({ user_id: id, amount_cents: -1995, paid_on: "2026-04-03", method: "card", recorded_at: now })
            .execute(),
      ],
      [
        "a plan change",
        () =>
          db
            .updateTable("membership_plans")
            .set({ billing: "annual", updated_at: new Date(Date.now() + 1000).toISOString() })
            .where("user_id", "=", id)
            .execute(),
      ],
      [
        "a cancellation",
        () =>
          db
            .insertInto("membership_events")
            .values({ user_id: id, kind: "cancelled", on_date: "2026-05-01", reason: "x", recorded_at: now })
            .execute(),
      ],
      ["a member's deletion", () => db.deleteFrom("users").where("certificate_number", "=", "CEN5").execute()],
    ];
    for (const [what, write] of writes) {
      await write();
      const next = await fresh();
      expect(next, what).not.toBe(last);
      last = next;
    }
    today = "2026-05-11";
    expect(await fresh()).not.toBe(last);
  });

  it("the dashboard keeps a term's past months when it is cancelled and reinstated later, the money carried or refunded", async () => {
    const { db, dialect: d } = ctx.services.database;
    const staff = await ctx.services.auth.createStaff("census-history", "correct horse battery", "super_admin");
    const on = (day: string) => new CoverageService(db, d, ctx.services.audit, "UTC", () => new Date(`${day}T12:00:00Z`));
    let today = "2026-06-09";
    const dashboard = new MembershipDashboard(new CoverageCensus(db, () => today));
    // Issue 39's member ($239.40 paid, $19.95 refunded) and two more, all covered from March.
    const members: number[] = [];
    for (const n of [1, 2, 3]) {
      const id = await member(700 + n, { billing: "monthly", approvedOn: "2026-02-10" }, []);
      const paid = await on("2026-02-12").recordPayment(staff, id, {
        amount: 23940,
        paidOn: "2026-02-12",
        method: "card",
        reference: null,
      });
      await on("2026-02-20").refund(staff, paid.payments[0].id, { amount: 1995, refundedOn: "2026-02-20", reason: "Goodwill" });
      members.push(id);
    }
    const covered = async () => new Map((await dashboard.figures()).months.map((m) => [m.month, m.covered]));
    // The three members' own months, from the same census.
    const theirs = async () => {
      const census = await coverageCensus(db, today);
      const months = monthlyTrend(
        members.map((id) => census.get(id)!),
        today,
      );
      return new Map(months.map((m) => [m.month, [m.covered, m.new, m.lapsed]]));
    };
    const spring = ["2026-03", "2026-04", "2026-05"];
    const before = await covered();
    expect(spring.map((m) => (before.get(m) ?? 0) >= 3)).toEqual([true, true, true]);
    const theirsBefore = await theirs();
    expect(spring.map((m) => theirsBefore.get(m))).toEqual([
      [3, 3, 0],
      [3, 0, 0],
      [3, 0, 0],
    ]);
    for (const [id, choice] of [
      [members[0], "carry"],
      [members[1], "refund"],
    ] as const) {
      await on("2026-06-10").cancel(staff, id, { cancelledOn: "2026-06-10", reason: "By mistake" });
      await on("2026-06-10").reinstate(staff, id, { reinstatedOn: "2026-06-10", reason: null, earlierPayments: choice });
    }
    for (const day of ["2026-06-10", "2026-07-20", "2026-12-01"]) {
      today = day;
      const after = await covered();
      expect([day, spring.map((m) => after.get(m))]).toEqual([day, spring.map((m) => before.get(m))]);
      const mine = await theirs();
      expect([day, spring.map((m) => mine.get(m))]).toEqual([day, spring.map((m) => theirsBefore.get(m))]);
    }
    // July: the one never cancelled, and the carried one again (seven months from July 1); the refunded one awaits a payment.
    today = "2026-07-20";
    expect((await theirs()).get("2026-07")).toEqual([2, 1, 0]);
  });
});
