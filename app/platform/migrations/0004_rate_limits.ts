import type { AppMigration } from "./types";

/**
 * Rate limits move to rate-limiter-flexible's table layout (key, points, expire in epoch ms),
 * created here so the library never runs DDL at start (it is told tableCreated: true). The
 * key is text, not the library's varchar(255), so a long account name cannot break an
 * insert. The row-per-hit tables of 0001 are no longer read.
 *
 * Sessions remember whether they were issued over HTTPS, so a token from the __Host- cookie
 * is not accepted as a plain-HTTP cookie (and the other way round).
 */
export const m0004_rate_limits: AppMigration = {
  async up(db, dialect) {
    // Column order matters: the PostgreSQL store inserts `VALUES ($1, $2, $3)` without names.
    await db.schema
      .createTable("rate_limits")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("expire", dialect === "postgres" ? "bigint" : "integer")
      .execute();
    await db.schema.createIndex("rate_limits_expire_idx").on("rate_limits").column("expire").execute();

    await db.schema
      .alterTable("sessions")
      .addColumn("secure", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema.dropTable("login_attempts").execute();
    await db.schema.dropTable("rate_limit_hits").execute();
  },
};
