import type { AppMigration } from "./types";

/**
 * From approved application to member: the link both ways (applications.member_user_id,
 * users.application_id), when the welcome e-mail went out (claimed once, so never twice), the
 * members' e-mail address, and the counter that hands out new certificate numbers (one
 * conditional UPDATE per number: two staff on two instances never get the same one).
 */
export const m0016_application_members: AppMigration = {
  async up(db) {
    await db.schema.alterTable("applications").addColumn("member_user_id", "integer").execute();
    await db.schema.alterTable("applications").addColumn("welcome_sent_at", "text").execute();
    await db.schema.alterTable("users").addColumn("application_id", "integer").execute();
    await db.schema.alterTable("users").addColumn("email", "text").execute();
    await db.schema
      .createTable("certificate_counter")
      .ifNotExists()
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("last_value", "integer", (c) => c.notNull())
      .execute();
    await db.insertInto("certificate_counter").values({ name: "members", last_value: 0 }).execute();
  },
};
