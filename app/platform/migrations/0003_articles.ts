import { sql } from "kysely";
import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

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
    await db.schema.createIndex("articles_category_published_idx").on("articles").columns(["category", "published_at", "id"]).execute();

    // Article counts per category, kept by triggers, so the knowledge center's category list
    // costs a 17-row read instead of a scan of every article (whoever writes the articles).
    await db.schema
      .createTable("article_category_counts")
      .addColumn("category", "text", (c) => c.primaryKey())
      .addColumn("n", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    for (const statement of dialect === "postgres" ? POSTGRES_COUNT_TRIGGERS : SQLITE_COUNT_TRIGGERS) {
      await sql.raw(statement).execute(db);
    }

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

const SQLITE_COUNT_TRIGGERS = [
  `create trigger articles_count_insert after insert on articles begin
     insert into article_category_counts (category, n) values (new.category, 1)
       on conflict (category) do update set n = n + 1;
   end`,
  `create trigger articles_count_delete after delete on articles begin
     update article_category_counts set n = n - 1 where category = old.category;
   end`,
  `create trigger articles_count_update after update of category on articles when old.category is not new.category begin
     update article_category_counts set n = n - 1 where category = old.category;
     insert into article_category_counts (category, n) values (new.category, 1)
       on conflict (category) do update set n = n + 1;
   end`,
];

// Inserts and deletes (feed deletion cascades) count per statement through transition tables;
// a category change is rare and counted per row.
const POSTGRES_COUNT_TRIGGERS = [
  `create function articles_count_insert() returns trigger language plpgsql as $$
   begin
     insert into article_category_counts (category, n)
       select category, count(*) from inserted_articles group by category
       on conflict (category) do update set n = article_category_counts.n + excluded.n;
     return null;
   end $$`,
  `create function articles_count_delete() returns trigger language plpgsql as $$
   begin
     update article_category_counts c set n = c.n - d.k
       from (select category, count(*) as k from deleted_articles group by category) d
       where c.category = d.category;
     return null;
   end $$`,
  `create function articles_count_update() returns trigger language plpgsql as $$
   begin
     update article_category_counts set n = n - 1 where category = old.category;
     insert into article_category_counts (category, n) values (new.category, 1)
       on conflict (category) do update set n = article_category_counts.n + 1;
     return null;
   end $$`,
  `create trigger articles_count_insert after insert on articles
     referencing new table as inserted_articles for each statement execute function articles_count_insert()`,
  `create trigger articles_count_delete after delete on articles
     referencing old table as deleted_articles for each statement execute function articles_count_delete()`,
  `create trigger articles_count_update after update of category on articles
     for each row when (old.category is distinct from new.category) execute function articles_count_update()`,
];
