import { sql, type Kysely } from "kysely";
import type { AppMigration, MigrationDialect as Dialect } from "./types";

/*
 * One identity for a submission (decision 012, second step). submission_list (0012), whose id
 * notes and assignments point at since 0028, becomes `submissions`: the ids and with them
 * every foreign key carry over. It gains what the list shows (name, e-mail, phone, details),
 * the last update and who submitted it, and from here the code writes it
 * (features/submissions/store.server.ts) in the transaction that stores the kind's row: the
 * triggers of 0012 that copied the four tables into it, and on SQLite those that kept the
 * FTS5 index, are dropped, and the counts and the index are written by that module too.
 *
 * Each kind's row points at its submission (`submission_id`, unique, `on delete cascade`):
 * deleting a submission deletes its kind row, notes and assignment. The kind's number (the
 * `contact_12` of the unified id) is handed out from `submission_numbers`, one counter per
 * kind, started here where each table's own sequence stood, so numbers keep counting and an
 * id handed out before is never handed out again.
 *
 * Old instances write the kind tables alone, which no longer makes a submission: stop them
 * before this runs (docs/deployment.md). On PostgreSQL the tables are locked meanwhile.
 */
export const m0030_submissions_table: AppMigration = {
  async up(db, dialect) {
    const run = async (trx: Kysely<any>) => {
      if (dialect === "postgres") {
        await sql`lock table submission_list, submission_counts, contact_messages, cpa_requests, homeowner_material_requests, applications in access exclusive mode`.execute(
          trx,
        );
      }
      await migrate(trx, dialect);
    };
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  },
};

const exec = async (db: Kysely<any>, statements: string[]) => {
  for (const statement of statements) await sql.raw(statement).execute(db);
};

const TABLES = ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const;
type Table = (typeof TABLES)[number];

/*
 * What the list shows of each kind, as SQL over one row (the same expressions as 0012 and the
 * list's union when this was written), to fill the new columns of the rows already there.
 */
const present = (e: string) => `nullif(${e}, '')`;
const labeled = (label: string, e: string) => `'${label}: ' || ${present(e)}`;
const joined = (sep: string, parts: string[]) => `concat_ws('${sep}', ${parts.map(present).join(", ")})`;
const FULL_NAME = `trim(coalesce(k.first_name, '') || ' ' || coalesce(k.last_name, ''))`;
const address = (...columns: string[]) =>
  joined(
    ", ",
    columns.map((c) => `k.${c}`),
  );

const SHOWN: Record<Table, { name: string; details: string }> = {
  contact_messages: { name: "k.name", details: joined(": ", ["k.subject", "k.message"]) },
  cpa_requests: {
    name: FULL_NAME,
    details: joined(" | ", [
      labeled("Firm", "k.firm_name"),
      labeled("Location", address("city", "state", "zip")),
      labeled("Member ID", "k.member_id"),
      labeled("Notes", "k.notes"),
    ]),
  },
  homeowner_material_requests: {
    name: FULL_NAME,
    details: joined(" | ", [
      labeled("Materials", "k.materials_requested"),
      labeled("Ship to", address("address1", "address2", "city", "state", "zip")),
      labeled("Member ID", "k.member_id"),
      labeled("Notes", "k.notes"),
    ]),
  },
  applications: {
    name: "k.applicant_name",
    details: joined(" | ", [
      labeled("Case", "k.case_number"),
      labeled("Co-Applicant", "k.co_applicant_name"),
      labeled("Beneficiary", "k.beneficiary_name"),
    ]),
  },
};

async function migrate(db: Kysely<any>, dialect: Dialect) {
  // The copying triggers go first: nothing below may rewrite the list behind them.
  if (dialect === "postgres") {
    await exec(
      db,
      TABLES.flatMap((t) => [`drop trigger if exists ${t}_list on ${t}`, `drop function if exists ${t}_list()`]),
    );
  } else {
    await exec(db, [
      ...TABLES.flatMap((t) => ["insert", "update", "delete"].map((op) => `drop trigger if exists ${t}_list_${op}`)),
      ...["insert", "update", "delete"].map((op) => `drop trigger if exists submission_search_${op}`),
      // Its content table is named in it, and the module writes it from here.
      `drop table if exists submission_search`,
    ]);
  }

  await exec(db, [
    `alter table submission_list rename to submissions`,
    `alter table submissions add column name text`,
    `alter table submissions add column email text`,
    `alter table submissions add column phone text`,
    `alter table submissions add column details text`,
    `alter table submissions add column updated_at text`,
    `alter table submissions add column submitted_by integer`,
  ]);

  for (const t of TABLES) {
    const shown = SHOWN[t];
    await exec(db, [
      `update submissions set
         name = (select ${shown.name} from ${t} k where k.id = submissions.row_id),
         email = (select k.email from ${t} k where k.id = submissions.row_id),
         phone = (select k.phone from ${t} k where k.id = submissions.row_id),
         details = (select ${shown.details} from ${t} k where k.id = submissions.row_id),
         updated_at = (select k.updated_at from ${t} k where k.id = submissions.row_id),
         submitted_by = (select k.submitted_by from ${t} k where k.id = submissions.row_id)
       where source = '${t}'`,
      `alter table ${t} add column submission_id integer references submissions (id) on delete cascade`,
      `update ${t} set submission_id = (select s.id from submissions s where s.source = '${t}' and s.row_id = ${t}.id)`,
      `create unique index ${t}_submission_idx on ${t} (submission_id)`,
    ]);
    // 0012 gave every row of the four tables a list row; a row without one stops the migration here.
    if (dialect === "postgres") await exec(db, [`alter table ${t} alter column submission_id set not null`]);
  }
  await db.schema
    .createTable("submission_numbers")
    .addColumn("source", "text", (c) => c.primaryKey())
    .addColumn("last", "integer", (c) => c.notNull())
    .execute();
  for (const t of TABLES) {
    const used = Number((await sql<{ n: number | null }>`select max(id) as n from ${sql.table(t)}`.execute(db)).rows[0]?.n ?? 0);
    await sql`insert into submission_numbers (source, last) values (${t}, ${Math.max(used, await sequenceOf(db, dialect, t))})`.execute(db);
  }

  // A member's account lists what they sent.
  await exec(db, [`create index submissions_submitted_by_idx on submissions (submitted_by, id)`]);

  if (dialect === "sqlite") {
    await exec(db, [
      `create virtual table submission_search using fts5(search_text, coverage,
         content = 'submissions', content_rowid = 'id', tokenize = 'trigram case_sensitive 1')`,
      `insert into submission_search (submission_search) values ('rebuild')`,
    ]);
  }
}

/** The last number the table's own sequence handed out (0 when none). */
async function sequenceOf(db: Kysely<any>, dialect: Dialect, table: Table): Promise<number> {
  if (dialect === "sqlite") {
    const row = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db)).rows[0];
    return Number(row?.seq ?? 0);
  }
  const name = (await sql<{ seq: string | null }>`select pg_get_serial_sequence(${table}, 'id') as seq`.execute(db)).rows[0]?.seq;
  if (!name) return 0;
  const row = (await sql<{ last_value: string; is_called: boolean }>`select last_value, is_called from ${sql.raw(name)}`.execute(db))
    .rows[0];
  return row?.is_called ? Number(row.last_value) : 0;
}
