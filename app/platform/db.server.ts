import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { withPreparedStatements } from "./sqlite-statements.server";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Driver,
  type Migration,
  type MigrationProvider,
  type RawBuilder,
} from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { migrations } from "./migrations/index";

export type Dialect = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema the handle works in, when not the default. */
  schema?: string;
  /**
   * The driver's own handle under Kysely, for libraries that speak to it directly (the
   * atomic rate limits): the one better-sqlite3 connection, or the pg pool.
   */
  native: { dialect: "sqlite"; database: SQLite.Database } | { dialect: "postgres"; pool: pg.Pool };
  close(): Promise<void>;
  /**
   * SQLite only: the waits for the write lock (BEGIN IMMEDIATE, up to busy_timeout) since
   * the open: how many took over a millisecond, and the seconds spent in all of them.
   */
  lockWaits: { count: number; seconds: number };
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent SQLite is used. */
  url?: string;
  /** SQLite file; defaults to DATA_DIR/app.db. */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests use one schema per test file). */
  pgSchema?: string;
  poolSize?: number;
}

// PostgreSQL returns int8/numeric as strings; counts are wrapped in Number() by callers, but
// bigint ids from count(*) etc. are parsed here so both dialects hand back numbers.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * SQLite transactions take the write lock as they begin (BEGIN IMMEDIATE). A deferred one
 * reads first and asks for the lock at its first write: when another connection to the file
 * (a command-line task, a second process) committed in between, SQLite refuses it at once
 * (SQLITE_BUSY, without waiting), and a member import that had read the staff accounts failed
 * with "Import failed while saving". An immediate one waits its turn (busy_timeout) instead.
 * Inside the process nothing changes: every query already goes one at a time through Kysely's
 * single connection.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private waits: DatabaseHandle["lockWaits"],
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      const started = performance.now();
      try {
        await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      } finally {
        // A wait that ended in SQLITE_BUSY (busy_timeout passed) is counted too.
        const ms = performance.now() - started;
        this.waits.seconds += ms / 1000;
        if (ms > BUSY_WAIT_MS) this.waits.count++;
      }
    };
    return driver;
  }
}
/** A BEGIN IMMEDIATE slower than this waited for another connection's write lock. */
const BUSY_WAIT_MS = 1;

export function openDatabase(opts: DatabaseOptions): DatabaseHandle {
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: "postgres",
      schema: opts.pgSchema,
      native: { dialect: "postgres", pool },
      close: () => db.destroy(),
      lockWaits: { count: 0, seconds: 0 },
    };
  }
  const file = opts.sqliteFile!;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // Reads straight from the mapped file instead of copying each page through read(): a scan
  // of the submissions' search text (a search under three characters) takes a third less.
  sqlite.pragma("mmap_size = 268435456");
  const lockWaits = { count: 0, seconds: 0 };
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withPreparedStatements(sqlite) }, lockWaits) });
  // Kysely closes its driver only if a query ever went through it; /healthz's ping asks the
  // connection directly, so an instance that answered only pings would keep its file open.
  const close = async () => {
    await db.destroy();
    if (sqlite.open) sqlite.close();
  };
  return { db, dialect: "sqlite", native: { dialect: "sqlite", database: sqlite }, close, lockWaits };
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) {
        out[name] = {
          up: (db) => m.up(db, handle.dialect),
          down: m.down ? (db) => m.down!(db, handle.dialect) : undefined,
        };
      }
      return out;
    },
  };
  // Kysely looks for its own tables across all schemas; pin them to ours.
  const migrator = new Migrator({
    db: handle.db,
    provider,
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Whether the database answers (/healthz). On SQLite the one connection is asked directly, not
 * in Kysely's queue: a long write transaction (a large member import) holds that queue for
 * seconds while the database is well, and a health check that waited for it would have a load
 * balancer take the instance out. `select 1` reads nothing, so inside another's transaction it
 * sees nothing of it. A connection busy iterating a streamed result is asked through the queue.
 */
export async function pingDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.native.dialect === "sqlite" && handle.native.database.open) {
    try {
      handle.native.database.prepare("select 1").get();
      return;
    } catch {
      // busy: below, in its turn
    }
  }
  await sql`select 1`.execute(handle.db);
}

/** A unique constraint refused a write, on either database. */
export class UniqueViolationError extends Error {
  constructor(cause: unknown) {
    super("Unique constraint violated", { cause });
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** Runs a write and turns either driver's unique-violation error into UniqueViolationError. */
export async function mapUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new UniqueViolationError(err);
    throw err;
  }
}

export const nowIso = () => new Date().toISOString();
export const toBool = (v: number | boolean | null | undefined) => v === 1 || v === true;
export const fromBool = (v: boolean) => (v ? 1 : 0);

/** `like` pattern matching `text` anywhere, case-insensitively, its own %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True where any of the text expressions contains `text`, case-insensitively, on both databases. */
export function containsAny(text: string, exprs: ReadonlyArray<RawBuilder<string | null>>): RawBuilder<boolean> {
  const pattern = containsPattern(text);
  return sql<boolean>`(${sql.join(
    exprs.map((e) => sql`lower(${e}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}
