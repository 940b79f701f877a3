/**
 * `npm run bench:submissions`: the admin submissions list (SubmissionAdminService.list: one
 * page and its total) with 100,000 stored submissions, 25,000 per source. Prints one JSON
 * object with p50/p99 unfiltered, searched, filtered and sorted, on SQLite and, when
 * TEST_DATABASE_URL is set, PostgreSQL; beside them the bare page of one kind read off its
 * index in the date's order, the floor of a page. Each figure carries its goal (p99 under
 * 20 ms for any page, sort or filter, under 50 ms for a search), the share of the goal it
 * uses and whether it meets it; goalsMet lists the figures that miss. A search of two
 * characters reads every search text (no trigram index serves it): beside it, the floor of
 * that read measured in the same run and the search's ratio to it.
 */
import { sql } from "kysely";
import { SubmissionStore, typeRank } from "../app/features/submissions/store.server";
import { submissionQuerySchema, SUBMISSION_STATUSES } from "../app/features/submissions/contract";
import { applicationRow } from "../tests/support/submission-fixtures";
import { againstGoal, benchDialects, benchServices, goalsMet, machineLoad, percentile, round, timed } from "./bench-db";

const TOTAL = 100_000;
const PER_SOURCE = TOTAL / 4;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
/** The goals: p99 of any page, sort or filter, and of a search. */
const LIST_GOAL_MS = 20;
const SEARCH_GOAL_MS = 50;
const FIRST = ["Avery", "Jordan", "Casey", "Morgan", "Riley", "Quinn", "Harper", "Rowan", "Emerson", "Parker"];
const LAST = ["Smith", "Johnson", "Garcia", "Nguyen", "Okafor", "Schmidt", "Rossi", "Kowalski", "Tanaka", "Haddad"];

type Services = Awaited<ReturnType<typeof benchServices>>["services"];

async function seed(services: Services) {
  const { db } = services.database;
  const start = Date.UTC(2021, 0, 1);
  const span = 4 * 365 * 24 * 3_600_000;
  const when = (i: number) => new Date(start + ((i * 104729) % span)).toISOString();
  const status = (i: number) => SUBMISSION_STATUSES[(i * 7) % 10 < 6 ? 0 : ((i * 7) % 10) - 5];
  const first = (i: number) => FIRST[i % FIRST.length];
  const last = (i: number) => `${LAST[(i * 3) % LAST.length]}${i}`;
  const { status: _s, submitted_at: _a, updated_at: _u, submitted_by: _b, ...app } = applicationRow();
  const CHUNK = 500;
  for (let i = 0; i < PER_SOURCE; i += CHUNK) {
    const n = Math.min(CHUNK, PER_SOURCE - i);
    const range = Array.from({ length: n }, (_, k) => i + k);
    await db.transaction().execute(async (trx) => {
      // Status and dates of the j-th row of source k, as the store takes them.
      const base = (k: number) => (index: number) => {
        const j = range[index];
        return { status: status(j * 4 + k), submittedAt: when(j * 4 + k), updatedAt: when(j * 4 + k) };
      };
      const contact = range.map((j) => ({
        name: `${first(j)} ${last(j)}`,
        email: `${first(j).toLowerCase()}.${j}@example.com`,
        phone: "555-0100",
        subject: "General Inquiry",
        message: `Hello, I have a question about my membership and the coverage of my home, number ${j}.`,
      }));
      const request = (j: number, k: number) => ({
        first_name: first(j + k),
        last_name: last(j + k),
        email: `${first(j + k).toLowerCase()}.r${k}.${j}@example.org`,
        phone: "555-0200",
        city: "Springfield",
        state: "IL",
        zip: "62701",
        notes: j % 5 ? null : "Please call in the morning.",
        member_id: `MB${j}`,
      });
      const cpa = range.map((j) => ({ ...request(j, 1), firm_name: `Ledger Partners ${j % 300}` }));
      const homeowner = range.map((j) => ({
        ...request(j, 2),
        address1: `${j} Maple Avenue`,
        address2: null,
        materials_requested: "Brochures and welcome kit",
      }));
      const applications = range.map((j) => ({
        ...app,
        applicant_name: `${first(j + 3)} ${last(j + 3)}`,
        email: `${first(j + 3).toLowerCase()}.a.${j}@example.net`,
        case_number: String(100000 + j),
      }));
      // Through the app's one writer: numbers reserved per kind in one counter update.
      const store = new SubmissionStore(trx, services.database.dialect);
      await store.storeMany("contact_messages", contact, base(0));
      await store.storeMany("cpa_requests", cpa, base(1));
      await store.storeMany("homeowner_material_requests", homeowner, base(2));
      await store.storeMany("applications", applications, base(3));
    });
  }
  // Statistics for the planner, as autovacuum keeps them. On PostgreSQL also the visibility
  // map that autovacuum sets after a load (index-only scans read no table page for rows it
  // marks visible); the PostgreSQL this is measured on may run with autovacuum off.
  if (services.database.dialect === "postgres")
    await sql`vacuum analyze submissions, submission_counts, contact_messages, cpa_requests, homeowner_material_requests, applications`.execute(
      db,
    );
  else await sql`analyze`.execute(db);
}

