import type { AppMigration } from "./types";

/**
 * Issue 39: a payment may be paid back in several parts (0026 allowed one refund per payment,
 * by a unique index on refund_of); what keeps their sum within the payment is the refund's
 * transaction, which locks the payment's member first. A plain index on refund_of keeps the
 * sum of a payment's refunds one index read.
 *
 * And money carried into a new term at a reinstatement: the entries that move what was left
 * of the earlier term (a negative entry naming each payment it comes out of, and one positive
 * entry on the reinstatement's day) name that reinstatement in `carried_with`.
 */
export const m0033_refunds_and_carried_money: AppMigration = {
  async up(db) {
    await db.schema.dropIndex("membership_payments_refund_uq").execute();
    await db.schema
      .createIndex("membership_payments_refund_idx")
      .on("membership_payments")
      .column("refund_of")
      .where((eb: any) => eb("refund_of", "is not", null))
      .execute();
    await db.schema
      .alterTable("membership_payments")
      .addColumn("carried_with", "integer", (c) => c.references("membership_events.id").onDelete("cascade"))
      .execute();
  },
};
