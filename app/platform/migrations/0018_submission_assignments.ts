import type { AppMigration } from "./types";

/**
 * The submissions inbox: which staff member a submission is assigned to (one at most). A
 * staff account's removal unassigns what it held; a submission's deletion takes its
 * assignment with it (in the service's delete, as its notes). The second index reads one
 * person's assignments for the 'Assigned to me' filter.
 */
export const m0018_submission_assignments: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("submission_assignments")
      .addColumn("submission_table", "text", (c) => c.notNull())
      .addColumn("submission_id", "integer", (c) => c.notNull())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("assigned_by", "integer")
      .addColumn("assigned_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("submission_assignments_pk", ["submission_table", "submission_id"])
      .execute();
    await db.schema
      .createIndex("submission_assignments_user_idx")
      .on("submission_assignments")
      .columns(["user_id", "submission_table", "submission_id"])
      .execute();
  },
};
