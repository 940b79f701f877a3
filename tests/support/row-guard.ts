import type { Kysely } from "kysely";
import { expect } from "vitest";
import { sessionIdHash } from "../../app/features/auth/credentials.server";
import type { Database } from "../../app/platform/schema";

/*
 * Every statement that changes rows must leave the rows it is not about alone. A row guard
 * takes a snapshot of whole tables before an action; afterwards it asserts that exactly the
 * expected rows were added, removed or changed, and that every other row is byte-for-byte
 * what it was (every column, compared as stored). A statement whose WHERE was dropped or
 * loosened changes rows nobody expected, and the guard names them.
 */

export type TableName = keyof Database;
export type RowKey = string | number;
type Row = Record<string, unknown>;

/** Every table of the schema, for a guard that checks the whole database. */
export const ALL_TABLES: readonly TableName[] = [
  "users",
  "sessions",
  "rate_limits",
  "rss_feeds",
  "articles",
  "article_category_counts",
  "article_day_counts",
  "article_category_day_counts",
  "ingest_runs",
  "leases",
  "rss_meta",
  "contact_messages",
  "cpa_requests",
  "homeowner_material_requests",
  "audit_log",
  "videos",
  "app_flags",
  "applications",
  "cases",
  "member_import_claims",
  "submissions",
  "submission_numbers",
  "submission_counts",
];

/** The columns that name a row, for the tables without an id column. */
const KEY_COLUMNS: Partial<Record<TableName, readonly string[]>> = {
  sessions: ["id_hash"],
  rate_limits: ["key"],
  article_category_counts: ["category"],
  article_day_counts: ["day"],
  article_category_day_counts: ["category", "day"],
  submission_counts: ["source", "status"],
  submission_numbers: ["source"],
  member_import_claims: ["actor_id", "content_digest"],
  leases: ["name"],
  rss_meta: ["key"],
  app_flags: ["key"],
};

/** What an action may do to one table. Anything not listed must not happen. */
export interface ExpectedChanges {
  /** How many rows are new (default 0). */
  added?: number;
  /** The keys (id, or the key column) of the rows that must be gone. */
  removed?: RowKey[];
  /** The keys of the rows that must differ. */
  changed?: RowKey[];
  /** Rows that may differ but need not (a session the request itself touches); never removed. */
  mayChange?: RowKey[];
  /** When given, the only columns in which a changed row may differ. */
  columns?: string[];
}

export interface TableChanges {
  added: Row[];
  removed: Row[];
  changed: Array<{ before: Row; after: Row; columns: string[] }>;
}

export interface RowGuard {
  /**
   * Asserts the guarded tables changed exactly as expected (a table left out: not at all)
   * and answers what changed, for further checks on the new and changed rows.
   */
  expectChanges(expected?: Partial<Record<TableName, ExpectedChanges>>): Promise<Record<TableName, TableChanges>>;
}

/** The session row's key (its id_hash) for a session cookie "name=token". */
export function sessionKey(cookie: string): string {
  return sessionIdHash(cookie.slice(cookie.indexOf("=") + 1));
}

/** A value as stored, in a form where equal text means equal bytes (Buffers and bigints included). */
function stored(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `bigint:${v}` : v)) ?? "undefined";
}

const byKey = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

async function snapshot(db: Kysely<Database>, table: TableName): Promise<Map<string, Row>> {
  const keyColumns = KEY_COLUMNS[table] ?? ["id"];
  const rows = (await db.selectFrom(table).selectAll().execute()) as Row[];
  const map = new Map<string, Row>();
  for (const row of rows) map.set(keyColumns.map((c) => String(row[c])).join("|"), row);
  return map;
}

function differingColumns(before: Row, after: Row): string[] {
  const columns = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...columns].filter((c) => stored(before[c]) !== stored(after[c])).sort();
}

function describeChange(key: string, before: Row, after: Row): string {
  const diffs = differingColumns(before, after).map((c) => `${c}: ${stored(before[c])} -> ${stored(after[c])}`);
  return `  ${key}: ${diffs.join(", ")}`.slice(0, 400);
}

/** Snapshots the given tables now; call expectChanges after the action. */
export async function guardRows(db: Kysely<Database>, tables: readonly TableName[]): Promise<RowGuard> {
  const before = new Map<TableName, Map<string, Row>>();
  for (const table of tables) before.set(table, await snapshot(db, table));

  return {
    async expectChanges(expected = {}) {
      for (const table of Object.keys(expected) as TableName[]) {
        if (!before.has(table)) throw new Error(`row guard: ${table} was not snapshotted`);
      }
      const result = {} as Record<TableName, TableChanges>;
      for (const table of tables) {
        const want = expected[table] ?? {};
        const old = before.get(table)!;
        const now = await snapshot(db, table);
        const changes: TableChanges = { added: [], removed: [], changed: [] };
        const removedKeys: string[] = [];
        const changedKeys: string[] = [];
        const details: string[] = [];
        for (const [key, row] of old) {
          const after = now.get(key);
          if (!after) {
            removedKeys.push(key);
            changes.removed.push(row);
          } else if (stored(row) !== stored(after)) {
            changedKeys.push(key);
            changes.changed.push({ before: row, after, columns: differingColumns(row, after) });
            details.push(describeChange(key, row, after));
          }
        }
        for (const [key, row] of now) if (!old.has(key)) changes.added.push(row);

        const expectedChanged = new Set((want.changed ?? []).map(String));
        const optional = new Set((want.mayChange ?? []).map(String));
        const actual = {
          added: changes.added.length,
          removed: removedKeys.sort(byKey),
          changed: changedKeys.filter((k) => expectedChanged.has(k) || !optional.has(k)).sort(byKey),
        };
        const wanted = {
          added: want.added ?? 0,
          removed: (want.removed ?? []).map(String).sort(byKey),
          changed: [...expectedChanged].sort(byKey),
        };
        const message = `rows of ${table} (added: how many; removed and changed: keys)${details.length ? `\nchanged rows:\n${details.slice(0, 12).join("\n")}` : ""}`;
        expect(actual, message).toEqual(wanted);
        if (want.columns) {
          const allowed = new Set(want.columns);
          for (const { before: b, columns } of changes.changed) {
            const key = (KEY_COLUMNS[table] ?? ["id"]).map((c) => String(b[c])).join("|");
            expect(
              columns.filter((c) => !allowed.has(c)),
              `columns changed in ${table} ${key}`,
            ).toEqual([]);
          }
        }
        result[table] = changes;
      }
      return result;
    },
  };
}
