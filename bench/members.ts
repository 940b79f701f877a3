/**
 * `npm run bench:members`: Member administration's coverage status filter and counts at the
 * 50,000 members the site claims, each with a plan and up to a year of monthly payments
 * (about 330,000 ledger rows), some with refunds, cancellations and reinstatements, some
 * carried over from old records, some with no plan. Prints one JSON object: the census alone
 * (every member's coverage, features/membership/census.server.ts), a page of the list with its
 * counts unfiltered, filtered by status, searched and sorted by name, the staff dashboard's
 * figures, and the CSV export of one status, on SQLite and, when TEST_DATABASE_URL is set,
 * PostgreSQL. Each figure carries its goal (a list page or the dashboard, counts included, p99
 * under 500 ms while the ledger is unchanged; the first page after a payment, which computes
 * the census afresh, and the export under 2 s), and goalsMet lists the figures that miss.
 *
 *   MEMBERS=50000 BENCH_ITERATIONS=20 npm run bench:members
 *
 * Measured (50,000 members, 193,099 ledger rows, two cores at load 5.4; p50/p99 ms):
 * SQLite: census afresh 486/518, first page after a payment 538/618, a page while nothing
 * changed 29/42, filtered by status 31/36, sorted by name 35/41, dashboard 7/8, export 247/248.
 * PostgreSQL: census afresh 334/377, after a payment 366/439, a page 41/76, filtered 61/84,
 * sorted by name 98/172, dashboard 24/38, export 182/260. At load 16-25 every figure is 4-8
 * times higher (a census afresh 1.3-2.4 s), which is why the census is kept between writes.
 */
import { memberQuerySchema } from "../app/features/members/contract";
import { addDays } from "../app/features/membership/coverage";
import { coverageCensus } from "../app/features/membership/census.server";
import { againstGoal, benchDialects, benchServices, goalsMet, machineLoad, percentile, round, timed } from "./bench-db";

const MEMBERS = Number(process.env.MEMBERS ?? 50_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20);
const PAGE_GOAL_MS = 500;
const EXPORT_GOAL_MS = 2_000;
const CENSUS_GOAL_MS = 2_000;

type Bench = Awaited<ReturnType<typeof benchServices>>;

