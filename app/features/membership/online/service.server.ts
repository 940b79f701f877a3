import crypto from "node:crypto";
import type { Kysely } from "kysely";
import Stripe from "stripe";
import { nowIso, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/domain/audit";
import { PLAN_PRICE_CENTS, todayIn, type Billing } from "../coverage";
import { MEMBERSHIP_MESSAGES, ONLINE_METHOD } from "../contract";
import { readEvent, type OnlineEvent } from "./events";
import { ONLINE_ACTOR, type CoverageService, type MembershipActor } from "../service.server";
import {
  ONLINE_MESSAGES as O,
  type AutopayView,
  type OnlineEventState,
  type UnmatchedPaymentView,
  type UnmatchedPaymentsAnswer,
} from "./contract";

type Db = Kysely<Database>;

/** What became of one event, and the provider ids its applying made known (to wake events waiting for them). */
interface Outcome {
  state: Exclude<OnlineEventState, "handled">;
  reason?: string | null;
  waitsFor?: string | null;
  memberId?: number | null;
  paymentId?: number | null;
  amountCents?: number | null;
  currency?: string | null;
  clientReference?: string | null;
  paymentIntent?: string | null;
  chargeId?: string | null;
  invoiceId?: string | null;
  subscriptionId?: string | null;
  customerId?: string | null;
  wakes?: string[];
  /** A payment recorded now: its receipt is owed. */
  recordedPayment?: { memberId: number; paymentId: number };
}

/** Counters for /metrics (read at each scrape). */
export interface OnlinePaymentCounters {
  /** `${type} ${outcome}` -> count; outcome is applied, pending, unmatched, ignored or duplicate. */
  events: Map<string, number>;
  signatureFailures: number;
  /** Bodies whose signature verified but that are refused: not JSON, or JSON that is no event (null, 0, [], no id or type). */
  refused: { notJson: number; notAnEvent: number };
  /** The provider's time (Unix seconds) of the newest event received, or null. */
  lastEventAt: number | null;
}

/**
 * Events applied at once by one process: on PostgreSQL a few (their queries wait on the
 * network); on the embedded database one, its queries run on the event loop itself.
 */
const RECEIVING: Record<Dialect, number> = { postgres: 4, sqlite: 1 };

/** A new payment reference: 20 random characters, nothing of the member in it. */
export function newPaymentReference(): string {
  return `pay_${crypto.randomBytes(15).toString("base64url")}`;
}

/**
 * Dues paid online (issue 40). The provider tells the site by signed events: each is verified
 * with the provider's own library before a byte of it is read, stored once by its id (a
 * second delivery, however many at once, on any instance, changes nothing), and applied in
 * the transaction that stores it: a payment recorded through the coverage service like any
 * other (method online, reference the provider's payment id), a refund against the payment it
 * pays back, autopay's state on the member. An event that names what has not arrived yet waits
 * (pending) and is applied when it comes; one that matches no member, is not in USD or is not a
 * whole number of the plan's periods goes to staff's Unmatched payments. Nothing is guessed.
 */
export class OnlinePayments {
  readonly counters: OnlinePaymentCounters = {
    events: new Map(),
    signatureFailures: 0,
    refused: { notJson: 0, notAnEvent: 0 },
    lastEventAt: null,
  };

  constructor(
    private deps: {
      db: Db;
      dialect: Dialect;
      coverage: CoverageService;
      audit: AuditRecorder;
      /** STRIPE_WEBHOOK_SECRET; null: online payments are off and the webhook answers 404. */
      webhookSecret: string | null;
      timeZone: string;
      logger: Logger;
      /** A payment recorded online: its receipt is put in the outbox (reminders). */
      onPaymentRecorded?: (memberId: number, paymentId: number) => Promise<void>;
    },
  ) {}

  get enabled(): boolean {
    return this.deps.webhookSecret !== null;
  }

  /**
   * The event, verified with the provider's library (its 5-minute tolerance) from the raw
   * body and the Stripe-Signature header; a missing, wrong or stale signature is refused. Only
   * then is the body read: a signed body that is not JSON, or JSON that is not an event (null,
   * 0, [], an object without an id and a type), is refused with its own answer, and counted
   * apart from the signatures that fail.
   */
  verify(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!this.deps.webhookSecret) throw DomainError.notFound(O.off);
    if (!signature) {
      this.counters.signatureFailures++;
      throw DomainError.invalid(O.noSignature);
    }
    try {
      Stripe.webhooks.signature!.verifyHeader(rawBody, signature, this.deps.webhookSecret, 300);
    } catch {
      this.counters.signatureFailures++;
      throw DomainError.invalid(O.badSignature);
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      this.counters.refused.notJson++;
      throw DomainError.invalid(O.notJson);
    }
    if (!isEvent(body)) {
      this.counters.refused.notAnEvent++;
      throw DomainError.invalid(O.notAnEvent);
    }
    return body;
  }

  /**
   * Stores a verified event once and applies it; a second delivery answers the same and does
   * nothing. At most RECEIVING events are applied at once by this process, the rest wait their
   * turn. Each turn begins on a later turn of the event loop (setImmediate), never straight
   * from the previous event's end: a burst of deliveries leaves the site's pages their turn
   * between events, instead of a chain of events applied back to back (on the embedded
   * database, whose queries block the loop, that chain held every page for seconds).
   */
  async receive(event: Stripe.Event): Promise<{ state: OnlineEventState; duplicate: boolean }> {
    await this.turn();
    try {
      return await this.receiveNow(event);
    } finally {
      this.endTurn();
    }
  }

  private running = 0;
  private waiting: Array<() => void> = [];

  private turn(): Promise<void> {
    if (this.running < RECEIVING[this.deps.dialect]) {
      this.running++;
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private endTurn() {
    const next = this.waiting.shift();
    if (next) setImmediate(next);
    else this.running--;
  }

  private async receiveNow(event: Stripe.Event): Promise<{ state: OnlineEventState; duplicate: boolean }> {
    const { db } = this.deps;
    if (!isEvent(event)) throw DomainError.invalid(O.notAnEvent);
    this.counters.lastEventAt = Math.max(this.counters.lastEventAt ?? 0, Number(event.created) || 0);
    const result = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("stripe_events")
        .values({
          id: event.id,
          type: event.type,
          created: Number(event.created) || 0,
          state: "pending",
          payload: JSON.stringify(event),
          received_at: nowIso(),
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!inserted) {
        const stored = await trx.selectFrom("stripe_events").select("state").where("id", "=", event.id).executeTakeFirst();
        return { outcome: null, state: (stored?.state ?? "applied") as OnlineEventState };
      }
      const outcome = await this.apply(trx, event);
      await this.write(trx, event.id, outcome);
      return { outcome, state: outcome.state as OnlineEventState };
    });
    this.count(event.type, result.outcome ? result.outcome.state : "duplicate");
    if (result.outcome) await this.after(event.id, result.outcome);
    return { state: result.state, duplicate: !result.outcome };
  }

  /** After a commit: the receipt, the events this one's ids wake, and one more try of a pending one (its key may have come meanwhile). */
  private async after(eventId: string, outcome: Outcome): Promise<void> {
    if (outcome.recordedPayment && this.deps.onPaymentRecorded) {
      await this.deps
        .onPaymentRecorded(outcome.recordedPayment.memberId, outcome.recordedPayment.paymentId)
        .catch((err) => this.deps.logger.error({ err, eventId }, "the receipt of an online payment was not queued"));
    }
    if (outcome.state === "pending") {
      // What it waits for may have been committed between this event's look and its commit.
      await this.retry(eventId, false);
      return;
    }
    if (outcome.wakes?.length) await this.wake(outcome.wakes);
  }

  /** Applies the pending events waiting for any of `keys`, one at a time, each in its own transaction. */
  private async wake(keys: string[]): Promise<void> {
    const ids = keys.filter(Boolean);
    if (!ids.length) return;
    const waiting = await this.deps.db
      .selectFrom("stripe_events")
      .select("id")
      .where("state", "=", "pending")
      .where("waits_for", "in", ids)
      .orderBy("created")
      .orderBy("id")
      .execute();
    for (const w of waiting) await this.retry(w.id, true);
  }

  /** One pending event tried again, with its row locked: applied once whichever instance gets there first. */
  private async retry(eventId: string, wakeOthers: boolean): Promise<void> {
    const { db, dialect } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom("stripe_events")
        .select(["type", "payload", "waits_for"])
        .where("id", "=", eventId)
        .where("state", "=", "pending");
      if (dialect === "postgres") query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return null;
      const event = JSON.parse(row.payload) as Stripe.Event;
      const next = await this.apply(trx, event);
      // Still waiting for the same thing: leave the row as it is.
      if (next.state === "pending" && next.waitsFor === row.waits_for) return null;
      await this.write(trx, eventId, next);
      return { ...next, type: row.type };
    });
    if (!outcome) return;
    this.count(outcome.type, outcome.state);
    if (outcome.recordedPayment && this.deps.onPaymentRecorded)
      await this.deps
        .onPaymentRecorded(outcome.recordedPayment.memberId, outcome.recordedPayment.paymentId)
        .catch((err) => this.deps.logger.error({ err, eventId }, "the receipt of an online payment was not queued"));
    if (wakeOthers && outcome.state !== "pending" && outcome.wakes?.length) await this.wake(outcome.wakes);
  }

  private count(type: string, outcome: string) {
    const key = `${type} ${outcome}`;
    this.counters.events.set(key, (this.counters.events.get(key) ?? 0) + 1);
  }

  private async write(trx: Db, eventId: string, o: Outcome): Promise<void> {
    await trx
      .updateTable("stripe_events")
      .set({
        state: o.state,
        reason: o.reason ?? null,
        waits_for: o.state === "pending" ? (o.waitsFor ?? null) : null,
        member_id: o.memberId ?? null,
        payment_id: o.paymentId ?? null,
        amount_cents: o.amountCents ?? null,
        currency: o.currency ?? null,
        client_reference: o.clientReference ?? null,
        payment_intent: o.paymentIntent ?? null,
        charge_id: o.chargeId ?? null,
        invoice_id: o.invoiceId ?? null,
        subscription_id: o.subscriptionId ?? null,
        customer_id: o.customerId ?? null,
        applied_at: o.state === "applied" ? nowIso() : null,
      })
      .where("id", "=", eventId)
      .execute();
  }

  // ---- applying one event ----

  private async apply(trx: Db, event: Stripe.Event): Promise<Outcome> {
    const e = readEvent(event.type, (event as { data?: { object?: unknown } }).data?.object);
    const created = Number(event.created) || Math.floor(Date.now() / 1000);
    try {
      switch (e.kind) {
        case "checkout":
          return await this.checkout(trx, e, created);
        case "invoice-paid":
          return await this.invoicePaid(trx, e, created);
        case "refund":
          return await this.refund(trx, e, created);
        case "invoice-failed":
        case "subscription":
          return await this.autopay(trx, e, created);
        default:
          return { state: "ignored", reason: O.ignoredType };
      }
    } catch (err) {
      // A rule of the ledger refused it (no plan, more refunded than left...): staff decide.
      if (err instanceof DomainError) return { state: "unmatched", reason: err.message, ...idsOf(e) };
      throw err;
    }
  }

  private async checkout(trx: Db, e: Extract<OnlineEvent, { kind: "checkout" }>, created: number): Promise<Outcome> {
    const ids = idsOf(e);
    const base: Outcome = {
      state: "applied",
      ...ids,
      amountCents: e.amountCents,
      currency: e.currency,
      clientReference: e.clientReference,
    };
    if (e.mode === "setup") return { ...base, state: "ignored", reason: O.ignoredSetup };
    const member = await this.memberByReference(trx, e.clientReference);
    if ("unmatched" in member) return { ...base, state: "unmatched", reason: member.unmatched };
    const memberId = member.id;
    if (e.subscription) await this.linkSubscription(trx, memberId, e.subscription, e.customer, created);
    else if (e.customer) await this.setCustomer(trx, memberId, e.customer);
    const wakes = [e.paymentIntent, e.invoice, e.subscription, e.sessionId].filter((k): k is string => !!k);
    if (e.paymentStatus !== "paid") return { ...base, memberId, state: "ignored", reason: O.notPaidYet, wakes };
    // A free trial's checkout: autopay is on, nothing was paid.
    if (e.amountCents === 0) return { ...base, memberId, state: "ignored", reason: O.nothingPaid, wakes };
    const reference = e.paymentIntent ?? e.invoice ?? e.sessionId;
    const recorded = await this.payment(trx, memberId, e.amountCents, e.currency, reference, created, {
      invoice: e.invoice,
      paymentIntent: e.paymentIntent,
    });
    return { ...base, ...recorded, memberId: recorded.memberId ?? memberId, wakes };
  }

  private async invoicePaid(trx: Db, e: Extract<OnlineEvent, { kind: "invoice-paid" }>, created: number): Promise<Outcome> {
    const base: Outcome = { state: "applied", ...idsOf(e), amountCents: e.amountCents, currency: e.currency };
    if (e.amountCents <= 0) return { ...base, state: "ignored", reason: O.nothingPaid };
    const wakes = [e.paymentIntent, e.charge, e.invoice].filter((k): k is string => !!k);
    // The first invoice of a subscription is the checkout's payment: recorded once, by whichever came first.
    const same = await this.recordedPayment(trx, [e.paymentIntent, e.invoice], { invoice: e.invoice });
    if (same) return { ...base, memberId: same.memberId, paymentId: same.paymentId, reason: O.alreadyRecorded, wakes };
    const member = await this.memberBySubscription(trx, e.subscription);
    if ("waits" in member) return { ...base, state: "pending", waitsFor: member.waits, reason: O.waitingForCheckout };
    if ("unmatched" in member) return { ...base, state: "unmatched", reason: member.unmatched };
    const reference = e.paymentIntent ?? e.invoice;
    const recorded = await this.payment(trx, member.id, e.amountCents, e.currency, reference, created, {
      invoice: e.invoice,
      paymentIntent: e.paymentIntent,
    });
    if (recorded.state === "applied" && e.periodEnd)
      await this.setAutopay(trx, member.id, created, { state: "on", nextCharge: e.periodEnd });
    return { ...base, ...recorded, memberId: member.id, wakes };
  }

  private async refund(trx: Db, e: Extract<OnlineEvent, { kind: "refund" }>, created: number): Promise<Outcome> {
    const base: Outcome = { state: "applied", ...idsOf(e), amountCents: e.amountRefundedCents, currency: e.currency };
    const payment = await this.recordedPayment(trx, [e.paymentIntent, e.charge], { paymentIntent: e.paymentIntent, charge: e.charge });
    // The ledger is in dollars, as every payment it records: a refund in another currency is not
    // a number of cents to take off one (nor a reason to wait for a payment that will never be recorded).
    if ((e.currency ?? "").toLowerCase() !== "usd")
      return { ...base, state: "unmatched", reason: O.refundNotUsd(e.currency), memberId: payment?.memberId ?? null };
    // The provider's running total, missing or below zero: nothing to read a refund from.
    if (e.amountRefundedCents === null || e.amountRefundedCents < 0)
      return { ...base, state: "unmatched", reason: O.refundTotalInvalid, memberId: payment?.memberId ?? null };
    if (!payment) return { ...base, state: "pending", waitsFor: e.paymentIntent ?? e.charge, reason: O.waitingForPayment };
    const { paymentId, memberId } = payment;
    // The member's row first: two refund events of one charge at once take turns, the second sees the first.
    await this.lockMember(trx, memberId);
    const refunds = await trx
      .selectFrom("membership_payments")
      .select("amount_cents")
      .where("refund_of", "=", paymentId)
      .where("carried_with", "is", null)
      .execute();
    const refundedCents = refunds.reduce((sum, r) => sum - Number(r.amount_cents), 0);
    const newCents = e.amountRefundedCents - refundedCents;
    if (newCents <= 0) return { ...base, memberId, paymentId, reason: O.refundAlreadyRecorded };
    await this.deps.coverage.refundIn(trx, ONLINE_ACTOR, paymentId, {
      amount: newCents,
      refundedOn: this.dayOf(created),
      reason: O.refundReason,
    });
    return { ...base, memberId, paymentId };
  }

  private async autopay(trx: Db, e: Extract<OnlineEvent, { kind: "invoice-failed" | "subscription" }>, created: number): Promise<Outcome> {
    const base: Outcome = { state: "applied", ...idsOf(e) };
    const member = await this.memberBySubscription(trx, e.subscription);
    if ("waits" in member) return { ...base, state: "pending", waitsFor: member.waits, reason: O.waitingForCheckout };
    if ("unmatched" in member) return { ...base, state: "unmatched", reason: member.unmatched };
    if (e.kind === "invoice-failed") {
      await this.setAutopay(trx, member.id, created, { state: "failing", reason: e.reason, nextCharge: e.nextAttempt });
    } else {
      const off = e.deleted || ["canceled", "incomplete_expired"].includes(e.status);
      const failing = ["past_due", "unpaid"].includes(e.status);
      const interval = e.interval === "year" ? "annual" : e.interval === "month" ? "monthly" : null;
      await this.setAutopay(trx, member.id, created, {
        state: off ? "off" : failing ? "failing" : "on",
        nextCharge: off || e.cancelAtPeriodEnd ? null : e.currentPeriodEnd,
        reason: off
          ? null
          : failing
            ? undefined
            : e.cancelAtPeriodEnd && e.currentPeriodEnd
              ? O.endsOn(this.dayOf(e.currentPeriodEnd))
              : null,
        billing: interval,
      });
    }
    return { ...base, memberId: member.id };
  }

  /**
   * A payment: checked (USD, a whole number of the plan's periods, not recorded already) and
   * recorded through the coverage service, in the event's transaction.
   */
  private async payment(
    trx: Db,
    memberId: number,
    amountCents: number | null,
    currency: string | null,
    reference: string,
    created: number,
    keys: { invoice?: string | null; paymentIntent?: string | null },
  ): Promise<Outcome> {
    if ((currency ?? "").toLowerCase() !== "usd") return { state: "unmatched", memberId, reason: O.notUsd(currency) };
    const plan = await trx.selectFrom("membership_plans").select("billing").where("user_id", "=", memberId).executeTakeFirst();
    if (!plan) return { state: "unmatched", memberId, reason: MEMBERSHIP_MESSAGES.noPlan };
    const billing = plan.billing as Billing;
    const price = PLAN_PRICE_CENTS[billing];
    if (!amountCents || amountCents <= 0 || amountCents % price !== 0)
      return { state: "unmatched", memberId, reason: O.notWholePeriods(amountCents ?? 0, billing) };
    const same = await this.recordedPayment(trx, [reference, keys.paymentIntent, keys.invoice], keys);
    if (same) return { state: "applied", memberId: same.memberId, paymentId: same.paymentId, reason: O.alreadyRecorded };
    await this.deps.coverage.recordPaymentIn(trx, ONLINE_ACTOR, memberId, {
      amount: amountCents,
      paidOn: this.dayOf(created),
      method: ONLINE_METHOD,
      reference,
    });
    const row = await trx
      .selectFrom("membership_payments")
      .select("id")
      .where("reference", "=", reference)
      .where("refund_of", "is", null)
      .executeTakeFirstOrThrow();
    const paymentId = Number(row.id);
    return { state: "applied", memberId, paymentId, recordedPayment: { memberId, paymentId } };
  }

  /** A payment already in the ledger under one of `references`, or named by an applied event by the provider's ids. */
  private async recordedPayment(
    trx: Db,
    references: Array<string | null | undefined>,
    keys: { invoice?: string | null; paymentIntent?: string | null; charge?: string | null },
  ): Promise<{ paymentId: number; memberId: number } | null> {
    const refs = references.filter((r): r is string => !!r);
    if (refs.length) {
      const row = await trx
        .selectFrom("membership_payments")
        .select(["id", "user_id"])
        .where("reference", "in", refs)
        .where("refund_of", "is", null)
        .executeTakeFirst();
      if (row) return { paymentId: Number(row.id), memberId: Number(row.user_id) };
    }
    if (!keys.invoice && !keys.paymentIntent && !keys.charge) return null;
    const byEvent = await trx
      .selectFrom("stripe_events")
      .innerJoin("membership_payments", "membership_payments.id", "stripe_events.payment_id")
      .select(["membership_payments.id", "membership_payments.user_id"])
      .where((eb) =>
        eb.or([
          ...(keys.invoice ? [eb("stripe_events.invoice_id", "=", keys.invoice)] : []),
          ...(keys.paymentIntent ? [eb("stripe_events.payment_intent", "=", keys.paymentIntent)] : []),
          ...(keys.charge ? [eb("stripe_events.charge_id", "=", keys.charge)] : []),
        ]),
      )
      .executeTakeFirst();
    return byEvent ? { paymentId: Number(byEvent.id), memberId: Number(byEvent.user_id) } : null;
  }

  private async memberByReference(trx: Db, reference: string | null): Promise<{ id: number } | { unmatched: string }> {
    if (!reference) return { unmatched: O.noReference };
    const row = await trx
      .selectFrom("membership_online")
      .innerJoin("users", "users.id", "membership_online.user_id")
      .select("users.id")
      .where("membership_online.payment_reference", "=", reference)
      .where("users.role", "=", "user")
      .executeTakeFirst();
    return row ? { id: Number(row.id) } : { unmatched: O.unknownReference };
  }

  /** The member of a subscription; pending while its checkout has not arrived; unmatched when its member was deleted. */
  private async memberBySubscription(
    trx: Db,
    subscription: string | null,
  ): Promise<{ id: number } | { waits: string } | { unmatched: string }> {
    if (!subscription) return { unmatched: O.noSubscription };
    const row = await trx
      .selectFrom("membership_online")
      .innerJoin("users", "users.id", "membership_online.user_id")
      .select("users.id")
      .where("membership_online.subscription_id", "=", subscription)
      .where("users.role", "=", "user")
      .executeTakeFirst();
    if (row) return { id: Number(row.id) };
    // Its checkout came and was applied, and the member is gone since.
    const checkout = await trx
      .selectFrom("stripe_events")
      .select("id")
      .where("subscription_id", "=", subscription)
      .where("type", "in", ["checkout.session.completed", "checkout.session.async_payment_succeeded"])
      .where("state", "in", ["applied", "ignored", "handled"])
      .executeTakeFirst();
    return checkout ? { unmatched: O.memberGone } : { waits: subscription };
  }

  private async linkSubscription(trx: Db, memberId: number, subscription: string, customer: string | null, created: number) {
    await trx
      .updateTable("membership_online")
      .set({ subscription_id: subscription, ...(customer ? { customer_id: customer } : {}), updated_at: nowIso() })
      .where("user_id", "=", memberId)
      .execute();
    const billing = await trx.selectFrom("membership_plans").select("billing").where("user_id", "=", memberId).executeTakeFirst();
    await this.setAutopay(trx, memberId, created, { state: "on", billing: (billing?.billing as Billing | undefined) ?? null });
  }

  private async setCustomer(trx: Db, memberId: number, customer: string) {
    await trx
      .updateTable("membership_online")
      .set({ customer_id: customer, updated_at: nowIso() })
      .where("user_id", "=", memberId)
      .execute();
  }

  /**
   * Autopay as the provider's event at `created` tells it; an older event arriving after a newer
   * one changes nothing. `undefined` leaves a field as it is.
   */
  private async setAutopay(
    trx: Db,
    memberId: number,
    created: number,
    change: { state: "on" | "failing" | "off"; nextCharge?: number | null; reason?: string | null; billing?: Billing | null },
  ) {
    await trx
      .updateTable("membership_online")
      .set({
        autopay: change.state,
        autopay_as_of: created,
        updated_at: nowIso(),
        ...(change.nextCharge !== undefined ? { autopay_next_charge_on: change.nextCharge ? this.dayOf(change.nextCharge) : null } : {}),
        ...(change.reason !== undefined ? { autopay_reason: change.reason } : change.state === "on" ? { autopay_reason: null } : {}),
        ...(change.billing ? { autopay_billing: change.billing } : {}),
      })
      .where("user_id", "=", memberId)
      .where((eb) => eb.or([eb("autopay_as_of", "is", null), eb("autopay_as_of", "<=", created)]))
      .execute();
  }

  private async lockMember(trx: Db, memberId: number) {
    const query = trx.selectFrom("users").select("id").where("id", "=", memberId);
    await (this.deps.dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  }

  /** The association's calendar day of a provider's time. */
  private dayOf(unixSeconds: number): string {
    return todayIn(this.deps.timeZone, new Date(unixSeconds * 1000));
  }

  // ---- members ----

  /** The member's payment reference, made at first need (two at once: one wins, both read it). */
  async paymentReference(userId: number): Promise<string> {
    const { db } = this.deps;
    const now = nowIso();
    await db
      .insertInto("membership_online")
      .values({ user_id: userId, payment_reference: newPaymentReference(), created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    const row = await db
      .selectFrom("membership_online")
      .select("payment_reference")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return row.payment_reference;
  }

  /**
   * The member's plan's payment link with their payment reference (client_reference_id) and
   * stored address (prefilled_email); null without a plan.
   */
  async paymentLink(userId: number, links: Record<Billing, string>): Promise<string | null> {
    const member = await this.deps.db
      .selectFrom("users")
      .innerJoin("membership_plans", "membership_plans.user_id", "users.id")
      .select(["users.email", "membership_plans.billing"])
      .where("users.id", "=", userId)
      .where("users.role", "=", "user")
      .executeTakeFirst();
    if (!member) return null;
    const url = new URL(links[member.billing as Billing]);
    url.searchParams.set("client_reference_id", await this.paymentReference(userId));
    const email = member.email?.trim();
    if (email) url.searchParams.set("prefilled_email", email);
    return url.toString();
  }

  /** Autopay as the member sees it, and whether an online payment was recorded since `since` (ISO instant). */
  async autopayOf(userId: number): Promise<AutopayView> {
    const row = await this.deps.db.selectFrom("membership_online").selectAll().where("user_id", "=", userId).executeTakeFirst();
    if (!row || !row.subscription_id) return { state: "off", billing: null, nextChargeOn: null, reason: null };
    return {
      state: row.autopay as AutopayView["state"],
      billing: (row.autopay_billing as Billing | null) ?? null,
      nextChargeOn: row.autopay_next_charge_on,
      reason: row.autopay_reason,
    };
  }

  /** The newest online payment of the member recorded at or after `since` (ISO instant), or null. */
  async onlinePaymentSince(userId: number, since: string): Promise<{ recordedAt: string } | null> {
    const row = await this.deps.db
      .selectFrom("membership_payments")
      .select("recorded_at")
      .where("user_id", "=", userId)
      .where("method", "=", ONLINE_METHOD)
      .where("refund_of", "is", null)
      .where("recorded_at", ">=", since)
      .orderBy("id", "desc")
      .executeTakeFirst();
    return row ? { recordedAt: row.recorded_at } : null;
  }

  // ---- staff ----

  /** Unmatched payments (and events still waiting), newest first, with their count. */
  async unmatched(): Promise<UnmatchedPaymentsAnswer> {
    const { db } = this.deps;
    const rows = await db
      .selectFrom("stripe_events")
      .leftJoin("users", "users.id", "stripe_events.member_id")
      .select([
        "stripe_events.id",
        "stripe_events.type",
        "stripe_events.created",
        "stripe_events.state",
        "stripe_events.reason",
        "stripe_events.amount_cents",
        "stripe_events.currency",
        "stripe_events.payment_intent",
        "stripe_events.invoice_id",
        "stripe_events.subscription_id",
        "stripe_events.received_at",
        "users.id as member_id",
        "users.certificate_number",
      ])
      .where("stripe_events.state", "in", ["unmatched", "pending"])
      .orderBy("stripe_events.received_at", "desc")
      .orderBy("stripe_events.id")
      .limit(500)
      .execute();
    const counts = await this.counts();
    return {
      success: true,
      unmatched: counts.unmatched,
      pending: counts.pending,
      events: rows.map((r): UnmatchedPaymentView => ({
        id: r.id,
        type: r.type,
        state: r.state as "unmatched" | "pending",
        reason: r.reason,
        amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
        currency: r.currency,
        paymentId: r.payment_intent ?? r.invoice_id,
        subscriptionId: r.subscription_id,
        occurredAt: new Date(Number(r.created) * 1000).toISOString(),
        receivedAt: r.received_at,
        member: r.member_id === null ? null : { id: Number(r.member_id), certificateNumber: r.certificate_number },
        assignable: isPayment(r.type) && (r.currency ?? "").toLowerCase() === "usd" && Number(r.amount_cents ?? 0) > 0,
      })),
    };
  }

  async counts(): Promise<{ unmatched: number; pending: number }> {
    const rows = await this.deps.db
      .selectFrom("stripe_events")
      .select((eb) => ["state", eb.fn.countAll<number>().as("n")])
      .where("state", "in", ["unmatched", "pending"])
      .groupBy("state")
      .execute();
    const of = (s: string) => Number(rows.find((r) => r.state === s)?.n ?? 0);
    return { unmatched: of("unmatched"), pending: of("pending") };
  }

  /**
   * super_admin: records an unmatched (or waiting) payment for the member with this
   * certificate number, as the event would have, and says so in the audit log.
   */
  async assign(actor: { id: number }, eventId: string, certificateNumber: string): Promise<void> {
    const { db, dialect } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      let query = trx.selectFrom("stripe_events").selectAll().where("id", "=", eventId);
      if (dialect === "postgres") query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) throw DomainError.notFound(O.eventNotFound);
      if (row.state !== "unmatched" && row.state !== "pending") throw DomainError.conflict(O.notOpen);
      if (!isPayment(row.type)) throw DomainError.invalid(O.notAssignable);
      if ((row.currency ?? "").toLowerCase() !== "usd") throw DomainError.invalid(O.assignNotUsd);
      if (!row.amount_cents || Number(row.amount_cents) <= 0) throw DomainError.invalid(O.notAssignable);
      const member = await trx
        .selectFrom("users")
        .select(["id", "certificate_number"])
        .where("certificate_number", "=", certificateNumber.trim())
        .where("role", "=", "user")
        .executeTakeFirst();
      if (!member) throw DomainError.invalid(O.noSuchMember, { certificateNumber: O.noSuchMember });
      const memberId = Number(member.id);
      const plan = await trx.selectFrom("membership_plans").select("billing").where("user_id", "=", memberId).executeTakeFirst();
      if (!plan) throw DomainError.invalid(MEMBERSHIP_MESSAGES.noPlan, { certificateNumber: MEMBERSHIP_MESSAGES.noPlan });
      const reference = row.payment_intent ?? row.invoice_id ?? row.id;
      if (await this.recordedPayment(trx, [reference], { invoice: row.invoice_id, paymentIntent: row.payment_intent }))
        throw DomainError.conflict(MEMBERSHIP_MESSAGES.referenceTaken);
      const staff: MembershipActor = { id: actor.id };
      await this.deps.coverage.recordPaymentIn(trx, staff, memberId, {
        amount: Number(row.amount_cents),
        paidOn: this.dayOf(Number(row.created)),
        method: ONLINE_METHOD,
        reference,
      });
      const payment = await trx
        .selectFrom("membership_payments")
        .select("id")
        .where("reference", "=", reference)
        .where("refund_of", "is", null)
        .executeTakeFirstOrThrow();
      const now = nowIso();
      const label = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
      // A subscription's checkout: its renewals follow the member from now on.
      if (row.subscription_id) {
        await this.ensureOnlineRow(trx, memberId);
        await this.linkSubscription(trx, memberId, row.subscription_id, row.customer_id, Number(row.created));
      }
      await trx
        .updateTable("stripe_events")
        .set({
          state: "applied",
          waits_for: null,
          member_id: memberId,
          payment_id: Number(payment.id),
          applied_at: now,
          handled_by: actor.id,
          handled_by_label: label?.username ?? null,
          handled_at: now,
          handled_note: O.assignedNote,
        })
        .where("id", "=", eventId)
        .execute();
      await this.deps.audit.record(
        {
          actorId: actor.id,
          action: "membership.online_assign",
          target: { type: "member", id: memberId, label: member.certificate_number },
          details: { event: eventId, type: row.type, amountCents: Number(row.amount_cents), reference, reason: row.reason },
        },
        trx,
      );
      return { memberId, paymentId: Number(payment.id), wakes: [row.payment_intent, row.invoice_id, row.subscription_id, row.charge_id] };
    });
    if (this.deps.onPaymentRecorded)
      await this.deps
        .onPaymentRecorded(outcome.memberId, outcome.paymentId)
        .catch((err) => this.deps.logger.error({ err, eventId }, "the receipt of an online payment was not queued"));
    await this.wake(outcome.wakes.filter((k): k is string => !!k));
  }

  /** super_admin: settles an unmatched (or waiting) event without recording anything (refunded by hand, not ours...). */
  async markHandled(actor: { id: number }, eventId: string, note: string): Promise<void> {
    const { db, dialect } = this.deps;
    await db.transaction().execute(async (trx) => {
      let query = trx.selectFrom("stripe_events").select(["state", "type", "amount_cents", "currency", "reason"]).where("id", "=", eventId);
      if (dialect === "postgres") query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) throw DomainError.notFound(O.eventNotFound);
      if (row.state !== "unmatched" && row.state !== "pending") throw DomainError.conflict(O.notOpen);
      const label = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
      await trx
        .updateTable("stripe_events")
        .set({
          state: "handled",
          waits_for: null,
          handled_by: actor.id,
          handled_by_label: label?.username ?? null,
          handled_at: nowIso(),
          handled_note: note,
        })
        .where("id", "=", eventId)
        .execute();
      await this.deps.audit.record(
        {
          actorId: actor.id,
          action: "membership.online_handled",
          details: { event: eventId, type: row.type, amountCents: row.amount_cents, currency: row.currency, reason: row.reason, note },
        },
        trx,
      );
    });
  }

  private async ensureOnlineRow(trx: Db, memberId: number) {
    const now = nowIso();
    await trx
      .insertInto("membership_online")
      .values({ user_id: memberId, payment_reference: newPaymentReference(), created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
  }
}

/** An event as the provider sends it: an object with an id and a type (what the site reads of it is checked where it is read). */
function isEvent(body: unknown): body is Stripe.Event {
  if (!body || typeof body !== "object" || Array.isArray(body)) return false;
  const { id, type } = body as { id?: unknown; type?: unknown };
  return typeof id === "string" && id !== "" && typeof type === "string" && type !== "";
}

const isPayment = (type: string) =>
  type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded" || type === "invoice.paid";

function idsOf(e: OnlineEvent): Partial<Outcome> {
  switch (e.kind) {
    case "checkout":
      return {
        paymentIntent: e.paymentIntent,
        invoiceId: e.invoice,
        subscriptionId: e.subscription,
        customerId: e.customer,
        clientReference: e.clientReference,
        amountCents: e.amountCents,
        currency: e.currency,
      };
    case "invoice-paid":
      return {
        paymentIntent: e.paymentIntent,
        chargeId: e.charge,
        invoiceId: e.invoice,
        subscriptionId: e.subscription,
        customerId: e.customer,
        amountCents: e.amountCents,
        currency: e.currency,
      };
    case "invoice-failed":
      return { invoiceId: e.invoice, subscriptionId: e.subscription, customerId: e.customer };
    case "refund":
      return { paymentIntent: e.paymentIntent, chargeId: e.charge, amountCents: e.amountRefundedCents, currency: e.currency };
    case "subscription":
      return { subscriptionId: e.subscription, customerId: e.customer };
    default:
      return {};
  }
}
