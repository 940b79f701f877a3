import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { Database } from "~/platform/schema";
import {
  SOURCES,
  SUBMISSION_TABLES,
  normalizeStatus,
  type SubmissionFilters,
  type SubmissionSummary,
  type SubmissionTable,
} from "./contract";

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
    details: joined(" | ", [
      labeled("Coverage", sql`'$' || ${col("amount_of_coverage")}`),
      labeled("Case", col("case_number")),
      labeled("Co-applicant", col("co_applicant_name")),
      labeled("Beneficiary", col("beneficiary_name")),
    ]),
    coverage: col("amount_of_coverage"),
  },
};

/** `like` pattern matching `text` anywhere, its own % and _ (and \) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const likeAny = (pattern: string, exprs: Expr[]) =>
  sql<boolean>`(${sql.join(
    exprs.map((e) => sql`lower(${e}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;

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

export class SubmissionQueries {
  constructor(private db: Kysely<Database>) {}

  private get anyDb(): AnyDb {
    return this.db as unknown as AnyDb;
  }

  private arm(table: SubmissionTable, filters: Pick<SubmissionFilters, "search" | "status">): AnySelect {
    const a = ARMS[table];
    let q = this.anyDb
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
    if (filters.status !== "all") q = q.where("status", "=", filters.status);
    if (filters.search) q = q.where(likeAny(containsPattern(filters.search), [a.name, col("email"), a.details]));
    return q;
  }

  /** The four arms (or the ones of the chosen type) as one UNION ALL; null when the type has no tables. */
  private union(filters: Pick<SubmissionFilters, "search" | "status" | "type">): AnySelect | null {
    const tables = SUBMISSION_TABLES.filter((t) => filters.type === "all" || SOURCES[t].type === filters.type);
    if (!tables.length) return null;
    return tables.slice(1).reduce((q, t) => q.unionAll(this.arm(t, filters)), this.arm(tables[0], filters));
  }

  private sorted(q: AnySelect, sort: SubmissionFilters["sort"]): AnySelect {
    const [column, dir] = sort.split("_") as [string, "asc" | "desc"];
    switch (column) {
      case "name":
        q = q.orderBy(sql`lower(applicant_name)`, dir);
        break;
      case "email":
        q = q.orderBy(sql`lower(applicant_email)`, dir);
        break;
      case "type":
        q = q.orderBy(sql`case source when 'contact_messages' then 1 when 'cpa_requests' then 2 when 'homeowner_material_requests' then 3 else 4 end`, dir);
        break;
      case "status":
        // The workflow's order, not the alphabet's.
        q = q.orderBy(sql`case status when 'pending' then 1 when 'in-review' then 2 when 'approved' then 3 when 'rejected' then 4 when 'completed' then 5 else 1 end`, dir);
        break;
    }
    // Newest first among equals (and the date sort itself); source and id make the order total.
    const dateDir = column === "date" ? dir : "desc";
    return q.orderBy("submitted_at", dateDir).orderBy("source", dateDir).orderBy("id", dateDir);
  }

  async page(filters: SubmissionFilters, page: number, limit: number): Promise<{ rows: UnifiedRow[]; total: number }> {
    const union = this.union(filters);
    if (!union) return { rows: [], total: 0 };
    const [count, rows] = await Promise.all([
      this.anyDb
        .selectFrom(union.as("s"))
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst(),
      this.sorted(this.anyDb.selectFrom(union.as("s")).selectAll() as AnySelect, filters.sort)
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
    ]);
    return { rows: rows as unknown as UnifiedRow[], total: Number(count?.n ?? 0) };
  }

  /** Every row matching the filters, in order (the CSV export). */
  async all(filters: SubmissionFilters): Promise<UnifiedRow[]> {
    const union = this.union(filters);
    if (!union) return [];
    return (await this.sorted(this.anyDb.selectFrom(union.as("s")).selectAll() as AnySelect, filters.sort).execute()) as unknown as UnifiedRow[];
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
  const source = SOURCES[table];
  return {
    id: `${source?.prefix ?? "contact_"}${row.id}`,
    table,
    rowId: Number(row.id),
    type: source?.type ?? "contact-form",
    formType: source?.formType ?? "Unknown",
    submissionDate: row.submitted_at,
    status: normalizeStatus(row.status),
    applicantName: row.applicant_name ?? "",
    applicantEmail: row.applicant_email ?? "",
    ...(row.applicant_phone ? { applicantPhone: row.applicant_phone } : {}),
    details: row.details ?? "",
    ...(row.coverage_amount ? { coverageAmount: row.coverage_amount } : {}),
  };
}
