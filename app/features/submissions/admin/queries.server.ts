import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder } from "kysely";
import { containsPattern, type Dialect } from "~/platform/db.server";
import { allKindRows, findKindRow, typeRank } from "../store.server";
import type { Database } from "~/platform/schema";
import {
  SOURCES,
  SUBMISSION_TABLES,
  normalizeStatus,
  sourceInfo,
  type Assignee,
  type SubmissionFilters,
  type SubmissionSummary,
  type SubmissionTable,
} from "../contract";
import { formatCoverage, parseDollars } from "~/domain/formats";

/*
 * The one query module of submissions (decision 012). Everything reads `submissions`
 * (migration 0030: one row per submission, written with its kind's row by
 * ../store.server.ts, with the name, e-mail, phone, details and coverage the list shows, the
 * sort keys, status, date and search text): the list's pages, each sort off an index in its
 * own order, the total from the counts and a search from a trigram index (decision 008); the
 * export; a detail's summary; a member's own submissions. A detail's every field and the
 * legacy admin-forms answer read the kind's own table joined to it.
 */

/** What the details cell says when a request carries nothing beyond its contact columns. */
const NOTHING_GIVEN: Partial<Record<SubmissionTable, string>> = {
  cpa_requests: "No firm, location or notes given",
  homeowner_material_requests: "No materials, address or notes given",
};

type ListSelect = SelectQueryBuilder<Database, "submissions", object>;

/**
 * The list's filters as the queries take them: 'Assigned to me' already turned into the
 * staff member's id (absent: anyone's and nobody's submissions alike).
 */
export type ListFilters = Omit<SubmissionFilters, "assigned"> & { assignedTo?: number };

export interface UnifiedRow {
  source: string;
  id: number;
  status: string;
  submitted_at: string;
  applicant_name: string | null;
  applicant_email: string | null;
  applicant_phone: string | null;
  details: string | null;
  coverage_amount: string | null;
  /** Filled in from submission_assignments after the rows are read. */
  assigned_to?: Assignee;
}

/** How a sort orders rows: the key (absent for the date sort) and the directions. */
function sortPlan(sort: ListFilters["sort"]) {
  const [column, dir] = sort.split("_") as [string, "asc" | "desc"];
  // Newest first among equals (and the date sort itself); source and id make the order total.
  return { column, dir, dateDir: column === "date" ? dir : ("desc" as const) };
}

/** The list's order as submissions' columns: the sort key, then newest first, then source and id. */
function listOrder(sort: ListFilters["sort"]): ListOrder {
  const { column, dir, dateDir } = sortPlan(sort);
  const key = LIST_SORT_KEYS[column];
  return [
    ...(key ? [[key, dir] as [ListColumn, "asc" | "desc"]] : []),
    ["submitted_at", dateDir],
    ["source", dateDir],
    ["row_id", dateDir],
  ];
}

type ListOrder = Array<[ListColumn, "asc" | "desc"]>;
type ListColumn = "name_key" | "email_key" | "type_rank" | "status_rank" | "submitted_at" | "source" | "row_id";

/** submissions' column for each sort key (written by the store). */
const LIST_SORT_KEYS: Record<string, ListColumn | undefined> = {
  name: "name_key",
  email: "email_key",
  type: "type_rank",
  status: "status_rank",
};

const flip = (dir: "asc" | "desc") => (dir === "asc" ? "desc" : "asc");
const toKey = (r: { source: string; row_id: number }) => ({ source: r.source as SubmissionTable, id: Number(r.row_id) });

/** An FTS5 phrase that matches `text` itself (inside double quotes only " is special). */
const ftsPhrase = (text: string) => `"${text.toLowerCase().replace(/"/g, '""')}"`;

export class SubmissionQueries {
  constructor(
    private db: Kysely<Database>,
    private dialect: Dialect,
  ) {}

