import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * A sliding-window counter kept in the database, so limits hold across restarts and
 * across instances. Each hit is a row; old rows are pruned as new ones arrive.
 */
export class DbRateLimiter {
  constructor(
    private db: Kysely<Database>,
    private bucket: string,
    private limit: number,
    private windowMs: number,
  ) {}

  /** Records a hit and says whether the caller is still within the limit. */
  async hit(key: string, now = Date.now()): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const since = new Date(now - this.windowMs).toISOString();
    const count = await this.count(key, now);
    if (count >= this.limit) {
      const oldest = await this.db
        .selectFrom("rate_limit_hits")
        .select("hit_at")
        .where("bucket", "=", this.bucket)
        .where("key", "=", key)
        .where("hit_at", ">", since)
        .orderBy("hit_at", "asc")
        .limit(1)
        .executeTakeFirst();
      const retry = oldest ? Math.ceil((Date.parse(oldest.hit_at) + this.windowMs - now) / 1000) : 60;
      return { allowed: false, retryAfterSeconds: Math.max(1, retry) };
    }
    await this.db
      .insertInto("rate_limit_hits")
      .values({ bucket: this.bucket, key, hit_at: new Date(now).toISOString() })
      .execute();
    if (Math.random() < 0.05) await this.prune(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  async count(key: string, now = Date.now()): Promise<number> {
    const since = new Date(now - this.windowMs).toISOString();
    const row = await this.db
      .selectFrom("rate_limit_hits")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("bucket", "=", this.bucket)
      .where("key", "=", key)
      .where("hit_at", ">", since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async prune(now = Date.now()) {
    await this.db
      .deleteFrom("rate_limit_hits")
      .where("bucket", "=", this.bucket)
      .where("hit_at", "<=", new Date(now - this.windowMs).toISOString())
      .execute();
  }
}
