import { sql, type Kysely } from "kysely";
import type { AppMigration, MigrationDialect as Dialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: Dialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/*
 * Deep pages and searches of the two long lists, answered from indexes (decision 008).
 *
 * Knowledge center: how many articles each day holds (first ten characters of published_at,
 * which the app always writes as an ISO-8601 instant), overall and per category, kept by
 * triggers like article_category_counts. A page's offset is found among a few thousand day
 * rows; the articles are then read from the start of that day, a few rows in.
 *
 * Admin submissions: one row per submission of the four tables in submission_list, kept by
 * triggers on every write whoever makes it, with what the list sorts, filters and searches
 * by: the sort keys (the same expressions the list query used), status, date and the search
 * text (lower name, e-mail and details, one per line: a search cannot hold a line break, so
 * it matches within one of them, as before). Each sort has an index in its own order that
 * also holds the filter columns, so a page is read off one index. submission_counts holds
 * the rows per source and status for the pager's total. The search is served by a trigram
 * index: pg_trgm on PostgreSQL, an FTS5 trigram table on SQLite.
 *
 * Every statement can run again (if not exists, drop and create, upserts and recounts): a
 * second run changes nothing, and a run on a database that already holds rows fills the new
 * tables from them. On PostgreSQL the tables are locked against writes meanwhile, so no row
 * written by another instance is missed.
 */

export const m0012_list_pages_and_search: AppMigration = {
  async up(db, dialect) {
    const run = async (trx: Kysely<any>) => {
      if (dialect === "postgres") {
        await sql`lock table articles, contact_messages, cpa_requests, homeowner_material_requests, applications in share row exclusive mode`.execute(
          trx,
        );
      }
      await articleDays(trx, dialect);
      await submissionList(trx, dialect);
    };
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  },
};

const exec = async (db: Kysely<any>, statements: string[]) => {
  for (const statement of statements) await sql.raw(statement).execute(db);
};

// ---- knowledge center ------------------------------------------------------------------

const DAY = (row: string) => `substr(${row}published_at, 1, 10)`;

async function articleDays(db: Kysely<any>, dialect: Dialect) {
  await db.schema
    .createTable("article_day_counts")
    .ifNotExists()
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("article_category_day_counts")
    .ifNotExists()
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("article_category_day_counts_pk", ["category", "day"])
    .execute();

  await exec(db, dialect === "postgres" ? POSTGRES_DAY_TRIGGERS : SQLITE_DAY_TRIGGERS);

  // Counted again from the articles: the same numbers on a second run.
  await exec(db, [
    `delete from article_day_counts`,
    `insert into article_day_counts (day, n) select ${DAY("")}, count(*) from articles group by ${DAY("")}`,
    `delete from article_category_day_counts`,
    `insert into article_category_day_counts (category, day, n)
       select category, ${DAY("")}, count(*) from articles group by category, ${DAY("")}`,
  ]);
}

const SQLITE_DAY_TRIGGERS = [
  `drop trigger if exists articles_day_insert`,
  `create trigger articles_day_insert after insert on articles begin
     insert into article_day_counts (day, n) values (${DAY("new.")}, 1)
       on conflict (day) do update set n = n + 1;
     insert into article_category_day_counts (category, day, n) values (new.category, ${DAY("new.")}, 1)
       on conflict (category, day) do update set n = n + 1;
   end`,
  `drop trigger if exists articles_day_delete`,
  `create trigger articles_day_delete after delete on articles begin
     update article_day_counts set n = n - 1 where day = ${DAY("old.")};
     update article_category_day_counts set n = n - 1 where category = old.category and day = ${DAY("old.")};
   end`,
  `drop trigger if exists articles_day_update`,
  `create trigger articles_day_update after update of category, published_at on articles
     when old.category is not new.category or ${DAY("old.")} is not ${DAY("new.")} begin
     update article_day_counts set n = n - 1 where day = ${DAY("old.")};
     update article_category_day_counts set n = n - 1 where category = old.category and day = ${DAY("old.")};
     insert into article_day_counts (day, n) values (${DAY("new.")}, 1)
       on conflict (day) do update set n = n + 1;
     insert into article_category_day_counts (category, day, n) values (new.category, ${DAY("new.")}, 1)
       on conflict (category, day) do update set n = n + 1;
   end`,
];

// Inserts and deletes (a feed's deletion cascades) are counted per statement through
// transition tables, as in 0003; a changed category or day is rare and counted per row.
const POSTGRES_DAY_TRIGGERS = [
  `create or replace function articles_day_insert() returns trigger language plpgsql as $$
   begin
     insert into article_day_counts (day, n)
       select ${DAY("")}, count(*) from inserted_articles group by 1
       on conflict (day) do update set n = article_day_counts.n + excluded.n;
     insert into article_category_day_counts (category, day, n)
       select category, ${DAY("")}, count(*) from inserted_articles group by 1, 2
       on conflict (category, day) do update set n = article_category_day_counts.n + excluded.n;
     return null;
   end $$`,
  `create or replace function articles_day_delete() returns trigger language plpgsql as $$
   begin
     update article_day_counts c set n = c.n - d.k
       from (select ${DAY("")} as day, count(*) as k from deleted_articles group by 1) d
       where c.day = d.day;
     update article_category_day_counts c set n = c.n - d.k
       from (select category, ${DAY("")} as day, count(*) as k from deleted_articles group by 1, 2) d
       where c.category = d.category and c.day = d.day;
     return null;
   end $$`,
  `create or replace function articles_day_update() returns trigger language plpgsql as $$
   begin
     update article_day_counts set n = n - 1 where day = ${DAY("old.")};
     update article_category_day_counts set n = n - 1 where category = old.category and day = ${DAY("old.")};
     insert into article_day_counts (day, n) values (${DAY("new.")}, 1)
       on conflict (day) do update set n = article_day_counts.n + 1;
     insert into article_category_day_counts (category, day, n) values (new.category, ${DAY("new.")}, 1)
       on conflict (category, day) do update set n = article_category_day_counts.n + 1;
     return null;
   end $$`,
  `drop trigger if exists articles_day_insert on articles`,
  `create trigger articles_day_insert after insert on articles
     referencing new table as inserted_articles for each statement execute function articles_day_insert()`,
  `drop trigger if exists articles_day_delete on articles`,
  `create trigger articles_day_delete after delete on articles
     referencing old table as deleted_articles for each statement execute function articles_day_delete()`,
  `drop trigger if exists articles_day_update on articles`,
  `create trigger articles_day_update after update of category, published_at on articles
     for each row when (old.category is distinct from new.category or ${DAY("old.")} is distinct from ${DAY("new.")})
     execute function articles_day_update()`,
];

// ---- admin submissions -----------------------------------------------------------------

/*
 * What the list shows of each source, as SQL over one row (`row` is "new.", "old." or ""):
 * the same expressions as features/submissions/admin/queries.server.ts when this migration
 * was written (a test there checks that the stored search text still equals them).
 */
type Row = (column: string) => string;
const present = (e: string) => `nullif(${e}, '')`;
const labeled = (label: string, e: string) => `'${label}: ' || ${present(e)}`;
const joined = (sep: string, parts: string[]) => `concat_ws('${sep}', ${parts.map(present).join(", ")})`;
const fullName = (c: Row) => `trim(coalesce(${c("first_name")}, '') || ' ' || coalesce(${c("last_name")}, ''))`;
const address = (c: Row, ...columns: string[]) => joined(", ", columns.map(c));

interface Source {
  table: string;
  /** The type sort's key: the order of the four sources on the screen. */
  typeRank: number;
  name(c: Row): string;
  details(c: Row): string;
  coverage(c: Row): string;
  /** Every column the list row is made of: an update of any other column leaves it alone. */
  columns: string[];
}

const SOURCES: Source[] = [
  {
    table: "contact_messages",
    typeRank: 1,
    name: (c) => c("name"),
    details: (c) => joined(": ", [c("subject"), c("message")]),
    coverage: () => "null",
    columns: ["name", "subject", "message"],
  },
  {
    table: "cpa_requests",
    typeRank: 2,
    name: fullName,
    details: (c) =>
      joined(" | ", [
        labeled("Firm", c("firm_name")),
        labeled("Location", address(c, "city", "state", "zip")),
        labeled("Member ID", c("member_id")),
        labeled("Notes", c("notes")),
      ]),
    coverage: () => "null",
    columns: ["first_name", "last_name", "firm_name", "city", "state", "zip", "member_id", "notes"],
  },
  {
    table: "homeowner_material_requests",
    typeRank: 3,
    name: fullName,
    details: (c) =>
      joined(" | ", [
        labeled("Materials", c("materials_requested")),
        labeled("Ship to", address(c, "address1", "address2", "city", "state", "zip")),
        labeled("Member ID", c("member_id")),
        labeled("Notes", c("notes")),
      ]),
    coverage: () => "null",
    columns: ["first_name", "last_name", "materials_requested", "address1", "address2", "city", "state", "zip", "member_id", "notes"],
  },
  {
    table: "applications",
    typeRank: 4,
    name: (c) => c("applicant_name"),
    details: (c) =>
      joined(" | ", [
        labeled("Case", c("case_number")),
        labeled("Co-Applicant", c("co_applicant_name")),
        labeled("Beneficiary", c("beneficiary_name")),
      ]),
    coverage: (c) => `lower(${c("amount_of_coverage")})`,
    columns: ["applicant_name", "case_number", "co_applicant_name", "beneficiary_name", "amount_of_coverage"],
  },
];

const LIST_COLUMNS = [
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

/** The list row's values for one stored row, in LIST_COLUMNS order. */
function listValues(s: Source, row: string, dialect: Dialect): string[] {
  const c: Row = (column) => `${row}"${column}"`;
  const newline = dialect === "postgres" ? "chr(10)" : "char(10)";
  const lowered = (e: string) => `lower(coalesce(${e}, ''))`;
  return [
    `'${s.table}'`,
    c("id"),
    c("status"),
    // The workflow's order; an unknown status counts as pending.
    `case ${c("status")} when 'pending' then 1 when 'in-review' then 2 when 'approved' then 3 when 'rejected' then 4 when 'completed' then 5 else 1 end`,
    String(s.typeRank),
    c("submitted_at"),
    `lower(${s.name(c)})`,
    `lower(${c("email")})`,
    `${lowered(s.name(c))} || ${newline} || ${lowered(c("email"))} || ${newline} || ${lowered(s.details(c))}`,
    s.coverage(c),
  ];
}

/** The columns whose update rewrites the list row: the ones every source has, and its own. */
const watched = (s: Source) => ["id", "status", "submitted_at", "email", ...s.columns].join(", ");

const assignments = (s: Source, row: string, dialect: Dialect) =>
  listValues(s, row, dialect)
    .map((v, i) => `${LIST_COLUMNS[i]} = ${v}`)
    .slice(1)
    .join(", ");

async function submissionList(db: Kysely<any>, dialect: Dialect) {
  await db.schema
    .createTable("submission_list")
    .ifNotExists()
    .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("row_id", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_rank", "integer", (c) => c.notNull())
    .addColumn("type_rank", "integer", (c) => c.notNull())
    .addColumn("submitted_at", "text", (c) => c.notNull())
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("email_key", "text", (c) => c.notNull())
    .addColumn("search_text", "text", (c) => c.notNull())
    .addColumn("coverage", "text")
    .addUniqueConstraint("submission_list_source_row", ["source", "row_id"])
    .execute();
  await db.schema
    .createTable("submission_counts")
    .ifNotExists()
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("submission_counts_pk", ["source", "status"])
    .execute();

  // One index per order the list can ask for (the date's serves both directions), each
  // ending in the filter columns, so a page and its filters are read off the index alone.
  const tail = "submitted_at desc, source desc, row_id desc, status";
  await exec(db, [
    `create index if not exists submission_list_date_idx on submission_list (submitted_at, source, row_id, status)`,
    `create index if not exists submission_list_status_date_idx on submission_list (status, submitted_at, source, row_id)`,
    ...["name_key", "email_key", "type_rank", "status_rank"].flatMap((key) => [
      `create index if not exists submission_list_${key}_asc_idx on submission_list (${key}, ${tail})`,
      `create index if not exists submission_list_${key}_desc_idx on submission_list (${key} desc, ${tail})`,
    ]),
  ]);

  for (const s of SOURCES) await exec(db, dialect === "postgres" ? postgresListTrigger(s) : sqliteListTriggers(s));

  // Filled (again) from the four tables: a row missing is added, a stale one rewritten, one
  // whose submission is gone removed; the counts are counted afresh.
  for (const s of SOURCES) {
    const values = listValues(s, "", dialect);
    await exec(db, [
      `delete from submission_list where source = '${s.table}' and row_id not in (select id from ${s.table})`,
      `insert into submission_list (${LIST_COLUMNS.join(", ")}) select ${values.join(", ")} from ${s.table} where true
         on conflict (source, row_id) do update set ${LIST_COLUMNS.slice(2)
           .map((column) => `${column} = excluded.${column}`)
           .join(", ")}`,
      `delete from submission_counts where source = '${s.table}'`,
      `insert into submission_counts (source, status, n) select '${s.table}', status, count(*) from ${s.table} group by status`,
    ]);
  }

  if (dialect === "postgres") await postgresSearch(db);
  else await sqliteSearch(db);
}

function sqliteListTriggers(s: Source): string[] {
  const t = s.table;
  const count = (row: string, delta: string) =>
    delta === "+ 1"
      ? `insert into submission_counts (source, status, n) values ('${t}', ${row}status, 1) on conflict (source, status) do update set n = n + 1;`
      : `update submission_counts set n = n - 1 where source = '${t}' and status = ${row}status;`;
  return [
    `drop trigger if exists ${t}_list_insert`,
    `create trigger ${t}_list_insert after insert on ${t} begin
       insert into submission_list (${LIST_COLUMNS.join(", ")}) values (${listValues(s, "new.", "sqlite").join(", ")});
       ${count("new.", "+ 1")}
     end`,
    `drop trigger if exists ${t}_list_update`,
    `create trigger ${t}_list_update after update of ${watched(s)} on ${t} begin
       update submission_list set ${assignments(s, "new.", "sqlite")} where source = '${t}' and row_id = old.id;
       ${count("old.", "- 1")}
       ${count("new.", "+ 1")}
     end`,
    `drop trigger if exists ${t}_list_delete`,
    `create trigger ${t}_list_delete after delete on ${t} begin
       delete from submission_list where source = '${t}' and row_id = old.id;
       ${count("old.", "- 1")}
     end`,
  ];
}

function postgresListTrigger(s: Source): string[] {
  const t = s.table;
  return [
    `create or replace function ${t}_list() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into submission_list (${LIST_COLUMNS.join(", ")}) values (${listValues(s, "new.", "postgres").join(", ")});
       elsif tg_op = 'UPDATE' then
         update submission_list set ${assignments(s, "new.", "postgres")} where source = '${t}' and row_id = old.id;
       else
         delete from submission_list where source = '${t}' and row_id = old.id;
       end if;
       if tg_op in ('UPDATE', 'DELETE') then
         update submission_counts set n = n - 1 where source = '${t}' and status = old.status;
       end if;
       if tg_op in ('INSERT', 'UPDATE') then
         insert into submission_counts (source, status, n) values ('${t}', new.status, 1)
           on conflict (source, status) do update set n = submission_counts.n + 1;
       end if;
       return null;
     end $$`,
    `drop trigger if exists ${t}_list on ${t}`,
    `create trigger ${t}_list after insert or delete or update of ${watched(s)} on ${t}
       for each row execute function ${t}_list()`,
  ];
}

/*
 * PostgreSQL: GIN trigram indexes (pg_trgm) serve `search_text like '%...%'` and the
 * coverage's. pg_trgm is a trusted extension: the database's owner may create it, also on
 * managed PostgreSQL. Where a database already has it (any schema), that one is used; the
 * operator class is named with its schema, so the app's search_path need not include it.
 * fastupdate is off: submissions are written rarely and read often, so every search finds
 * the index complete instead of scanning a pending list.
 */
async function postgresSearch(db: Kysely<any>) {
  const trgmSchema = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
        db,
      )
    ).rows[0]?.schema;
  let schema = await trgmSchema();
  if (!schema) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    schema = await trgmSchema();
  }
  const ops = `"${schema!.replace(/"/g, '""')}".gin_trgm_ops`;
  await exec(db, [
    `create index if not exists submission_list_search_idx on submission_list using gin (search_text ${ops}) with (fastupdate = off)`,
    `create index if not exists submission_list_coverage_idx on submission_list using gin (coverage ${ops}) with (fastupdate = off)
       where coverage is not null`,
  ]);
}

