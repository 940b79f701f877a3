import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * The video tutorial catalogue, ordered within each category, and a small key/value table of
 * one-time flags (the default catalogue is seeded once, on the first start).
 */
export const m0005_videos: AppMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("videos")
      .addColumn("id", idType(dialect), (c) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("youtube_id", "text", (c) => c.notNull())
      .addColumn("duration", "text")
      .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("videos_category_youtube_id", ["category", "youtube_id"])
      .execute();
    await db.schema.createIndex("videos_category_order_idx").on("videos").columns(["category", "sort_order", "id"]).execute();

    await db.schema
      .createTable("app_flags")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
};