  /** The sources of the type filter: never none, as every type of the contract has a source. */
  private tablesOf(filters: Pick<ListFilters, "type">): SubmissionTable[] {
    return SUBMISSION_TABLES.filter((t) => filters.type === "all" || SOURCES[t].type === filters.type);
  }

  /** The columns of the unified list, read from submissions. */
  private shown(db: Kysely<Database> = this.db) {
    return db
      .selectFrom("submissions")
      .select([
        "source",
        "row_id as id",
        "status",
        "submitted_at",
        "name as applicant_name",
        "email as applicant_email",
        "phone as applicant_phone",
        "details",
        "coverage as coverage_amount",
      ]);
  }

  /** Phase 2: the page's rows with every column, in the order phase 1 found. */
  private async rowsFor(keys: Array<{ source: SubmissionTable; id: number }>): Promise<UnifiedRow[]> {
    if (!keys.length) return [];
    const rows: UnifiedRow[] = await this.shown().where(this.keyed(keys)).execute();
    const found = new Map(rows.map((r) => [`${r.source}:${r.id}`, r]));
    for (const [key, assignee] of await this.assigneesOf(keys)) {
      const row = found.get(key);
      if (row) row.assigned_to = assignee;
    }
    // A row deleted between the two phases is simply left out.
    return keys.map((k) => found.get(`${k.source}:${k.id}`)).filter((r): r is UnifiedRow => !!r);
  }

  /** The submissions of these (source, number) keys. */
  private keyed(keys: Array<{ source: SubmissionTable; id: number }>) {
    const byTable = new Map<SubmissionTable, number[]>();
    for (const k of keys) byTable.set(k.source, [...(byTable.get(k.source) ?? []), k.id]);
    return (eb: ExpressionBuilder<Database, "submissions">) =>
      eb.or([...byTable].map(([table, ids]) => eb.and([eb("submissions.source", "=", table), eb("submissions.row_id", "in", ids)])));
  }

  /** Who each of these submissions is assigned to, by "source:id" (unassigned ones are absent). */
  async assigneesOf(keys: Array<{ source: SubmissionTable; id: number }>): Promise<Map<string, Assignee>> {
    if (!keys.length) return new Map();
    const byTable = new Map<SubmissionTable, number[]>();
    for (const k of keys) byTable.set(k.source, [...(byTable.get(k.source) ?? []), k.id]);
    const rows = await this.db
      .selectFrom("submission_assignments as a")
      .innerJoin("submissions as l", "l.id", "a.submission_id")
      .innerJoin("users as u", "u.id", "a.user_id")
      .select(["l.source", "l.row_id", "a.user_id", "u.username"])
      .where((eb) => eb.or([...byTable].map(([table, ids]) => eb.and([eb("l.source", "=", table), eb("l.row_id", "in", ids)]))))
      .execute();
    return new Map(rows.map((r) => [`${r.source}:${r.row_id}`, { id: Number(r.user_id), name: r.username ?? `#${r.user_id}` }]));
  }

