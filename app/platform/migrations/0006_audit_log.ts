import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * Member administration: when each account last signed in, and the audit log of staff actions
 * (who, when, what, on whom, how many rows). Audit rows keep a copy of the actor's and the
 * target's name and carry no foreign key, so the history outlives deleted accounts.
 */
export const m0006_audit_log: AppMigration = {
  async up(db, dialect) {
    await db.schema.alterTable("users").addColumn("last_login_at", "text").execute();

    await db.schema
      .createTable("audit_log")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("actor_id", "integer")
      .addColumn("actor_label", "text")
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("target_type", "text")
      .addColumn("target_id", "integer")
      .addColumn("target_label", "text")
      .addColumn("row_count", "integer")
      .addColumn("details", "text")
      .execute();
    // The log is read newest first, overall, per person and per action.
    await db.schema.createIndex("audit_log_created_idx").on("audit_log").columns(["created_at", "id"]).execute();
    await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "created_at", "id"]).execute();
    await db.schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "created_at", "id"]).execute();
  },
};
