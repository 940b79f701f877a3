import type { AppMigration } from "./types";

/**
 * A member's new e-mail address waits here until a link sent to it is followed (issue 39):
 * only the token's SHA-256 digest is kept, with when it runs out and when it was used (a link
 * is used once). A member's rows go with the member.
 */
export const m0037_email_changes: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("email_changes")
      .addColumn("token_digest", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("new_email", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute();
    await db.schema.createIndex("email_changes_user").on("email_changes").column("user_id").execute();
  },
};
