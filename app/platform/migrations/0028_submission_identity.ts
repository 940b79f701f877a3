import { sql, type Kysely } from "kysely";
import type { AppMigration, MigrationDialect as Dialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: Dialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/*
 * One identity for a submission (decision 012, first step). submission_list (0012) already
 * holds one row per submission of the four tables, with an id of its own that its triggers
 * keep for the submission's lifetime. Notes and assignments were keyed by the pair (table,
 * id) with no foreign key, and a deletion removed them by hand. From here they point at that
 * row by its id, with a foreign key and `on delete cascade`: deleting a submission deletes its
 * list row (0012's trigger), which deletes its notes and its assignment, and nothing keyed by
 * another table's same number is touched.
 *
 * Existing rows move over with their ids; a note or an assignment whose submission is gone
 * already (a deletion made outside the app) has nothing to point at and is dropped. Old
 * instances write the pair columns, which are gone: stop them before this runs
 * (docs/deployment.md). On PostgreSQL the tables are locked meanwhile.
 */
export const m0028_submission_identity: AppMigration = {
  async up(db, dialect) {
    const run = async (trx: Kysely<any>) => {
      if (dialect === "postgres") {
        await sql`lock table submission_list, submission_notes, submission_assignments in access exclusive mode`.execute(trx);
        await postgres(trx);
      } else {
        await sqlite(trx, dialect);
      }
    };
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  },
};

const exec = async (db: Kysely<any>, statements: string[]) => {
  for (const statement of statements) await sql.raw(statement).execute(db);
};

/** The list row of a (table, id) pair. */
const listId = (alias: string) =>
  `(select l.id from submission_list l where l.source = ${alias}.submission_table and l.row_id = ${alias}.submission_id)`;

async function postgres(db: Kysely<any>) {
  await exec(db, [
    `alter table submission_notes add column list_id integer`,
    `update submission_notes n set list_id = ${listId("n")}`,
    `delete from submission_notes where list_id is null`,
    `drop index submission_notes_submission_idx`,
    `alter table submission_notes drop column submission_table`,
    `alter table submission_notes drop column submission_id`,
    `alter table submission_notes rename column list_id to submission_id`,
    `alter table submission_notes alter column submission_id set not null`,
    `alter table submission_notes add constraint submission_notes_submission_fk
       foreign key (submission_id) references submission_list (id) on delete cascade`,
    `create index submission_notes_submission_idx on submission_notes (submission_id, id)`,

    `alter table submission_assignments add column list_id integer`,
    `update submission_assignments a set list_id = ${listId("a")}`,
    `delete from submission_assignments where list_id is null`,
    `drop index submission_assignments_user_idx`,
    `alter table submission_assignments drop constraint submission_assignments_pk`,
    `alter table submission_assignments drop column submission_table`,
    `alter table submission_assignments drop column submission_id`,
    `alter table submission_assignments rename column list_id to submission_id`,
    `alter table submission_assignments alter column submission_id set not null`,
    `alter table submission_assignments add constraint submission_assignments_pk primary key (submission_id)`,
    `alter table submission_assignments add constraint submission_assignments_submission_fk
       foreign key (submission_id) references submission_list (id) on delete cascade`,
    `create index submission_assignments_user_idx on submission_assignments (user_id, submission_id)`,
  ]);
}

/** SQLite adds no foreign key to a table in place: both tables are made anew and filled. */
async function sqlite(db: Kysely<any>, dialect: Dialect) {
  await db.schema
    .createTable("submission_notes_0028")
    .addColumn("id", idType(dialect), (c) => c.primaryKey().autoIncrement())
    .addColumn("submission_id", "integer", (c) => c.notNull().references("submission_list.id").onDelete("cascade"))
    .addColumn("author_id", "integer")
    .addColumn("author_label", "text")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("note"))
    .addColumn("subject", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("submission_assignments_0028")
    .addColumn("submission_id", "integer", (c) => c.primaryKey().references("submission_list.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("assigned_by", "integer")
    .addColumn("assigned_at", "text", (c) => c.notNull())
    .execute();
  await exec(db, [
    `insert into submission_notes_0028 (id, submission_id, author_id, author_label, kind, subject, body, created_at)
       select n.id, l.id, n.author_id, n.author_label, n.kind, n.subject, n.body, n.created_at
       from submission_notes n join submission_list l on l.source = n.submission_table and l.row_id = n.submission_id`,
    // The note ids handed out so far stay handed out.
    `delete from sqlite_sequence where name = 'submission_notes_0028'`,
    `insert into sqlite_sequence (name, seq) select 'submission_notes_0028', max(
       coalesce((select seq from sqlite_sequence where name = 'submission_notes'), 0),
       coalesce((select max(id) from submission_notes_0028), 0))`,
    `insert into submission_assignments_0028 (submission_id, user_id, assigned_by, assigned_at)
       select l.id, a.user_id, a.assigned_by, a.assigned_at
       from submission_assignments a join submission_list l on l.source = a.submission_table and l.row_id = a.submission_id`,
    `drop table submission_notes`,
    `drop table submission_assignments`,
    `alter table submission_notes_0028 rename to submission_notes`,
    `alter table submission_assignments_0028 rename to submission_assignments`,
    `create index submission_notes_submission_idx on submission_notes (submission_id, id)`,
    `create index submission_assignments_user_idx on submission_assignments (user_id, submission_id)`,
  ]);
}
