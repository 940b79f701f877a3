import type { AppMigration } from "./types";

/**
 * 'My account' for members: their contact details beside the e-mail of 0016 (phone and postal
 * address, which they may update and staff see), and which member sent each contact message
 * and form request while signed in (applications have kept submitted_by since 0007).
 */
export const m0017_member_accounts: AppMigration = {
  async up(db) {
    for (const column of ["phone", "address1", "address2", "city", "state", "zip"])
      await db.schema.alterTable("users").addColumn(column, "text").execute();
    for (const table of ["contact_messages", "cpa_requests", "homeowner_material_requests"]) {
      await db.schema.alterTable(table).addColumn("submitted_by", "integer").execute();
      await db.schema.createIndex(`${table}_submitted_by_idx`).on(table).columns(["submitted_by", "id"]).execute();
    }
    await db.schema.createIndex("applications_submitted_by_idx").ifNotExists().on("applications").columns(["submitted_by", "id"]).execute();
  },
};
