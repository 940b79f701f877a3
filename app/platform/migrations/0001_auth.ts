import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

export const m0001_auth: AppMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("users")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("certificate_number", "text", (c) => c.unique())
      .addColumn("birthdate_digest", "text")
      .addColumn("username", "text", (c) => c.unique())
      .addColumn("password_hash", "text")
      .addColumn("first_name", "text")
      .addColumn("last_name", "text")
      .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
      .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("is_core_admin", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("users_role_idx").on("users").column("role").execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id_hash", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("last_seen_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("idle_minutes", "integer", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("login_attempts")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("attempted_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("login_attempts_key_idx").on("login_attempts").columns(["key", "attempted_at"]).execute();

    await db.schema
      .createTable("rate_limit_hits")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("bucket", "text", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("hit_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("rate_limit_hits_idx").on("rate_limit_hits").columns(["bucket", "key", "hit_at"]).execute();
  },
};
