import type { SqliteDatabase, SqliteStatement } from "kysely";

/** How many distinct statements are kept prepared; the site's queries are a few hundred at most. */
export const KEPT_STATEMENTS = 256;

/**
 * The embedded database as Kysely sees it, with each statement compiled once. Kysely's SQLite
 * driver prepares every query it runs; preparing costs more than running most of this site's
 * queries, so statements are kept by their text (the most recently used KEPT_STATEMENTS).
 * A kept statement still iterating a streamed result is busy: that query gets a fresh one.
 * SQLite re-prepares a kept statement by itself when a migration changes the schema.
 */
export function withPreparedStatements(database: SqliteDatabase, keep = KEPT_STATEMENTS): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => {
      kept.clear();
      database.close();
    },
    prepare(sql: string) {
      const statement = kept.get(sql);
      if (statement && !(statement as { busy?: boolean }).busy) {
        // Most recently used last, so the first key is the one to drop.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const fresh = database.prepare(sql);
      if (!statement) {
        kept.set(sql, fresh);
        if (kept.size > keep) kept.delete(kept.keys().next().value!);
      }
      return fresh;
    },
  };
}
