import type { AppMigration, MigrationDialect } from "./types";

function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * Announcements (issue 41): staff write to members by their coverage.
 *
 * `announcements`: one row per announcement, a draft until it is scheduled or sent. Its
 * recipients are rows of the reminders' outbox (`membership_reminders`, kind `announcement`,
 * period the announcement's id), added once when sending starts: the outbox's unique key
 * (member, kind, period) makes each member's mail one row, sent once, retried, paced and
 * shared by the instances as every reminder is. `recipients` is how many rows were added (a
 * member deleted since takes their row with them: the difference is counted, not named).
 *
 * `announcement_opt_outs`: the members who stopped announcements (one click in a mail, or My
 * account). Reminders and receipts about their own coverage are not announcements.
 *
 * `staff_permissions`: what a super_admin lets a limited_admin do beyond their role
 * (`announcements`: write and send announcements).
 */
export const m0039_announcements: AppMigration = {
  async up(db, dialect) {
    const id = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());
    await db.schema
      .createTable("announcements")
      .addColumn("id", idType(dialect), id)
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      // JSON: { statuses, plans, states, joinedAfter, joinedBefore }
      .addColumn("audience", "text", (c) => c.notNull())
      // "draft", "scheduled", "starting" (Send now adding the rows), "sending", "sent" or "cancelled"
      .addColumn("status", "text", (c) => c.notNull())
      // An instant (ISO, UTC): when a scheduled announcement starts.
      .addColumn("scheduled_at", "text")
      .addColumn("recipients", "integer")
      .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("updated_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("sent_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("started_at", "text")
      .addColumn("finished_at", "text")
      .addColumn("cancelled_at", "text")
      .execute();
    await db.schema.createIndex("announcements_status_idx").on("announcements").columns(["status", "scheduled_at"]).execute();

    // An announcement's progress, counted by status.
    await db.schema
      .createIndex("membership_reminders_kind_period_idx")
      .on("membership_reminders")
      .columns(["kind", "period", "status"])
      .execute();

    await db.schema
      .createTable("announcement_opt_outs")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      // "link" (the mail's one click or its page) or "account" (My account)
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("staff_permissions")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("permission", "text", (c) => c.notNull())
      .addColumn("granted_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("granted_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("staff_permissions_pk", ["user_id", "permission"])
      .execute();
  },
};
