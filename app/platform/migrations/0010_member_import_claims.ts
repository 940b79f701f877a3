import type { AppMigration } from "./types";

/**
 * One row per member CSV import in progress or just finished, keyed by who sent it and a
 * digest of the file: a repeated post of the same upload (a double click, a resent request,
 * another instance) finds the row instead of importing again, and answers with the first
 * result once it is stored. The primary key decides who imports, in the database, on both
 * dialects and across instances.
 */
export const m0010_member_import_claims: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("member_import_claims")
      .addColumn("actor_id", "integer", (c) => c.notNull())
      .addColumn("content_digest", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("claimed_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .addColumn("answer", "text")
      .addPrimaryKeyConstraint("member_import_claims_pk", ["actor_id", "content_digest"])
      .execute();
    await db.schema.createIndex("member_import_claims_claimed_idx").on("member_import_claims").column("claimed_at").execute();
  },
};
