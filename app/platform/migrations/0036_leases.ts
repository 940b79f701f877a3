import type { Kysely } from "kysely";
import type { AppMigration } from "./types";

/**
 * One table of leases (issue 43), one row per name, for every job that one instance at a time
 * may run (the RSS ingest, the membership reminders, the announcements to come). A name's row
 * is made by the first take, so a new job needs no migration of its own. `run_id` names the
 * run the holder is doing, for a job that records its runs (the ingest).
 *
 * The ingest's lease (`ingest_leases`, 0003) and the reminder scheduler's
 * (`membership_reminder_lease`, 0027) move in as they stand, so a lease held while this runs is
 * kept to its end, and their tables go. A previous instance still running cannot take either
 * lease any more and runs neither job until it is replaced (it logs why); nothing else changes.
 */
export const m0036_leases: AppMigration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("leases")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("holder", "text")
      .addColumn("expires_at", "text")
      .addColumn("run_id", "integer")
      .execute();
    await db
      .insertInto("leases")
      .columns(["name", "holder", "expires_at", "run_id"])
      .expression(db.selectFrom("ingest_leases").select(["name", "holder", "expires_at", "run_id"]))
      .execute();
    await db
      .insertInto("leases")
      .columns(["name", "holder", "expires_at"])
      .expression(db.selectFrom("membership_reminder_lease").select(["name", "holder", "expires_at"]))
      .execute();
    await db.schema.dropTable("ingest_leases").execute();
    await db.schema.dropTable("membership_reminder_lease").execute();
  },
};
