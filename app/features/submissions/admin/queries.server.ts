import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from "kysely";
import { containsAny } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import {
  SOURCES,
  SUBMISSION_TABLES,
  normalizeStatus,
  sourceInfo,
  type SubmissionFilters,
  type SubmissionSummary,
  type SubmissionTable,
} from "../contract";
import { formatCoverage, parseDollars } from "~/features/applications/contract";

/*
 * The unified submissions list as one SQL query: a UNION ALL of the four tables, each arm
 * projecting the same columns (source, id, status, date, name, email, phone, details text,
 * coverage) and carrying its own filters, so the database searches, filters, sorts and pages
 * 100,000 rows and only one page comes back. Plain SQL that SQLite and PostgreSQL read alike:
 * `||`, coalesce, nullif, concat_ws, lower(...) like ... escape.
 */

type Expr = RawBuilder<string | null>;

const col = (name: string): Expr => sql<string | null>`${sql.ref(name)}`;
/** NULL for NULL or ''. */
const present = (e: Expr): Expr => sql`nullif(${e}, '')`;
/** 'Label: value', or NULL when the value is empty. */
const labeled = (label: string, e: Expr): Expr => sql`${sql.lit(`${label}: `)} || ${present(e)}`;
/** The non-empty parts joined with sep (concat_ws skips NULLs on both databases). */
const joined = (sep: string, parts: Expr[]): Expr => sql`concat_ws(${sql.lit(sep)}, ${sql.join(parts.map(present))})`;
const fullName = (first: string, last: string): Expr => sql`trim(coalesce(${sql.ref(first)}, '') || ' ' || coalesce(${sql.ref(last)}, ''))`;
const address = (...cols: string[]): Expr => joined(", ", cols.map(col));

interface Arm {
  name: Expr;
  phone: Expr;
  details: Expr;
  coverage: Expr;
}

/** What each source shows as name, phone, details text and coverage. */
const ARMS: Record<SubmissionTable, Arm> = {
  contact_messages: {
    name: col("name"),
    phone: col("phone"),
    details: joined(": ", [col("subject"), col("message")]),
    coverage: sql`cast(null as text)`,
  },
  cpa_requests: {
    name: fullName("first_name", "last_name"),
    phone: col("phone"),
    details: joined(" | ", [
      labeled("Firm", col("firm_name")),
      labeled("Location", address("city", "state", "zip")),
      labeled("Member ID", col("member_id")),
      labeled("Notes", col("notes")),
    ]),
    coverage: sql`cast(null as text)`,
  },
  homeowner_material_requests: {
    name: fullName("first_name", "last_name"),
    phone: col("phone"),
    details: joined(" | ", [
      labeled("Materials", col("materials_requested")),
      labeled("Ship to", address("address1", "address2", "city", "state", "zip")),
      labeled("Member ID", col("member_id")),
      labeled("Notes", col("notes")),
    ]),
    coverage: sql`cast(null as text)`,
  },
  applications: {
    name: col("applicant_name"),
    phone: col("phone"),
    // The coverage leads the details as "$250,000.00", which SQL cannot write on both
    // databases: toSummary puts it in front; the search matches the stored amount.
    details: joined(" | ", [
      labeled("Case", col("case_number")),
      labeled("Co-Applicant", col("co_applicant_name")),
      labeled("Beneficiary", col("beneficiary_name")),
    ]),
    coverage: col("amount_of_coverage"),
  },
};

/** What the details cell says when a request carries nothing beyond its contact columns. */
const NOTHING_GIVEN: Partial<Record<SubmissionTable, string>> = {
  cpa_requests: "No firm, location or notes given",
  homeowner_material_requests: "No materials, address or notes given",
};

// Kysely cannot type a table chosen at run time; the arms above name only real columns.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
type AnySelect = SelectQueryBuilder<Record<string, Record<string, unknown>>, string, Record<string, unknown>>;

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
}

/** How a sort orders rows: the key (absent for the date sort) and the directions. */
function sortPlan(sort: SubmissionFilters["sort"]) {
  const [column, dir] = sort.split("_") as [string, "asc" | "desc"];
  // Newest first among equals (and the date sort itself); source and id make the order total.
  return { column, dir, dateDir: column === "date" ? dir : ("desc" as const) };
}

