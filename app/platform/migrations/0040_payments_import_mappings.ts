import type { AppMigration } from "./types";

/**
 * The payments import's column mappings (issue 40): for a file that is neither the site's own
 * four columns nor Stripe's export, staff choose which of its columns holds the certificate
 * number, amount, paid on and reference; the choice is kept here, by the file's header row (its
 * column names, normalized, as a digest), and read again for the next file with that header.
 */
export const m0040_payments_import_mappings: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("payments_import_mappings")
      // sha256 of the normalized header row
      .addColumn("header_key", "text", (c) => c.primaryKey())
      // JSON: the header's column names as written
      .addColumn("columns", "text", (c) => c.notNull())
      // JSON: { certificate_number, amount, paid_on, reference } -> a column name
      .addColumn("mapping", "text", (c) => c.notNull())
      .addColumn("saved_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("saved_by_label", "text")
      .addColumn("saved_at", "text", (c) => c.notNull())
      .execute();
  },
};