  /**
   * The submission's identity: the id of its list row, which its notes and assignment point
   * at (migration 0028). Undefined when there is no such submission. On PostgreSQL, `lock`
   * locks the row until the transaction ends, so a deletion waits for it.
   */
  async identity(table: SubmissionTable, id: number, db: Kysely<Database> = this.db, lock = false): Promise<number | undefined> {
    const q = db.selectFrom("submissions").select("id").where("source", "=", table).where("row_id", "=", id);
    const row = await (lock && this.dialect === "postgres" ? q.forUpdate() : q).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /** One page of the list and the total the pager shows. */
  async page(filters: ListFilters, page: number, limit: number): Promise<{ rows: UnifiedRow[]; total: number }> {
    const tables = this.tablesOf(filters);
    const offset = (page - 1) * limit;
    const { keys, total } =
      filters.assignedTo !== undefined
        ? await this.assignedKeys(filters, filters.assignedTo, tables, offset, limit)
        : filters.search
          ? await this.searchedKeys(filters, tables, offset, limit)
          : await this.listedKeys(filters, tables, offset, limit);
    return { rows: await this.rowsFor(keys), total };
  }

  /** submissions narrowed to the type's sources and the status. */
  private listed(tables: SubmissionTable[], status: ListFilters["status"]) {
    let q = this.db.selectFrom("submissions");
    if (tables.length < SUBMISSION_TABLES.length) q = q.where("source", "in", tables);
    if (status !== "all") q = q.where("status", "=", status);
    return q;
  }

  /**
   * The same rows, written so that a page is read off the sort's own index (decision 008).
   * SQLite's planner, given `source in (...)` and the source's index, would rather read all
   * of a type's rows and sort them (25,000 at 100,000 submissions) than skip the other types'
   * entries of the sort's index; its statistics do not tell it the page is near. So on SQLite
   * a filter the sort's index does not start with is a residual (`+column` keeps SQLite from
   * looking it up in an index), and one type under the date sort is its `type_rank`, which
   * leads an index in the date's order.
   */
  private walked(tables: SubmissionTable[], status: ListFilters["status"], sort: ListFilters["sort"]) {
    if (this.dialect !== "sqlite") return this.listed(tables, status);
    const byDate = sortPlan(sort).column === "date";
    let q = this.db.selectFrom("submissions");
    if (tables.length === 1 && byDate) q = q.where("type_rank", "=", typeRank(tables[0]));
    else if (tables.length < SUBMISSION_TABLES.length) q = q.where(sql.raw("+source"), "in", tables);
    if (status !== "all") q = byDate ? q.where("status", "=", status) : q.where(sql.raw("+status"), "=", status);
    return q;
  }

  /** How many submissions the type and status filters leave: a sum of trigger-kept counts. */
  private async listedCount(tables: SubmissionTable[], status: ListFilters["status"]): Promise<number> {
    let q = this.db.selectFrom("submission_counts").select(sql<number | null>`sum(n)`.as("n"));
    if (tables.length < SUBMISSION_TABLES.length) q = q.where("source", "in", tables);
    if (status !== "all") q = q.where("status", "=", status);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }

  /**
   * The rows at [offset, offset + limit) of `total` in the list's order, read from whichever
   * end of the order is nearer: no page skips more than half of them. With `walk`, only the
   * first `walk` rows from that end are read and those matching `match` counted; null when
   * they do not hold the whole page, "none" when they hold no match at all before it.
   */
  private async slice(
    q: ListSelect,
    match: RawBuilder<boolean> | null,
    order: ListOrder,
    offset: number,
    limit: number,
    total: number,
    walk?: number,
  ): Promise<Array<{ source: SubmissionTable; id: number }> | null | "none"> {
    const fromEnd = total - offset - limit < offset;
    const take = Math.min(limit, total - offset);
    const dirOf = (dir: "asc" | "desc") => (fromEnd ? flip(dir) : dir);
    const skip = fromEnd ? total - offset - take : offset;
    let rows: Array<{ source: string; row_id: number }>;
    if (walk === undefined) {
      const page = q.select(["source", "row_id"]).$if(!!match, (p) => p.where(match!));
      rows = await order
        .reduce((o, [column, dir]) => o.orderBy(column, dirOf(dir)), page)
        .limit(take)
        .offset(skip)
        .execute();
    } else {
      const columns = [
        ...new Set<ListColumn | "search_text" | "coverage">(["source", "row_id", "search_text", "coverage", ...order.map(([c]) => c)]),
      ];
      const walked = order.reduce((o, [column, dir]) => o.orderBy(column, dirOf(dir)), q.select(columns)).limit(walk);
      const page = this.db
        .selectFrom(walked.as("walked"))
        .select(["walked.source", "walked.row_id"])
        .$if(!!match, (p) => p.where(match!));
      rows = await order
        .reduce((o, [column, dir]) => o.orderBy(`walked.${column}`, dirOf(dir)), page)
        .limit(take)
        .offset(skip)
        .execute();
    }
    if (rows.length < take) return rows.length === 0 && skip === 0 ? "none" : null;
    if (fromEnd) rows.reverse();
    return rows.map(toKey);
  }

  /**
   * Without a search: the total from the counts, the page off the sort's index, which holds
   * the filter columns too, so it skips index entries only. A write between the two
   * statements shifts the page by the rows it wrote, as it shifts offset pages between two
   * requests.
   */
  private async listedKeys(filters: ListFilters, tables: SubmissionTable[], offset: number, limit: number) {
    const total = await this.listedCount(tables, filters.status);
    if (offset >= total) return { keys: [], total };
    const keys = await this.slice(this.walked(tables, filters.status, filters.sort), null, listOrder(filters.sort), offset, limit, total);
    return { keys: Array.isArray(keys) ? keys : [], total };
  }

  /**
   * With a search: the rows whose search text (lower name, e-mail and details, one per line)
   * or an application's coverage contains the text, case-insensitively, its %, _ and \ taken
   * literally: the same rows as lower(name/email/details) like ... escape on the four tables.
   *
   * They are counted through a trigram index. PostgreSQL's pg_trgm indexes give the rows
   * that may match, each checked with that like. SQLite's FTS5 table (lower-case trigrams,
   * case kept) finds the rows that hold the text exactly, which needs three characters or
   * more: without a type or status filter its count is the total; with one, each row it
   * finds is read, checked with the filters and the like, and sorted in the same pass.
   * Shorter texts are looked for in every row.
   *
   * Then the page: when the matches are many, it lies among the first rows of the sort's
   * order, so twice as many rows as the matches' share predicts are read off the sort's
   * index and tested; if they hold the whole page, that is it. Otherwise (few matches, or
   * matches bunched elsewhere in the order, like one surname under one first name) every
   * match is gathered through the index and sorted.
   */
  /**
   * 'Assigned to me': one person's assignments (a few hundred at most in practice), read
   * through their index, joined to their list rows, filtered, searched, counted and sorted in
   * one statement.
   */
  private async assignedKeys(filters: ListFilters, userId: number, tables: SubmissionTable[], offset: number, limit: number) {
    let q = this.db
      .selectFrom("submission_assignments as a")
      .innerJoin("submissions as l", "l.id", "a.submission_id")
      .where("a.user_id", "=", userId);
    if (tables.length < SUBMISSION_TABLES.length) q = q.where("l.source", "in", tables);
    if (filters.status !== "all") q = q.where("l.status", "=", filters.status);
    if (filters.search) q = q.where(this.searchMatch(filters.search, tables));
    const rows = (await listOrder(filters.sort)
      .reduce(
        (o, [column, dir]) => o.orderBy(`l.${column}`, dir),
        q.select(["l.source", "l.row_id", sql<number>`count(*) over ()`.as("total")]),
      )
      .limit(limit)
      .offset(offset)
      .execute()) as Array<{ source: string; row_id: number; total: number }>;
    if (rows.length) return { keys: rows.map(toKey), total: Number(rows[0].total) };
    // Past the last page: counted apart.
    const counted = await q.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    return { keys: [], total: Number(counted.n) };
  }

  /** A list row whose search text (or an application's coverage) contains the text, case-insensitively. */
  private searchMatch(text: string, tables: SubmissionTable[]) {
    const amount = tables.includes("applications") ? parseDollars(text) : null;
    return sql<boolean>`(search_text like ${containsPattern(text)} escape '\\'${
      amount !== null ? sql` or coverage like ${containsPattern(String(amount))} escape '\\'` : sql``
    })`;
  }

  private async searchedKeys(filters: ListFilters, tables: SubmissionTable[], offset: number, limit: number) {
    const text = filters.search;
    const amount = tables.includes("applications") ? parseDollars(text) : null;
    const match = this.searchMatch(text, tables);
    const phrases = [`search_text : ${ftsPhrase(text)}`, ...(amount !== null ? [`coverage : ${ftsPhrase(String(amount))}`] : [])].join(
      " OR ",
    );
    const indexed = this.dialect === "sqlite" && [text, ...(amount !== null ? [String(amount)] : [])].every((t) => [...t].length >= 3);
    const unfiltered = tables.length === SUBMISSION_TABLES.length && filters.status === "all";
    const gathered = () => {
      const q = this.listed(tables, filters.status).where(match);
      return indexed ? q.where(sql<boolean>`id in (select rowid from submission_search where submission_search match ${phrases})`) : q;
    };

    const order = listOrder(filters.sort);
    // Every match, gathered through the search index (materialized: not found by walking the
    // sort's index with the search as a filter) and sorted; with `counted`, also counted.
    const gather = async (counted: boolean) =>
      this.db
        .with(
          (cte) => cte("matches").materialized(),
          () => gathered().select(order.map(([column]) => column)),
        )
        .selectFrom("matches")
        .select(["source", "row_id", ...(counted ? [sql<number>`count(*) over ()`.as("total")] : [])])
        .$call((q) => order.reduce((o, [column, dir]) => o.orderBy(column, dir), q))
        .limit(limit)
        .offset(offset)
        .execute() as Promise<Array<{ source: string; row_id: number; total?: number }>>;
    const countMatches = async () =>
      Number(
        indexed && unfiltered
          ? (
              await sql<{ n: number }>`select count(*) as n from submission_search where submission_search match ${phrases}`.execute(
                this.db,
              )
            ).rows[0].n
          : (
              await gathered()
                .select(sql<number>`count(*)`.as("n"))
                .executeTakeFirstOrThrow()
            ).n,
      );

    if (indexed && !unfiltered) {
      // SQLite reads the list row of every match the FTS index finds to filter it: counting
      // them and sorting them is then one pass.
      const rows = await gather(true);
      const total = rows.length ? Number(rows[0].total) : offset > 0 ? await countMatches() : 0;
      return { keys: rows.map(toKey), total };
    }

    const total = await countMatches();
    if (offset >= total) return { keys: [], total };
    const take = Math.min(limit, total - offset);
    const before = Math.min(offset, total - offset - take);
    const listed = await this.listedCount(tables, filters.status);
    // Twice the rows the matches' share predicts; when they are bunched further along the
    // order, eight times that: each only while it reads fewer rows than there are matches.
    // Twice the share without a single match says they lie elsewhere (one surname under one
    // first name): gathered at once.
    for (const walk of [1, 8].map((times) => Math.ceil((times * 2 * (before + take) * listed) / total))) {
      if (walk >= total) break;
      const keys = await this.slice(this.walked(tables, filters.status, filters.sort), match, order, offset, limit, total, walk);
      if (keys === "none") break;
      if (keys) return { keys, total };
    }
    return { keys: (await gather(false)).map(toKey), total };
  }

  /** Every row matching the filters, in the list's order (the CSV export). */
  async all(filters: ListFilters): Promise<UnifiedRow[]> {
    const tables = this.tablesOf(filters);
    let q = this.shown();
    if (tables.length < SUBMISSION_TABLES.length) q = q.where("source", "in", tables);
    if (filters.status !== "all") q = q.where("status", "=", filters.status);
    if (filters.assignedTo !== undefined) {
      const assignedTo = filters.assignedTo;
      q = q.where("id", "in", (eb) => eb.selectFrom("submission_assignments").select("submission_id").where("user_id", "=", assignedTo));
    }
    if (filters.search) q = q.where(this.searchMatch(filters.search, tables));
    return listOrder(filters.sort)
      .reduce((o, [column, dir]) => o.orderBy(`submissions.${column}`, dir), q)
      .execute();
  }

  /** The stored row as the kind table held it before 0031, without the identity (shown as the unified id). */
  async find(table: SubmissionTable, id: number): Promise<Record<string, unknown> | undefined> {
    const row = await findKindRow(this.db, table, id);
    return row && asStored(table, row);
  }

  async summary(table: SubmissionTable, id: number): Promise<UnifiedRow | undefined> {
    return this.shown().where("source", "=", table).where("row_id", "=", id).executeTakeFirst();
  }

  /** Every row of one table, newest first, as find() gives each (the legacy admin-forms answer). */
  async table(table: SubmissionTable): Promise<Array<Record<string, unknown>>> {
    return (await allKindRows(this.db, table)).map((row) => asStored(table, row));
  }
}

/*
 * Where each kind table held its status, dates and submitter before migration 0031 moved them
 * to `submissions` (after its own fields; an application's before its member link, submitted_by
 * first): a detail's fields and the legacy answer keep their keys in that order.
 */
const SUBMISSION_FIELDS = ["status", "submitted_at", "updated_at", "submitted_by"] as const;
type SubmissionField = (typeof SUBMISSION_FIELDS)[number];
const STORED_AT: Record<SubmissionTable, { before: string | null; order: readonly SubmissionField[] }> = {
  contact_messages: { before: null, order: SUBMISSION_FIELDS },
  cpa_requests: { before: null, order: SUBMISSION_FIELDS },
  homeowner_material_requests: { before: null, order: SUBMISSION_FIELDS },
  applications: { before: "member_user_id", order: ["submitted_by", "status", "submitted_at", "updated_at"] },
};

/** A kind row read with its submission's fields, shaped as the kind table stored it: no identity, no member claim. */
function asStored(table: SubmissionTable, row: Record<string, unknown>): Record<string, unknown> {
  const { submission_id: _identity, member_claimed_at: _claim, ...fields } = row;
  const { before, order } = STORED_AT[table];
  const own = Object.entries(fields).filter(([key]) => !(SUBMISSION_FIELDS as readonly string[]).includes(key));
  const found = own.findIndex(([key]) => key === before);
  const at = found < 0 ? own.length : found;
  const moved = order.map((key): [string, unknown] => [key, fields[key]]);
  return Object.fromEntries([...own.slice(0, at), ...moved, ...own.slice(at)]);
}

/** A member's own submissions: those they sent, and the application their membership was made from. */
export async function memberSubmissions(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom("submissions as s")
    .leftJoin("applications as a", "a.submission_id", "s.id")
    .select(["s.source", "s.row_id", "s.submitted_at", "s.status"])
    .where((eb) => eb.or([eb("s.submitted_by", "=", userId), eb("a.member_user_id", "=", userId)]))
    .orderBy("s.type_rank")
    .orderBy("s.row_id")
    .execute();
}

export function toSummary(row: UnifiedRow): SubmissionSummary {
  const table = row.source as SubmissionTable;
  const { type, formType } = sourceInfo(row.source);
  const coverage = row.coverage_amount ? `Coverage: ${formatCoverage(row.coverage_amount)}` : null;
  const details = [coverage, row.details].filter(Boolean).join(" | ") || NOTHING_GIVEN[table] || "";
  return {
    id: `${SOURCES[table].prefix}${row.id}`,
    table,
    rowId: Number(row.id),
    type,
    formType,
    submissionDate: row.submitted_at,
    status: normalizeStatus(row.status),
    applicantName: row.applicant_name ?? "",
    applicantEmail: row.applicant_email ?? "",
    ...(row.applicant_phone ? { applicantPhone: row.applicant_phone } : {}),
    details,
    ...(row.coverage_amount ? { coverageAmount: row.coverage_amount } : {}),
    ...(row.assigned_to ? { assignedTo: row.assigned_to } : {}),
  };
}
