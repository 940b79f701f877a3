import { sql } from "kysely";
import type { AppMigration } from "./types";

/*
 * Indexes for the admin submissions list (a UNION ALL of the four tables, each arm limited to
 * the rows one page needs):
 * - (status, submitted_at) per table: a status filter reads its page off the index, newest
 *   first, and counts from it. It replaces the status-only indexes of 0002 and 0007.
 * - lower(name) and lower(email) per table: sorting by name or e-mail walks an index instead
 *   of sorting 100,000 rows. The expressions are exactly those of the list query
 *   (features/submissions/admin-queries.server.ts); both databases use an expression index
 *   only for the same expression.
 */
const NAME_EXPRESSIONS: Record<string, string> = {
  contact_messages: `lower("name")`,
  cpa_requests: `lower(trim(coalesce("first_name", '') || ' ' || coalesce("last_name", '')))`,
  homeowner_material_requests: `lower(trim(coalesce("first_name", '') || ' ' || coalesce("last_name", '')))`,
  applications: `lower("applicant_name")`,
};

export const m0009_submission_list_indexes: AppMigration = {
  async up(db) {
    for (const [table, nameExpression] of Object.entries(NAME_EXPRESSIONS)) {
      await db.schema.createIndex(`${table}_status_submitted_at_idx`).on(table).columns(["status", "submitted_at"]).execute();
      await db.schema.dropIndex(`${table}_status_idx`).execute();
      await db.schema.createIndex(`${table}_name_idx`).on(table).expression(sql.raw(nameExpression)).execute();
      await db.schema.createIndex(`${table}_email_idx`).on(table).expression(sql.raw(`lower("email")`)).execute();
    }
  },
};
