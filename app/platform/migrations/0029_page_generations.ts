import type { AppMigration } from "./types";

/**
 * Kept signed-in pages (decision 011): one counter per kind of shared content a kept page
 * shows ("articles"), moved on by whatever changes it, in the same transaction. Every
 * instance reads the counters at most once a second and drops the pages kept at an older one.
 */
export const m0029_page_generations: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("page_generations")
      .ifNotExists()
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("generation", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