async function measure(fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < 5; i++) await fn(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) times.push((await timed(() => fn(i))).ms);
  times.sort((a, b) => a - b);
  return {
    p50: round(percentile(times, 50)),
    p99: round(percentile(times, 99)),
    mean: round(times.reduce((a, b) => a + b, 0) / times.length),
  };
}

async function main() {
  const out: Record<string, unknown> = {
    benchmark: "admin-submissions-list",
    submissions: TOTAL,
    limit: 25,
    iterations: ITERATIONS,
    machineAtStart: machineLoad(),
    goals: { listP99Ms: LIST_GOAL_MS, searchP99Ms: SEARCH_GOAL_MS },
  };
  for (const dialect of benchDialects()) {
    const { services, close } = await benchServices(dialect);
    try {
      const seeded = await timed(() => seed(services));
      const admin = services.submissionAdmin;
      const list = (q: Record<string, string>) => admin.list({ id: 1 }, submissionQuerySchema.parse(q));
      // Pages spread over the first 40 (where staff look) plus, every 20th call, a deep one.
      const page = (i: number, pages: number) => String(i % 20 === 19 ? pages : 1 + ((i * 7) % Math.min(40, pages)));
      const totalOf = async (q: Record<string, string>) => (await list(q)).pagination.totalPages;
      const listed = async (fn: (i: number) => Promise<unknown>) => againstGoal(await measure(fn), LIST_GOAL_MS);
      const searched = async (fn: (i: number) => Promise<unknown>) => againstGoal(await measure(fn), SEARCH_GOAL_MS);

      const all = await totalOf({});
      const result: Record<string, unknown> = { seedMs: round(seeded.ms) };
      result.unfilteredFirstPage = await listed(() => list({}));
      result.unfiltered = await listed((i) => list({ page: page(i, all) }));
      // The pages farthest from both ends: half the rows lie before them either way.
      result.unfilteredMiddlePages = await listed((i) => list({ page: String(Math.floor(all / 2) + (i % 3) - 1) }));
      const searches = ["okafor1234", "garcia", "@example.net", "maple avenue", "ledger partners 17", "no-such-person"];
      result.searched = await searched((i) => list({ search: searches[i % searches.length] }));
      const perSearch: Record<string, unknown> = {};
      for (const s of searches)
        perSearch[s] = { total: (await list({ search: s })).pagination.total, ...(await searched(() => list({ search: s }))) };
      result.searchedEach = perSearch;
      // Under three characters no trigram index helps: every row's search text is read.
      result.searchedTwoCharacters = await searched((i) => list({ search: ["ab", "17", "@e"][i % 3] }));
      // Its floor: the one statement that looks at every search text once (a like of two
      // characters no row holds). A search that short can be no faster than this; what it
      // adds (the page, its rows) is the difference.
      const { db: scanned } = services.database;
      result.twoCharacterScanFloor = await measure(() =>
        scanned
          .selectFrom("submissions")
          .select(sql<number>`count(*)`.as("n"))
          .where(sql<boolean>`search_text like '%~^%'`)
          .executeTakeFirstOrThrow(),
      );
      const floor = result.twoCharacterScanFloor as { p50: number; p99: number };
      const two = result.searchedTwoCharacters as { p50: number; p99: number };
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      result.twoCharactersToScanFloor = { p50: ratio(two.p50, floor.p50), p99: ratio(two.p99, floor.p99) };
      result.filteredStatus = await listed((i) => list({ status: SUBMISSION_STATUSES[i % 5] }));
      result.filteredType = await listed((i) => list({ type: ["contact-form", "form-request", "membership-application"][i % 3] }));
      result.filteredTypeAndStatus = await listed((i) =>
        list({ type: "membership-application", status: SUBMISSION_STATUSES[1 + (i % 4)] }),
      );
      result.sortedByName = await listed((i) => list({ sort: i % 2 ? "name_asc" : "name_desc" }));
      result.sortedByNameMiddlePages = await listed((i) =>
        list({ sort: i % 2 ? "name_asc" : "name_desc", page: String(Math.floor(all / 2) + (i % 3) - 1) }),
      );
      result.sortedByDateAsc = await listed((i) => list({ sort: "date_asc", page: page(i, all) }));
      result.sortedByStatus = await listed(() => list({ sort: "status_asc" }));
      const rejected = await totalOf({ status: "rejected" });
      result.filteredAndSortedDeep = await listed((i) =>
        list({ status: "rejected", sort: i % 2 ? "email_desc" : "name_asc", page: String(1 + ((i * 37) % rejected)) }),
      );
      result.searchedFilteredSorted = await searched(() => list({ search: "garcia", status: "pending", sort: "name_asc" }));
      const { db } = services.database;
      // The floor of a page: one kind's newest 25 read off the index in their order.
      result.oneKindPageOffItsIndex = await measure(() =>
        db
          .selectFrom("submissions")
          .select(["row_id", "name", "email", "status", "submitted_at"])
          .where("type_rank", "=", typeRank("contact_messages"))
          .orderBy("submitted_at", "desc")
          .limit(25)
          .execute(),
      );
      result.goalsMet = goalsMet(result);
      out[dialect] = result;
    } finally {
      await close();
    }
  }
  out.machineAtEnd = machineLoad();
  out.node = process.version;
  console.log(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
