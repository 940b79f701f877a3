import type { Kysely } from "kysely";

/**
 * Migrations import nothing but Kysely and this file, so they stay frozen whatever the live
 * code does. The dialect comes from config, never from Kysely internals.
 */
export type MigrationDialect = "sqlite" | "postgres";

/** A migration receives the dialect from config. Frozen once landed. */
export interface AppMigration {
  up(db: Kysely<any>, dialect: MigrationDialect): Promise<void>;
  down?(db: Kysely<any>, dialect: MigrationDialect): Promise<void>;
}

/** Auto-increment integer primary key on both dialects. */
export function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}
