import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * The submissions inbox: staff's internal notes on a submission and the e-mail replies sent to
 * its sender (author and time kept as written, like the audit log, so they outlive the author's
 * account), and an index that reads one submission's status history out of the audit log.
 */
export const m0015_submission_notes: AppMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("submission_notes")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("submission_table", "text", (c) => c.notNull())
      .addColumn("submission_id", "integer", (c) => c.notNull())
      .addColumn("author_id", "integer")
      .addColumn("author_label", "text")
      // "note", or "reply": an e-mail sent to the sender from the detail dialog (its subject kept too).
      .addColumn("kind", "text", (c) => c.notNull().defaultTo("note"))
      .addColumn("subject", "text")
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("submission_notes_submission_idx")
      .on("submission_notes")
      .columns(["submission_table", "submission_id", "id"])
      .execute();
    await db.schema.createIndex("audit_log_target_idx").on("audit_log").columns(["target_type", "target_label", "id"]).execute();
  },
};
