import type { AppMigration } from "./types";

/**
 * Dues paid online (issue 40). `membership_online`: one row per member who has been offered
 * the online payment, holding the member's payment reference (an opaque random value, the
 * only thing the payment page is told about the member: never the certificate number or the
 * user id), the provider's customer and subscription ids, and autopay as the subscription's
 * events last told it (on, failing with the reason, off).
 *
 * `stripe_events`: every signed event received, once, by the provider's event id (the primary
 * key: a second delivery, at once or later, on any instance, adds nothing), with what became
 * of it: applied, pending (what it refers to, `waits_for`, has not arrived yet), unmatched (for
 * staff: no member, not USD, not a whole number of periods...), handled (staff settled it) or
 * ignored (a type the site does not act on). The provider's ids it carries are kept in columns,
 * so an event can be found by the payment, invoice or subscription it names.
 */
export const m0038_online_payments: AppMigration = {
  async up(db) {
    await db.schema
      .createTable("membership_online")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("payment_reference", "text", (c) => c.notNull().unique())
      .addColumn("customer_id", "text")
      .addColumn("subscription_id", "text")
      // "on", "failing" or "off"
      .addColumn("autopay", "text", (c) => c.notNull().defaultTo("off"))
      // "monthly" or "annual": the plan the subscription charges
      .addColumn("autopay_billing", "text")
      // YYYY-MM-DD: the next charge, as the subscription's events carry it
      .addColumn("autopay_next_charge_on", "text")
      .addColumn("autopay_reason", "text")
      // The provider's time (Unix seconds) of the event that last set autopay: an older one arriving late changes nothing.
      .addColumn("autopay_as_of", "integer")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("membership_online_subscription_idx").on("membership_online").column("subscription_id").execute();

    await db.schema
      .createTable("stripe_events")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("type", "text", (c) => c.notNull())
      // The provider's time of the event, Unix seconds.
      .addColumn("created", "integer", (c) => c.notNull())
      // "applied", "pending", "unmatched", "handled" or "ignored"
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("reason", "text")
      // Pending: the provider's id it waits for (a payment intent, an invoice, a subscription).
      .addColumn("waits_for", "text")
      .addColumn("member_id", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("payment_id", "integer", (c) => c.references("membership_payments.id").onDelete("set null"))
      .addColumn("amount_cents", "integer")
      .addColumn("currency", "text")
      .addColumn("client_reference", "text")
      .addColumn("payment_intent", "text")
      .addColumn("charge_id", "text")
      .addColumn("invoice_id", "text")
      .addColumn("subscription_id", "text")
      .addColumn("customer_id", "text")
      // The event as received and verified (JSON).
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("applied_at", "text")
      .addColumn("handled_by", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("handled_by_label", "text")
      .addColumn("handled_at", "text")
      .addColumn("handled_note", "text")
      .execute();
    await db.schema.createIndex("stripe_events_state_idx").on("stripe_events").columns(["state", "received_at"]).execute();
    await db.schema
      .createIndex("stripe_events_waiting_idx")
      .on("stripe_events")
      .column("waits_for")
      .where((eb: any) => eb("state", "=", "pending"))
      .execute();
    await db.schema.createIndex("stripe_events_payment_intent_idx").on("stripe_events").column("payment_intent").execute();
    await db.schema.createIndex("stripe_events_invoice_idx").on("stripe_events").column("invoice_id").execute();
    await db.schema.createIndex("stripe_events_charge_idx").on("stripe_events").column("charge_id").execute();
    await db.schema.createIndex("stripe_events_subscription_idx").on("stripe_events").column("subscription_id").execute();
  },
};
