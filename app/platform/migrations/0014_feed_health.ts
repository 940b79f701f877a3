import type { AppMigration } from "./types";

/** Feed health (the RSS panel): when a feed's current error happened, beside the error itself. */
export const m0014_feed_health: AppMigration = {
  async up(db) {
    await db.schema.alterTable("rss_feeds").addColumn("last_error_at", "text").execute();
  },
};
