import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * Membership reminder e-mails (issue 31): an outbox with one row per member, reminder and
 * period (the unique key makes each sent once, whichever instance plans it), the days whose
 * reminders were planned, and the scheduler's lease (taken and shared between instances as
 * the ingest's lease in ingest_leases is).
 */
export const m0027_membership_reminders: AppMigration = {
  async up(db, dialect) {
    const id = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());
    await db.schema
      .createTable("membership_reminders")
      .addColumn("id", idType(dialect), id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // "first-payment", "due-soon", "past-due" or "lapsed"
      .addColumn("kind", "text", (c) => c.notNull())
      // YYYY-MM-DD: the paid-through date (or the term's first day) the reminder is about
      .addColumn("period", "text", (c) => c.notNull())
      // The association's calendar day the reminder became due.
      .addColumn("due_on", "text", (c) => c.notNull())
      // "queued", "sent", "failed" (retried at next_attempt_at, or given up when null), "dropped"
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text")
      // A sender's hold on the row while it sends; another takes it only after claimed_until.
      .addColumn("claimed_by", "text")
      .addColumn("claimed_until", "text")
      .addColumn("last_error", "text")
      .addColumn("sent_to", "text")
      .addColumn("sent_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("membership_reminders_once_uq")
      .on("membership_reminders")
      .columns(["user_id", "kind", "period"])
      .unique()
      .execute();
    // What is waiting to be sent, oldest first.
    await db.schema
      .createIndex("membership_reminders_waiting_idx")
      .on("membership_reminders")
      .columns(["next_attempt_at", "id"])
      .where((eb: any) => eb("status", "in", ["queued", "failed"]))
      .execute();

    // A day whose reminders were all put in the outbox (finished_at set).
    await db.schema
      .createTable("membership_reminder_days")
      .addColumn("day", "text", (c) => c.primaryKey())
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .addColumn("queued", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    // The scheduler's lease, as the ingest's (ingest_leases): one row, taken by one conditional UPDATE.
    await db.schema
      .createTable("membership_reminder_lease")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("holder", "text")
      .addColumn("expires_at", "text")
      .execute();
    await db.insertInto("membership_reminder_lease").values({ name: "membership_reminders", holder: null, expires_at: null }).execute();
  },
};