/*
 * SQLite: an FTS5 table with the trigram tokenizer over submission_list's search text and
 * coverage (external content: it keeps only the index), kept in step by triggers on
 * submission_list and built from it here. The text is lower case already, so the tokenizer
 * keeps case.
 */
async function sqliteSearch(db: Kysely<any>) {
  await exec(db, [
    `create virtual table if not exists submission_search using fts5(search_text, coverage,
       content = 'submission_list', content_rowid = 'id', tokenize = 'trigram case_sensitive 1')`,
    `drop trigger if exists submission_search_insert`,
    `create trigger submission_search_insert after insert on submission_list begin
       insert into submission_search (rowid, search_text, coverage) values (new.id, new.search_text, new.coverage);
     end`,
    `drop trigger if exists submission_search_delete`,
    `create trigger submission_search_delete after delete on submission_list begin
       insert into submission_search (submission_search, rowid, search_text, coverage) values ('delete', old.id, old.search_text, old.coverage);
     end`,
    `drop trigger if exists submission_search_update`,
    `create trigger submission_search_update after update of id, search_text, coverage on submission_list
       when old.id is not new.id or old.search_text is not new.search_text or old.coverage is not new.coverage begin
       insert into submission_search (submission_search, rowid, search_text, coverage) values ('delete', old.id, old.search_text, old.coverage);
       insert into submission_search (rowid, search_text, coverage) values (new.id, new.search_text, new.coverage);
     end`,
    // Built from the list as it is now: the same index on a second run.
    `insert into submission_search (submission_search) values ('rebuild')`,
  ]);
}
