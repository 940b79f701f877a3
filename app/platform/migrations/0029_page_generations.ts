import { sql } from "kysely";
import type { AppMigration } from "./types";

/**
 * Kept signed-in pages (decision 011): one counter per kind of shared content a kept page
 * shows. The database moves the articles' counter on with every write to `articles`, whoever
 * makes it (the ingest, a feed's category or deletion cascading, `npm run admin`, a fixture):
 * no writer has to remember it. Every instance reads the counter before it serves a kept page
 * and renders again a page kept at an older one. The triggers copy nothing.
 */
export const m0029_page_generations: AppMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("page_generations")
      .ifNotExists()
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("generation", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`insert into page_generations (name, generation) values ('articles', 0) on conflict (name) do nothing`.execute(db);
    const bump = `update page_generations set generation = generation + 1 where name = 'articles'`;
    if (dialect === "sqlite") {
      // SQLite's triggers are per row: each written row moves the counter (an UPDATE of one row by its key).
      for (const event of ["insert", "update", "delete"]) {
        await sql.raw(`drop trigger if exists articles_page_generation_${event}`).execute(db);
        await sql.raw(`create trigger articles_page_generation_${event} after ${event} on articles begin ${bump}; end`).execute(db);
      }
      return;
    }
    await sql
      .raw(
        `create or replace function articles_page_generation() returns trigger language plpgsql as $$
         begin ${bump}; return null; end $$`,
      )
      .execute(db);
    await sql.raw(`drop trigger if exists articles_page_generation on articles`).execute(db);
    // Once per statement, however many rows it writes.
    await sql
      .raw(
        `create trigger articles_page_generation after insert or update or delete or truncate on articles
         for each statement execute function articles_page_generation()`,
      )
      .execute(db);
  },
};
