import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import type { DatabaseHandle } from "./db.server";

/** The table of migration 0004, in rate-limiter-flexible's layout. */
const TABLE = "rate_limits";
/** How often an attempt also deletes the windows that have ended (one in 50: 2%). */
export const PRUNE_EVERY = 50;

export interface RateLimitRule {
  /** Names the counter family (letters, digits, underscores); stored as the key's prefix. */
  name: string;
  /** Points (attempts) allowed in one window. */
  points: number;
  windowMs: number;
}

export type Consumed = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window counter in the app's own database (SQLite or PostgreSQL), through
 * rate-limiter-flexible: each consume is one atomic upsert that adds a point and returns the
 * new total, so concurrent requests and several instances can never all read "under the
 * limit" before any of them writes.
 */
export class RateLimiter {
  constructor(
    private store: RateLimiterStoreAbstract,
    private exclusive: <T>(work: () => Promise<T>) => Promise<T>,
    private onConsume: () => Promise<void>,
    readonly rule: RateLimitRule,
  ) {}

  /** Takes one point; refused (and not counted as allowed) once the window's points are spent. */
  async consume(key: string, points = 1): Promise<Consumed> {
    try {
      await this.exclusive(() => this.store.consume(key, points));
      return { allowed: true };
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
    } finally {
      await this.onConsume();
    }
  }

  /** Gives points back (an attempt that turned out not to count). */
  async reward(key: string, points = 1): Promise<void> {
    await this.exclusive(() => this.store.reward(key, points));
  }

  /** Starts the key's count again. */
  async reset(key: string): Promise<void> {
    await this.exclusive(() => this.store.delete(key));
  }

  /** Points used in the current window (0 when none). */
  async used(key: string): Promise<number> {
    const res = await this.exclusive(() => this.store.get(key));
    return res?.consumedPoints ?? 0;
  }
}

/** Builds the limiters on the database the app already has open. */
export class RateLimits {
  private readonly exclusive: <T>(work: () => Promise<T>) => Promise<T>;

  constructor(private handle: DatabaseHandle) {
    const { db } = handle;
    // better-sqlite3 is synchronous and shared with Kysely: holding Kysely's single connection
    // keeps a limiter write out of a transaction another request has open (which could roll
    // it back). The pg store takes its own pooled connection per query.
    this.exclusive = handle.native.dialect === "sqlite" ? (work) => db.connection().execute(() => work()) : (work) => work();
  }

  limiter(rule: RateLimitRule): RateLimiter {
    const common = {
      keyPrefix: rule.name,
      points: rule.points,
      duration: rule.windowMs / 1000,
      tableName: TABLE,
      tableCreated: true,
      // No library timers: expired rows are pruned by prune() below, through Kysely.
      clearExpiredByTimeout: false,
    };
    const { native } = this.handle;
    const store =
      native.dialect === "sqlite"
        ? new RateLimiterSQLite({ ...common, storeClient: native.database, storeType: "better-sqlite3" })
        : new RateLimiterPostgres({ ...common, storeClient: native.pool, storeType: "pool", schemaName: this.handle.schema });
    return new RateLimiter(store, this.exclusive, () => this.maybePrune(), rule);
  }

  /** Deletes windows that have ended; an ended row counts as empty anyway, so this only saves space. */
  async prune(now = Date.now()): Promise<void> {
    await this.handle.db.deleteFrom("rate_limits").where("expire", "<", now).execute();
  }

  private consumes = 0;

  /** Every PRUNE_EVERY-th attempt of this process also prunes. */
  private async maybePrune() {
    if (++this.consumes % PRUNE_EVERY === 0) await this.prune();
  }
}
