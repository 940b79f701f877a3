import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * Membership applications (public-side spec, section 3: every field of the form, the four
 * drawn signatures as PNG data URLs) and the case records its case lookup answers from.
 *
 * applications has the columns every submission table has (status default pending,
 * submitted_at, updated_at, the same two indexes as 0002), so the admin submissions list can
 * union it with them. Card number, expiry and CVV are never asked on this site, so they have
 * no columns. submitted_by is the signed-in user who posted it (null once that user is gone).
 */
export const m0007_applications: AppMigration = {
  async up(db, dialect) {
    const pk = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());
    const flag = (c: any) => c.notNull().defaultTo(0);

    await db.schema
      .createTable("applications")
      .addColumn("id", idType(dialect), pk)
      .addColumn("case_number", "text")
      .addColumn("amount_of_coverage", "text", (c) => c.notNull())
      .addColumn("applicant_name", "text", (c) => c.notNull())
      .addColumn("co_applicant_name", "text")
      .addColumn("dob", "text", (c) => c.notNull())
      .addColumn("co_dob", "text")
      .addColumn("gender", "text", (c) => c.notNull())
      .addColumn("co_gender", "text")
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("co_email", "text")
      .addColumn("phone", "text", (c) => c.notNull())
      .addColumn("co_phone", "text")
      .addColumn("todays_date", "text", (c) => c.notNull())
      .addColumn("address1", "text")
      .addColumn("address2", "text")
      .addColumn("city", "text")
      .addColumn("state", "text")
      .addColumn("zip", "text")
      .addColumn("beneficiary_name", "text")
      .addColumn("beneficiary_relationship", "text")
      .addColumn("beneficiary_phone", "text")
      .addColumn("beneficiary_email", "text")
      .addColumn("payment_monthly_billing", "integer", flag)
      .addColumn("payment_automatic_checking", "integer", flag)
      .addColumn("payment_use_credit_card", "integer", flag)
      .addColumn("cc_name_on_card", "text")
      .addColumn("cc_cardholder_signature", "text")
      .addColumn("cc_process_date", "text")
      .addColumn("confirm_accuracy", "integer", flag)
      .addColumn("applicant_signature", "text", (c) => c.notNull())
      .addColumn("co_applicant_signature", "text")
      .addColumn("ach_applicant_signature", "text")
      .addColumn("ach_co_applicant_signature", "text")
      .addColumn("submitted_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
      .addColumn("submitted_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("applications_submitted_at_idx").on("applications").column("submitted_at").execute();
    await db.schema.createIndex("applications_status_idx").on("applications").column("status").execute();
    await db.schema.createIndex("applications_submitted_by_idx").on("applications").column("submitted_by").execute();

    // One row per case number (digits only); re-importing a case number updates its row.
    await db.schema
      .createTable("cases")
      .addColumn("id", idType(dialect), pk)
      .addColumn("case_number", "text", (c) => c.notNull().unique())
      .addColumn("first_name", "text")
      .addColumn("last_name", "text")
      .addColumn("applicant_name", "text")
      .addColumn("coverage", "text")
      .addColumn("email", "text")
      .addColumn("phone", "text")
      .addColumn("address1", "text")
      .addColumn("city", "text")
      .addColumn("state", "text")
      .addColumn("zip", "text")
      .addColumn("gender", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
};
