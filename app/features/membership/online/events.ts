/**
 * What the site reads of the payment provider's signed events (issue 40), pure: each event
 * type it acts on, turned into the few facts that matter, from the object as Stripe's API
 * reference shows it. Older and newer API versions name some ids in different places (an
 * invoice's subscription moved under `parent.subscription_details`, its payment intent under
 * `payments`): both are read. Anything else is "other": acknowledged and ignored.
 */

export type OnlineEvent =
  | {
      kind: "checkout";
      sessionId: string;
      mode: "payment" | "subscription" | "setup";
      /** paid, unpaid (an asynchronous method still settling) or no_payment_required. */
      paymentStatus: string;
      clientReference: string | null;
      amountCents: number | null;
      currency: string | null;
      paymentIntent: string | null;
      invoice: string | null;
      subscription: string | null;
      customer: string | null;
    }
  | {
      kind: "invoice-paid";
      invoice: string;
      subscription: string | null;
      customer: string | null;
      amountCents: number;
      currency: string | null;
      paymentIntent: string | null;
      charge: string | null;
      billingReason: string | null;
      /** Unix seconds: the end of the period the invoice pays (the next charge's time). */
      periodEnd: number | null;
    }
  | {
      kind: "invoice-failed";
      invoice: string;
      subscription: string | null;
      customer: string | null;
      reason: string;
      nextAttempt: number | null;
    }
  | {
      kind: "refund";
      charge: string;
      paymentIntent: string | null;
      /** Everything refunded of the charge so far (the provider's running total); null when the event has none. */
      amountRefundedCents: number | null;
      currency: string | null;
    }
  | {
      kind: "subscription";
      subscription: string;
      customer: string | null;
      deleted: boolean;
      status: string;
      cancelAtPeriodEnd: boolean;
      /** Unix seconds. */
      currentPeriodEnd: number | null;
      interval: string | null;
    }
  | { kind: "other" };

export const HANDLED_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "invoice.paid",
  "invoice.payment_failed",
  "charge.refunded",
  "customer.subscription.updated",
  "customer.subscription.deleted",
] as const;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
/** An id, whether the field holds it or the expanded object. */
const idOf = (v: unknown): string | null =>
  typeof v === "string" && v ? v : typeof obj(v)?.id === "string" ? (obj(v)!.id as string) : null;
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) ? v : null);
const firstOf = (list: unknown): Obj | null => {
  const data = obj(list)?.data;
  return Array.isArray(data) ? obj(data[0]) : null;
};

/** The event's facts, from its type and `data.object`. */
export function readEvent(type: string, object: unknown): OnlineEvent {
  const o = obj(object);
  if (!o) return { kind: "other" };
  switch (type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const mode = o.mode === "subscription" || o.mode === "setup" ? o.mode : "payment";
      return {
        kind: "checkout",
        sessionId: str(o.id) ?? "",
        mode,
        paymentStatus: type === "checkout.session.async_payment_succeeded" ? "paid" : (str(o.payment_status) ?? "unpaid"),
        clientReference: str(o.client_reference_id),
        amountCents: int(o.amount_total),
        currency: str(o.currency),
        paymentIntent: idOf(o.payment_intent),
        invoice: idOf(o.invoice),
        subscription: idOf(o.subscription),
        customer: idOf(o.customer),
      };
    }
    case "invoice.paid": {
      const payment = obj(firstOf(o.payments)?.payment);
      const line = firstOf(o.lines);
      return {
        kind: "invoice-paid",
        invoice: str(o.id) ?? "",
        subscription: subscriptionOfInvoice(o),
        customer: idOf(o.customer),
        amountCents: int(o.amount_paid) ?? 0,
        currency: str(o.currency),
        paymentIntent: idOf(o.payment_intent) ?? idOf(payment?.payment_intent),
        charge: idOf(o.charge) ?? idOf(payment?.charge),
        billingReason: str(o.billing_reason),
        periodEnd: int(obj(line?.period)?.end),
      };
    }
    case "invoice.payment_failed": {
      const error = obj(o.last_finalization_error) ?? obj(obj(o.payment_intent)?.last_payment_error);
      return {
        kind: "invoice-failed",
        invoice: str(o.id) ?? "",
        subscription: subscriptionOfInvoice(o),
        customer: idOf(o.customer),
        reason: oneLine(str(error?.message)) ?? FAILED_WITHOUT_REASON,
        nextAttempt: int(o.next_payment_attempt),
      };
    }
    case "charge.refunded":
      return {
        kind: "refund",
        charge: str(o.id) ?? "",
        paymentIntent: idOf(o.payment_intent),
        amountRefundedCents: int(o.amount_refunded),
        currency: str(o.currency),
      };
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const item = firstOf(o.items);
      return {
        kind: "subscription",
        subscription: str(o.id) ?? "",
        customer: idOf(o.customer),
        deleted: type === "customer.subscription.deleted",
        status: str(o.status) ?? "",
        cancelAtPeriodEnd: o.cancel_at_period_end === true,
        currentPeriodEnd: int(item?.current_period_end) ?? int(o.current_period_end),
        interval: str(obj(obj(item?.price)?.recurring)?.interval) ?? str(obj(item?.plan)?.interval),
      };
    }
    default:
      return { kind: "other" };
  }
}

/** When the failed invoice says no more than that it failed. */
export const FAILED_WITHOUT_REASON = "The card was declined";

function subscriptionOfInvoice(o: Obj): string | null {
  return idOf(o.subscription) ?? idOf(obj(obj(o.parent)?.subscription_details)?.subscription);
}

function oneLine(text: string | null): string | null {
  const line = text
    ?.replace(/[\p{Cc}\s]+/gu, " ")
    .trim()
    .slice(0, 300);
  return line ? line : null;
}
