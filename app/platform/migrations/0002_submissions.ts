import type { CreateTableBuilder, Kysely } from "kysely";
import type { AppMigration, MigrationDialect as Dialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: Dialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * The public forms' tables (admin-side spec, section 3), each with status (default pending),
 * submitted_at and updated_at, indexed for the admin submissions table. member_id keeps the
 * membership ID the request forms collect, which the spec's column list has no place for.
 */
export const m0002_submissions: AppMigration = {
  async up(db, dialect) {
    await createSubmissionTable(db, dialect, "contact_messages", (t) =>
      t
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("phone", "text")
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull()),
    );

    await createSubmissionTable(db, dialect, "cpa_requests", (t) =>
      t
        .addColumn("first_name", "text", (c) => c.notNull())
        .addColumn("last_name", "text")
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("phone", "text")
        .addColumn("firm_name", "text")
        .addColumn("city", "text")
        .addColumn("state", "text")
        .addColumn("zip", "text")
        .addColumn("notes", "text")
        .addColumn("member_id", "text"),
    );

    await createSubmissionTable(db, dialect, "homeowner_material_requests", (t) =>
      t
        .addColumn("first_name", "text", (c) => c.notNull())
        .addColumn("last_name", "text")
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("phone", "text")
        .addColumn("address1", "text")
        .addColumn("address2", "text")
        .addColumn("city", "text")
        .addColumn("state", "text")
        .addColumn("zip", "text")
        .addColumn("materials_requested", "text")
        .addColumn("notes", "text")
        .addColumn("member_id", "text"),
    );
  },
};

type TableBuilder = CreateTableBuilder<string, any>;

async function createSubmissionTable(db: Kysely<any>, dialect: Dialect, table: string, columns: (t: TableBuilder) => TableBuilder) {
  let builder = db.schema
    .createTable(table)
    .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()));
  builder = columns(builder)
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("submitted_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull());
  await builder.execute();
  await db.schema.createIndex(`${table}_submitted_at_idx`).on(table).column("submitted_at").execute();
  await db.schema.createIndex(`${table}_status_idx`).on(table).column("status").execute();
}
