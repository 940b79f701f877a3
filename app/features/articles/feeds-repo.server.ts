import type { Kysely, Selectable } from "kysely";
import { fromBool, mapUnique, nowIso, toBool } from "~/platform/db.server";
import type { Database, RssFeedsTable } from "~/platform/schema";
import type { FeedInputData, RssFeed } from "./contract";

export type FeedRow = Selectable<RssFeedsTable>;

export function toFeedJson(row: FeedRow): RssFeed {
  return {
    id: Number(row.id),
    name: row.name,
    url: row.url,
    category: row.category,
    is_active: toBool(row.is_active),
    last_ingested_at: row.last_ingested_at,
    last_error: row.last_error,
    last_error_at: row.last_error_at ?? null,
    consecutive_failures: Number(row.consecutive_failures),
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Data access for rss_feeds. */
export class FeedsRepo {
  constructor(private db: Kysely<Database>) {}

  list(): Promise<FeedRow[]> {
    return this.db.selectFrom("rss_feeds").selectAll().orderBy("name").orderBy("id").execute();
  }

  find(id: number): Promise<FeedRow | undefined> {
    return this.db.selectFrom("rss_feeds").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async create(input: FeedInputData): Promise<FeedRow> {
    const now = nowIso();
    return mapUnique(() =>
      this.db
        .insertInto("rss_feeds")
        .values({
          name: input.name,
          url: input.url,
          category: input.category,
          is_active: fromBool(input.is_active),
          consecutive_failures: 0,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /**
   * Updates a feed. A new URL forgets the validators of the old one; any edit clears the
   * backoff, so an admin who fixed a feed sees it tried at the next ingest.
   */
  async update(id: number, input: FeedInputData, previous: FeedRow): Promise<FeedRow | undefined> {
    const urlChanged = previous.url !== input.url;
    return mapUnique(() =>
      this.db
        .updateTable("rss_feeds")
        .set({
          name: input.name,
          url: input.url,
          category: input.category,
          is_active: fromBool(input.is_active),
          next_attempt_at: null,
          ...(urlChanged ? { etag: null, last_modified: null, consecutive_failures: 0, last_error: null } : {}),
          updated_at: nowIso(),
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst(),
    );
  }

  async delete(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom("rss_feeds").where("id", "=", id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Active feeds, split into those due now and those still waiting out a backoff. */
  async activeFeeds(now: string): Promise<{ due: FeedRow[]; waiting: FeedRow[] }> {
    const rows = await this.db.selectFrom("rss_feeds").selectAll().where("is_active", "=", 1).orderBy("id").execute();
    const due: FeedRow[] = [];
    const waiting: FeedRow[] = [];
    for (const row of rows) (row.next_attempt_at && row.next_attempt_at > now ? waiting : due).push(row);
    return { due, waiting };
  }

  /** The earliest time an active feed waiting after failures will be tried again (null: none waits). */
  async earliestNextAttempt(now: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("rss_feeds")
      .select((eb) => eb.fn.min("next_attempt_at").as("next"))
      .where("is_active", "=", 1)
      .where("next_attempt_at", ">", now)
      .executeTakeFirst();
    return (row?.next as string | null | undefined) ?? null;
  }

  async markFetched(id: number, validators: { etag: string | null; lastModified: string | null }, at = nowIso()) {
    await this.db
      .updateTable("rss_feeds")
      .set({
        last_ingested_at: at,
        last_error: null,
        last_error_at: null,
        consecutive_failures: 0,
        next_attempt_at: null,
        etag: validators.etag,
        last_modified: validators.lastModified,
      })
      .where("id", "=", id)
      .execute();
  }

  async markFailed(id: number, error: string, failures: number, nextAttemptAt: string | null, at = nowIso()) {
    await this.db
      .updateTable("rss_feeds")
      .set({ last_error: error, last_error_at: at, consecutive_failures: failures, next_attempt_at: nextAttemptAt })
      .where("id", "=", id)
      .execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("rss_feeds")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Small flags kept beside the feeds (for example: default feeds were seeded once). */
  async claimFlag(key: string): Promise<boolean> {
    const res = await this.db
      .insertInto("rss_meta")
      .values({ key, value: "1", updated_at: nowIso() })
      .onConflict((oc) => oc.column("key").doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
