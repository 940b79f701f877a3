import type { Kysely } from "kysely";
import type { Dialect } from "../db.server";

/** A migration receives the dialect from config, never from Kysely internals. Frozen once landed. */
export interface AppMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
  down?(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Auto-increment integer primary key on both dialects. */
export function idType(dialect: Dialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}
