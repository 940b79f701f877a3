import { sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { SUBMISSION_STATUSES, SUBMISSION_TABLES } from "../../app/features/submissions/contract";
import type { SubmissionQueries } from "../../app/features/submissions/admin/queries.server";
import type { Dialect } from "../../app/platform/db.server";
import type { Database } from "../../app/platform/schema";

/*
 * What the trigger-kept tables of migration 0012 must hold, computed afresh from the stored
 * rows: a test calls these after each kind of write to see the triggers kept them in step.
 */

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** The database's own lower(), which is what the list compares with (SQLite's lowers ASCII only). */
async function lower(db: Kysely<Database>, value: string | null): Promise<string> {
  const row = await sql<{ v: string }>`select lower(${value ?? ""}) as v`.execute(db);
  return row.rows[0].v;
}

const statusRank = (status: string) => (SUBMISSION_STATUSES as readonly string[]).indexOf(status) + 1 || 1;

/**
 * submission_list holds one row per stored submission, made of what the list's live
 * expressions (SubmissionQueries.summary) show of it, and submission_counts the rows per
 * source and status; on SQLite the FTS index agrees with submission_list.
 */
export async function expectSubmissionListInStep(db: Kysely<Database>, dialect: Dialect, queries: SubmissionQueries): Promise<void> {
  const anyDb = db as unknown as AnyDb;
  const expected: Array<Record<string, unknown>> = [];
  const counts: Array<Record<string, unknown>> = [];
  for (const [i, table] of SUBMISSION_TABLES.entries()) {
    const ids = await anyDb.selectFrom(table).select("id").orderBy("id").execute();
    for (const { id } of ids) {
      const shown = (await queries.summary(table, Number(id)))!;
      const [name, email, details] = await Promise.all([
        lower(db, shown.applicant_name),
        lower(db, shown.applicant_email),
        lower(db, shown.details),
      ]);
      expected.push({
        source: table,
        row_id: Number(id),
        status: shown.status,
        status_rank: statusRank(shown.status),
        type_rank: i + 1,
        submitted_at: shown.submitted_at,
        name_key: name,
        email_key: email,
        search_text: `${name}\n${email}\n${details}`,
        coverage: shown.coverage_amount === null ? null : await lower(db, shown.coverage_amount),
      });
    }
    const grouped = await anyDb
      .selectFrom(table)
      .select(["status", sql<number>`count(*)`.as("n")])
      .groupBy("status")
      .execute();
    counts.push(...grouped.map((g) => ({ source: table, status: g.status, n: Number(g.n) })));
  }
  const stored = await db
    .selectFrom("submissions")
    .select(["source", "row_id", "status", "status_rank", "type_rank", "submitted_at", "name_key", "email_key", "search_text", "coverage"])
    .execute();
  const bySourceAndId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.source).localeCompare(String(b.source)) || Number(a.row_id) - Number(b.row_id);
  expect(
    stored
      .map((r) => ({ ...r, row_id: Number(r.row_id), status_rank: Number(r.status_rank), type_rank: Number(r.type_rank) }))
      .sort(bySourceAndId),
    "submission_list",
  ).toEqual(expected.sort(bySourceAndId));

  const storedCounts = await db.selectFrom("submission_counts").selectAll().where("n", "<>", 0).execute();
  const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    `${String(a.source)}/${String(a.status)}`.localeCompare(`${String(b.source)}/${String(b.status)}`);
  expect(storedCounts.map((c) => ({ ...c, n: Number(c.n) })).sort(byKey), "submission_counts").toEqual(counts.sort(byKey));

  if (dialect === "sqlite") {
    // Compares the FTS index with submission_list row by row; throws where they differ.
    await sql`insert into submission_search (submission_search, rank) values ('integrity-check', 1)`.execute(db);
  }
}

/** article_day_counts and article_category_day_counts hold what the articles add up to. */
export async function expectArticleDaysInStep(db: Kysely<Database>): Promise<void> {
  const day = sql<string>`substr(published_at, 1, 10)`;
  const days = await db
    .selectFrom("articles")
    .select([day.as("day"), sql<number>`count(*)`.as("n")])
    .groupBy(day)
    .execute();
  const perCategory = await db
    .selectFrom("articles")
    .select(["category", day.as("day"), sql<number>`count(*)`.as("n")])
    .groupBy(["category", day])
    .execute();
  const sortedBy = (key: (r: Record<string, unknown>) => string) => (a: Record<string, unknown>, b: Record<string, unknown>) =>
    key(a).localeCompare(key(b));
  const plain = <T extends { n: unknown }>(rows: T[]) => rows.map((r) => ({ ...r, n: Number(r.n) }));

  const storedDays = await db.selectFrom("article_day_counts").selectAll().where("n", "<>", 0).execute();
  expect(plain(storedDays).sort(sortedBy((r) => String(r.day))), "article_day_counts").toEqual(
    plain(days).sort(sortedBy((r) => String(r.day))),
  );
  const storedPerCategory = await db.selectFrom("article_category_day_counts").selectAll().where("n", "<>", 0).execute();
  const key = (r: Record<string, unknown>) => `${String(r.category)}/${String(r.day)}`;
  expect(plain(storedPerCategory).sort(sortedBy(key)), "article_category_day_counts").toEqual(plain(perCategory).sort(sortedBy(key)));
}
