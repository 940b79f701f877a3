import type { AppMigration } from "./types";
import { idType } from "./types";

/**
 * RSS feeds, the articles gathered from them, the record of every ingest run, the lease that
 * keeps one ingest at a time across instances, and small key/value flags (default feeds seeded).
 */
export const m0003_articles: AppMigration = {
  async up(db, dialect) {
    const pk = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());

    await db.schema
      .createTable("rss_feeds")
      .addColumn("id", idType(dialect), pk)
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull().unique())
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("last_ingested_at", "text")
      .addColumn("last_error", "text")
      .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text")
      .addColumn("etag", "text")
      .addColumn("last_modified", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("articles")
      .addColumn("id", idType(dialect), pk)
      .addColumn("feed_id", "integer", (c) => c.notNull().references("rss_feeds.id").onDelete("cascade"))
      .addColumn("dedupe_key", "text", (c) => c.notNull())
      .addColumn("guid", "text")
      .addColumn("link", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("summary", "text")
      .addColumn("content", "text")
      .addColumn("image_url", "text")
      .addColumn("published_at", "text", (c) => c.notNull())
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("source_name", "text")
      // Hash of the stored fields: a re-ingested item that did not change costs no write.
      .addColumn("content_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("articles_feed_dedupe_key", ["feed_id", "dedupe_key"])
      .execute();
    // The page queries: newest first, overall and per category (id breaks ties).
    await db.schema.createIndex("articles_published_idx").on("articles").columns(["published_at", "id"]).execute();
    await db.schema
      .createIndex("articles_category_published_idx")
      .on("articles")
      .columns(["category", "published_at", "id"])
      .execute();

    await db.schema
      .createTable("ingest_runs")
      .addColumn("id", idType(dialect), pk)
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("articles_added", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("articles_updated", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("feeds_total", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("feeds_failed", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("feeds_not_modified", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("feeds_skipped", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("error", "text")
      .execute();
    await db.schema.createIndex("ingest_runs_started_idx").on("ingest_runs").column("started_at").execute();

    // One row per lease name; acquiring is a conditional UPDATE, atomic on both databases.
    await db.schema
      .createTable("ingest_leases")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("holder", "text")
      .addColumn("run_id", "integer")
      .addColumn("expires_at", "text")
      .execute();
    await db.insertInto("ingest_leases").values({ name: "rss_ingest", holder: null, run_id: null, expires_at: null }).execute();

    await db.schema
      .createTable("rss_meta")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
};
