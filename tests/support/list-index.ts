import { sql, type Kysely } from "kysely";
import { expect } from "vitest";
import { SUBMISSION_TABLES, type SubmissionTable } from "../../app/features/submissions/contract";
import { shown, statusRank, type KindValues } from "../../app/features/submissions/store.server";
import type { Dialect } from "../../app/platform/db.server";
import type { Database } from "../../app/platform/schema";

/*
 * What the list's tables must hold, computed afresh from the kinds' stored rows with the
 * store's own rules of what the list shows: a test calls this after each kind of write to see
 * the store (or, at 0012-0029, the triggers: `table` "submission_list") kept them in step.
 */

/** The database's own lower(), which is what the list compares with (SQLite's lowers ASCII only). */
async function lower(db: Kysely<any>, value: string | null): Promise<string> {
  const row = await sql<{ v: string }>`select lower(${value ?? ""}) as v`.execute(db);
  return row.rows[0].v;
}

/**
 * `submissions` (or 0012's submission_list) holds one row per stored submission, made of what
 * the list shows of it, and submission_counts the rows per source and status; on SQLite the
 * FTS index agrees with it. From 0030 each kind row also points at its own submission.
 */
export async function expectSubmissionListInStep(
  db: Kysely<Database>,
  dialect: Dialect,
  table: "submissions" | "submission_list" = "submissions",
): Promise<void> {
  const anyDb: Kysely<any> = db;
  const expected: Array<Record<string, unknown>> = [];
  const counts: Array<Record<string, unknown>> = [];
  const latest = table === "submissions";
  for (const [i, source] of SUBMISSION_TABLES.entries()) {
    // From 0031 a kind row's status and date are its submission's only.
    const rows: Array<Record<string, unknown>> = latest
      ? await anyDb
          .selectFrom(`${source} as k`)
          .innerJoin("submissions as s", "s.id", "k.submission_id")
          .selectAll("k")
          .select(["s.status", "s.submitted_at"])
          .orderBy("k.id")
          .execute()
      : await anyDb.selectFrom(source).selectAll().orderBy("id").execute();
    for (const row of rows) {
      const s = shown(source as SubmissionTable, row as KindValues<SubmissionTable>);
      const [name, email, details] = await Promise.all([lower(db, s.name), lower(db, s.email), lower(db, s.details)]);
      expected.push({
        source,
        row_id: Number(row.id),
        status: row.status,
        status_rank: statusRank(String(row.status)),
        type_rank: i + 1,
        submitted_at: row.submitted_at,
        name_key: name,
        email_key: email,
        search_text: `${name}\n${email}\n${details}`,
        coverage: s.coverage === null ? null : await lower(db, s.coverage),
        ...(latest ? { name: s.name, email: s.email, phone: s.phone, details: s.details } : {}),
      });
    }
    const grouped = await anyDb
      .selectFrom(latest ? "submissions" : source)
      .select(["status", sql<number>`count(*)`.as("n")])
      .$if(latest, (q: any) => q.where("source", "=", source))
      .groupBy("status")
      .execute();
    counts.push(...grouped.map((g: { status: string; n: unknown }) => ({ source, status: g.status, n: Number(g.n) })));
    if (latest) {
      const astray = await anyDb
        .selectFrom(`${source} as k`)
        .leftJoin("submissions as s", "s.id", "k.submission_id")
        .select("k.id")
        .where((eb: any) => eb.or([eb("s.source", "is", null), eb("s.source", "<>", source), eb("s.row_id", "<>", eb.ref("k.id"))]))
        .execute();
      expect(astray, `${source} rows not pointing at their own submission`).toEqual([]);
    }
  }
  const columns = [
    "source",
    "row_id",
    "status",
    "status_rank",
    "type_rank",
    "submitted_at",
    "name_key",
    "email_key",
    "search_text",
    "coverage",
  ];
  const stored: Array<Record<string, unknown>> = await anyDb
    .selectFrom(table)
    .select(latest ? [...columns, "name", "email", "phone", "details"] : columns)
    .execute();
  const bySourceAndId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.source).localeCompare(String(b.source)) || Number(a.row_id) - Number(b.row_id);
  expect(
    stored
      .map((r) => ({ ...r, row_id: Number(r.row_id), status_rank: Number(r.status_rank), type_rank: Number(r.type_rank) }))
      .sort(bySourceAndId),
    table,
  ).toEqual(expected.sort(bySourceAndId));

  const storedCounts = await db.selectFrom("submission_counts").selectAll().where("n", "<>", 0).execute();
  const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    `${String(a.source)}/${String(a.status)}`.localeCompare(`${String(b.source)}/${String(b.status)}`);
  expect(storedCounts.map((c) => ({ ...c, n: Number(c.n) })).sort(byKey), "submission_counts").toEqual(counts.sort(byKey));

  if (dialect === "sqlite") {
    // Compares the FTS index with its content table row by row; throws where they differ.
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