async function seed({ services }: Bench) {
  const { db } = services.database;
  const today = services.coverage.today();
  const now = new Date().toISOString();
  const CHUNK = 1_000;
  let payments = 0;
  for (let start = 0; start < MEMBERS; start += CHUNK) {
    const n = Math.min(CHUNK, MEMBERS - start);
    await db.transaction().execute(async (trx) => {
      const users = await trx
        .insertInto("users")
        .values(
          Array.from({ length: n }, (_, k) => ({
            certificate_number: `BM${String(start + k).padStart(7, "0")}`,
            first_name: ["Avery", "Jordan", "Casey", "Morgan", "Riley"][(start + k) % 5],
            last_name: `Member${start + k}`,
            email: `m${start + k}@example.com`,
            role: "user" as const,
            is_active: (start + k) % 50 ? 1 : 0,
            is_core_admin: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning("id")
        .execute();
      const plans = [];
      const ledger = [];
      const events = [];
      for (let k = 0; k < n; k++) {
        const i = start + k;
        const id = Number(users[k].id);
        if (i % 20 === 0) continue; // no plan on record
        const annual = i % 7 === 0;
        const carried = i % 11 === 0;
        const approvedOn = addDays(today, -((i * 37) % 400));
        plans.push({
          user_id: id,
          billing: annual ? "annual" : "monthly",
          coverage_cents: 25_000_000,
          approved_on: carried ? null : approvedOn,
          carried_paid_through: carried ? addDays(today, ((i * 13) % 120) - 60) : null,
          created_at: now,
          updated_at: now,
        });
        // 0 to 12 payments, a month apart from approval; some stop early (past due, lapsed).
        const count = annual ? 1 + (i % 2) : (i * 7) % 13;
        for (let p = 0; p < count; p++) {
          const paidOn = addDays(carried ? addDays(today, -300) : approvedOn, 1 + p * 30);
          if (paidOn > today) break;
          ledger.push({ user_id: id, amount_cents: annual ? 9900 : 1995, paid_on: paidOn, method: "card", recorded_at: now });
          if (p === 2 && i % 40 === 1) ledger.push({ user_id: id, amount_cents: -1995, paid_on: paidOn, method: "card", recorded_at: now });
        }
        if (i % 50 === 3) {
          events.push({ user_id: id, kind: "cancelled", on_date: addDays(approvedOn, 90), reason: "Asked to", recorded_at: now });
          if (i % 100 === 3)
            events.push({ user_id: id, kind: "reinstated", on_date: addDays(approvedOn, 120), reason: null, recorded_at: now });
        }
      }
      if (plans.length) await trx.insertInto("membership_plans").values(plans).execute();
      for (let p = 0; p < ledger.length; p += 2_000)
        await trx
          .insertInto("membership_payments")
          .values(ledger.slice(p, p + 2_000))
          .execute();
      if (events.length) await trx.insertInto("membership_events").values(events).execute();
      payments += ledger.length;
    });
  }
  if (services.database.dialect === "postgres") {
    const { sql } = await import("kysely");
    await sql`analyze`.execute(db);
  }
  return { members: MEMBERS, ledgerRows: payments };
}

async function measure<T>(fn: () => Promise<T>, goal: number, iterations = ITERATIONS) {
  await fn(); // warm-up: the first run compiles statements and fills caches
  const ms: number[] = [];
  for (let i = 0; i < iterations; i++) ms.push((await timed(fn)).ms);
  ms.sort((a, b) => a - b);
  return againstGoal(
    { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), mean: round(ms.reduce((a, b) => a + b, 0) / ms.length) },
    goal,
  );
}

async function run(dialect: "sqlite" | "postgres") {
  const bench = await benchServices(dialect);
  try {
    const seeded = await timed(() => seed(bench));
    const { services } = bench;
    const { db } = services.database;
    const today = services.coverage.today();
    const list = (query: Record<string, string>) => services.memberAdmin.listMembers(memberQuerySchema.parse(query));
    const census = await coverageCensus(db, today);
    const counts: Record<string, number> = {};
    for (const c of census.values()) counts[c.state.kind] = (counts[c.state.kind] ?? 0) + 1;
    const anyMember = Number((await db.selectFrom("membership_plans").select("user_id").limit(1).executeTakeFirstOrThrow()).user_id);
    const actor = { id: (await services.auth.createStaff("bench-staff", "correct horse battery", "limited_admin")).id };
    return {
      dialect,
      seeded: { ...seeded.value, seconds: round(seeded.ms / 1000) },
      statuses: counts,
      // Every member's coverage computed afresh: what the first list page after a write pays.
      census: await measure(() => coverageCensus(db, today), CENSUS_GOAL_MS),
      firstPageAfterAPayment: await measure(async () => {
        await db
          .insertInto("membership_payments")
          .values({ user_id: anyMember, amount_cents: 1995, paid_on: today, method: "card", recorded_at: new Date().toISOString() })
          .execute();
        return list({});
      }, CENSUS_GOAL_MS),
      firstPage: await measure(() => list({}), PAGE_GOAL_MS),
      filteredCovered: await measure(() => list({ coverage: "covered", page: "3" }), PAGE_GOAL_MS),
      filteredLapsedByName: await measure(() => list({ coverage: "lapsed", sort: "name" }), PAGE_GOAL_MS),
      searchedAndFiltered: await measure(() => list({ q: "jordan", coverage: "past-due" }), PAGE_GOAL_MS),
      dashboard: await measure(() => services.membershipDashboard.figures(), PAGE_GOAL_MS),
      exportCovered: await measure(
        () => services.memberAdmin.exportMembers(actor, memberQuerySchema.parse({ coverage: "covered" })),
        EXPORT_GOAL_MS,
        3,
      ),
    };
  } finally {
    await bench.close();
  }
}

const results = [];
for (const dialect of benchDialects()) results.push(await run(dialect));
const out = { bench: "members", members: MEMBERS, iterations: ITERATIONS, machine: machineLoad(), results, goals: goalsMet(results) };
console.log(JSON.stringify(out, null, 2));
