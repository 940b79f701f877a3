import type { Kysely } from "kysely";

/**
 * Migrations import nothing but Kysely and the types of this file (ESLint holds it), so they
 * stay frozen whatever the live code does; a helper a migration needs is its own copy. The
 * dialect comes from config, never from Kysely internals.
 */
export type MigrationDialect = "sqlite" | "postgres";

/** A migration receives the dialect from config. Frozen once landed. */
export interface AppMigration {
  up(db: Kysely<any>, dialect: MigrationDialect): Promise<void>;
  down?(db: Kysely<any>, dialect: MigrationDialect): Promise<void>;
}