/** The sort key of one arm's rows (the same expression the list shows). */
function sortKey(table: SubmissionTable, column: string): RawBuilder<unknown> | null {
  switch (column) {
    case "name":
      return sql`lower(${ARMS[table].name})`;
    case "email":
      return sql`lower(email)`;
    case "type":
      return sql.lit(SUBMISSION_TABLES.indexOf(table) + 1);
    case "status":
      // The workflow's order, not the alphabet's.
      return sql`case status when 'pending' then 1 when 'in-review' then 2 when 'approved' then 3 when 'rejected' then 4 when 'completed' then 5 else 1 end`;
    default:
      return null;
  }
}

export class SubmissionQueries {
  constructor(private db: Kysely<Database>) {}

  private get anyDb(): AnyDb {
    return this.db as unknown as AnyDb;
  }

  private filtered(q: AnySelect, table: SubmissionTable, filters: Pick<SubmissionFilters, "search" | "status">): AnySelect {
    const a = ARMS[table];
    if (filters.status !== "all") q = q.where("status", "=", filters.status);
    if (filters.search) {
      const amount = table === "applications" ? parseDollars(filters.search) : null;
      q = q.where((eb) =>
        eb.or([
          containsAny(filters.search, [a.name, col("email"), a.details]),
          // "$250,000", "250000" or "250,000.00" finds the coverage shown as $250,000.00.
          ...(amount !== null ? [containsAny(String(amount), [a.coverage])] : []),
        ]),
      );
    }
    return q;
  }

  /** One source's rows with every column of the unified list. */
  private arm(table: SubmissionTable, filters: Pick<SubmissionFilters, "search" | "status">): AnySelect {
    const a = ARMS[table];
    const q = this.anyDb
      .selectFrom(table)
      .select([
        sql.lit(table).as("source"),
        "id",
        "status",
        "submitted_at",
        a.name.as("applicant_name"),
        "email as applicant_email",
        a.phone.as("applicant_phone"),
        a.details.as("details"),
        a.coverage.as("coverage_amount"),
      ]) as unknown as AnySelect;
    return this.filtered(q, table, filters);
  }

  private tablesOf(filters: Pick<SubmissionFilters, "type">): SubmissionTable[] {
    return SUBMISSION_TABLES.filter((t) => filters.type === "all" || SOURCES[t].type === filters.type);
  }

  private ordered(
    q: AnySelect,
    column: string,
    dir: "asc" | "desc",
    dateDir: "asc" | "desc",
    key: unknown,
    withSource: boolean,
  ): AnySelect {
    if (key) q = q.orderBy(sql.ref("sort_key"), dir);
    q = q.orderBy("submitted_at", dateDir);
    if (withSource) q = q.orderBy("source", dateDir);
    return q.orderBy("id", dateDir);
  }

  /**
   * Phase 1: which rows make the page. Each arm yields only (source, id, date, sort key) and,
   * without a search, only its own first offset+limit rows in the page's order (read off the
   * submitted_at or status+submitted_at index), so the union sorts at most 4 x (offset+limit)
   * narrow rows. With a search every row is read anyway: the total comes from the same scan.
   */
  private async pageKeys(
    filters: SubmissionFilters,
    offset: number,
    limit: number,
  ): Promise<{ keys: Array<{ source: SubmissionTable; id: number }>; total: number | null }> {
    const tables = this.tablesOf(filters);
    const { column, dir, dateDir } = sortPlan(filters.sort);
    const arms = tables.map((table) => {
      const key = sortKey(table, column);
      let q = this.anyDb.selectFrom(table).select([sql.lit(table).as("source"), "id", "submitted_at"]) as unknown as AnySelect;
      if (key) q = q.select(key.as("sort_key"));
      q = this.filtered(q, table, filters);
      if (!filters.search) {
        q = this.ordered(q, column, dir, dateDir, key, false).limit(offset + limit);
        // A limited arm of a compound query must be a subquery on both databases.
        q = this.anyDb.selectFrom(q.as(`k_${table}`)).selectAll() as unknown as AnySelect;
      }
      return q;
    });
    const union = arms.slice(1).reduce((u, q) => u.unionAll(q), arms[0]);
    let outer = this.anyDb.selectFrom(union.as("u")).select(["source", "id"]) as unknown as AnySelect;
    if (filters.search) outer = outer.select(sql<number>`count(*) over ()`.as("total"));
    outer = this.ordered(outer, column, dir, dateDir, sortKey(tables[0], column), true).limit(limit).offset(offset);
    const rows = (await outer.execute()) as Array<{ source: SubmissionTable; id: number; total?: number }>;
    return {
      keys: rows.map((r) => ({ source: r.source, id: Number(r.id) })),
      total: filters.search ? (rows.length ? Number(rows[0].total) : null) : null,
    };
  }

