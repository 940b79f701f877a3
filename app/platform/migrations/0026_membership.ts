import type { AppMigration, MigrationDialect } from "./types";

/** Auto-increment integer primary key on both dialects (this migration's own copy: frozen with it). */
function idType(dialect: MigrationDialect) {
  return dialect === "postgres" ? ("serial" as const) : ("integer" as const);
}

/**
 * The membership itself (issue 31): a member's plan, the ledger of payments and refunds, and
 * the cancellations and reinstatements that begin and end terms. Nothing here is a status:
 * coverage is computed from these rows and the day (features/membership/coverage.ts). And the
 * proof-of-coverage card's verification token.
 */
export const m0026_membership: AppMigration = {
  async up(db, dialect) {
    const id = (c: any) => (dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey());
    await db.schema
      .createTable("membership_plans")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      // "monthly" or "annual"
      .addColumn("billing", "text", (c) => c.notNull())
      .addColumn("coverage_cents", "integer")
      .addColumn("beneficiary_name", "text")
      .addColumn("beneficiary_relationship", "text")
      // YYYY-MM-DD; null for coverage carried over from the association's old records
      .addColumn("approved_on", "text")
      .addColumn("carried_paid_through", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("membership_payments")
      .addColumn("id", idType(dialect), id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // Above zero: a payment; below zero: a refund of the payment named by refund_of.
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("paid_on", "text", (c) => c.notNull())
      .addColumn("method", "text", (c) => c.notNull())
      .addColumn("reference", "text")
      .addColumn("refund_of", "integer", (c) => c.references("membership_payments.id").onDelete("cascade"))
      .addColumn("note", "text")
      .addColumn("recorded_by", "integer")
      .addColumn("recorded_by_label", "text")
      .addColumn("recorded_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("membership_payments_user_idx").on("membership_payments").columns(["user_id", "paid_on", "id"]).execute();
    // A payment's reference is recorded once (an imported file twice records nothing new).
    await db.schema
      .createIndex("membership_payments_reference_uq")
      .on("membership_payments")
      .column("reference")
      .unique()
      .where((eb: any) => eb.and([eb("reference", "is not", null), eb("refund_of", "is", null)]))
      .execute();
    // One refund per payment: two staff refunding the same payment at once cannot both succeed.
    await db.schema
      .createIndex("membership_payments_refund_uq")
      .on("membership_payments")
      .column("refund_of")
      .unique()
      .where((eb: any) => eb("refund_of", "is not", null))
      .execute();

    await db.schema
      .createTable("membership_events")
      .addColumn("id", idType(dialect), id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      // "cancelled" or "reinstated"
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("on_date", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      .addColumn("recorded_by", "integer")
      .addColumn("recorded_by_label", "text")
      .addColumn("recorded_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("membership_events_user_idx").on("membership_events").columns(["user_id", "id"]).execute();

    // Proof of coverage: the QR code's token is derived from the nonce with the server's key;
    // the table keeps only its digest, to find the member from a scanned code.
    await db.schema
      .createTable("membership_verify_tokens")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("nonce", "text", (c) => c.notNull())
      .addColumn("token_digest", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
};