  /** How many rows match: the sum of each source's count (each an index count without a search). */
  private async count(filters: SubmissionFilters): Promise<number> {
    const tables = this.tablesOf(filters);
    const counts = tables.map((table) =>
      this.filtered(this.anyDb.selectFrom(table).select((eb) => eb.fn.countAll().as("n")) as unknown as AnySelect, table, filters),
    );
    const union = counts.slice(1).reduce((u, q) => u.unionAll(q), counts[0]);
    const row = await this.anyDb
      .selectFrom(union.as("c"))
      .select(sql<number>`sum(n)`.as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Phase 2: the page's rows with every column, in the order phase 1 found. */
  private async rowsFor(keys: Array<{ source: SubmissionTable; id: number }>): Promise<UnifiedRow[]> {
    if (!keys.length) return [];
    const byTable = new Map<SubmissionTable, number[]>();
    for (const k of keys) byTable.set(k.source, [...(byTable.get(k.source) ?? []), k.id]);
    const arms = [...byTable].map(([table, ids]) => this.arm(table, { search: "", status: "all" }).where("id", "in", ids));
    const rows = (await arms
      .slice(1)
      .reduce((u, q) => u.unionAll(q), arms[0])
      .execute()) as unknown as UnifiedRow[];
    const found = new Map(rows.map((r) => [`${r.source}:${r.id}`, r]));
    // A row deleted between the two phases is simply left out.
    return keys.map((k) => found.get(`${k.source}:${k.id}`)).filter((r): r is UnifiedRow => !!r);
  }

  async page(filters: SubmissionFilters, page: number, limit: number): Promise<{ rows: UnifiedRow[]; total: number }> {
    if (!this.tablesOf(filters).length) return { rows: [], total: 0 };
    const offset = (page - 1) * limit;
    const { keys, total } = await this.pageKeys(filters, offset, limit);
    const [rows, counted] = await Promise.all([this.rowsFor(keys), total ?? (filters.search && offset === 0 ? 0 : this.count(filters))]);
    return { rows, total: counted };
  }

  /** Every row matching the filters, in the list's order (the CSV export). */
  async all(filters: SubmissionFilters): Promise<UnifiedRow[]> {
    const tables = this.tablesOf(filters);
    if (!tables.length) return [];
    const { column, dir, dateDir } = sortPlan(filters.sort);
    const arms = tables.map((table) => {
      const key = sortKey(table, column);
      const q = this.arm(table, filters);
      return key ? q.select(key.as("sort_key")) : q;
    });
    const union = arms.slice(1).reduce((u, q) => u.unionAll(q), arms[0]);
    const outer = this.anyDb.selectFrom(union.as("s")).selectAll() as unknown as AnySelect;
    return (await this.ordered(outer, column, dir, dateDir, sortKey(tables[0], column), true).execute()) as unknown as UnifiedRow[];
  }

  /** The stored row, every column. */
  async find(table: SubmissionTable, id: number): Promise<Record<string, unknown> | undefined> {
    return this.anyDb.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst();
  }

  async summary(table: SubmissionTable, id: number): Promise<UnifiedRow | undefined> {
    const row = await this.arm(table, { search: "", status: "all" }).where("id", "=", id).executeTakeFirst();
    return row as unknown as UnifiedRow | undefined;
  }

  /** Every row of one table, newest first (the legacy admin-forms answer). */
  async table(table: SubmissionTable): Promise<Array<Record<string, unknown>>> {
    return this.anyDb.selectFrom(table).selectAll().orderBy("submitted_at", "desc").orderBy("id", "desc").execute();
  }
}

export function toSummary(row: UnifiedRow): SubmissionSummary {
  const table = row.source as SubmissionTable;
  const { type, formType } = sourceInfo(row.source);
  const coverage = row.coverage_amount ? `Coverage: ${formatCoverage(row.coverage_amount)}` : null;
  const details = [coverage, row.details].filter(Boolean).join(" | ") || NOTHING_GIVEN[table] || "";
  return {
    id: `${SOURCES[table]?.prefix ?? "contact_"}${row.id}`,
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
  };
}
