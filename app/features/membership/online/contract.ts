/**
 * Dues paid online (issue 40) on the wire.
 *   POST /api/payments/stripe/webhook  (the provider; raw body, Stripe-Signature)   -> { received: true }
 *   GET  /api/account/membership/online                     -> OnlineAccountAnswer (the member)
 *   GET  /api/account/membership/pay                        -> 302 to the member's plan link (else to /make-payment)
 *   GET  /api/admin/membership/unmatched-payments           -> UnmatchedPaymentsAnswer (staff)
 *   POST /api/admin/membership/unmatched-payments/:id/assign  AssignInput -> { success } (super_admin)
 *   POST /api/admin/membership/unmatched-payments/:id/handled HandledInput -> { success } (super_admin)
 */
import { z } from "~/platform/zod";
import { isOneLine } from "~/platform/text-fields";
import { formatCents, PLAN_PRICE_CENTS, type Billing } from "../coverage";

export type OnlineEventState = "applied" | "pending" | "unmatched" | "handled" | "ignored";

export const ONLINE_MESSAGES = {
  off: "Online payments are not set up on this site",
  noSignature: "Missing Stripe-Signature header",
  badSignature: "The Stripe-Signature does not verify: wrong, stale or for another endpoint",
  notAnEvent: "Not an event",
  notJson: "Not JSON: the signed body could not be read",
  ignoredType: "Not an event this site acts on",
  ignoredSetup: "A checkout that saved a card without a payment",
  notPaidYet: "Not paid yet: recorded when its payment succeeds",
  nothingPaid: "Nothing was paid",
  alreadyRecorded: "Already recorded",
  refundAlreadyRecorded: "Refund already recorded",
  refundReason: "Refunded through Stripe",
  noReference: "The payment names no member: it carries no payment reference",
  unknownReference: "No member has this payment reference",
  noSubscription: "The invoice names no subscription",
  memberGone: "The member of this subscription is no longer on record",
  waitingForCheckout: "Waiting for the checkout of its subscription",
  waitingForPayment: "Waiting for the payment it refunds",
  notUsd: (currency: string | null) => `Paid in ${(currency ?? "an unknown currency").toUpperCase()}, not USD`,
  refundNotUsd: (currency: string | null) =>
    `Refunded in ${(currency ?? "an unknown currency").toUpperCase()}, not USD: the payment's dollars are not taken off by it`,
  refundTotalInvalid: "The refund's running total (amount refunded) is missing or below zero: nothing can be recorded from it",
  notWholePeriods: (cents: number, billing: Billing) =>
    `${formatCents(cents)} is not a whole number of the ${billing} plan's periods (${formatCents(PLAN_PRICE_CENTS[billing])} each)`,
  endsOn: (day: string) => `Ends on ${day}`,
  eventNotFound: "No such payment event",
  notOpen: "This payment is no longer waiting for staff",
  notAssignable: "Only a payment in USD can be assigned to a member; mark this one handled",
  assignNotUsd: "A payment not in USD cannot be recorded; mark it handled",
  noSuchMember: "No member has this Membership ID",
  certificate: "Enter the member's Membership ID",
  note: "Say in at most 500 characters why it needs nothing recorded",
  assignedNote: "Assigned by staff",
  receivedSubject: "Payment received",
} as const;

export { ONLINE_TEXTS, PAY_PATH } from "./texts";

/** Autopay on a member's account. */
export interface AutopayView {
  state: "on" | "failing" | "off";
  billing: Billing | null;
  /** YYYY-MM-DD, as the subscription's events carry it. */
  nextChargeOn: string | null;
  /** Failing: why; on: what the member should know (it ends on a day). */
  reason: string | null;
}

/** GET /api/account/membership/online */
export interface OnlineAccountAnswer {
  success: true;
  enabled: boolean;
  autopay: AutopayView;
  /** Whether an online payment of the member was recorded in the last hour (the return from the payment page waits for it). */
  recordedRecently: boolean;
  customerPortalUrl: string | null;
}

export interface UnmatchedPaymentView {
  id: string;
  type: string;
  state: "unmatched" | "pending";
  reason: string | null;
  amountCents: number | null;
  currency: string | null;
  /** The provider's payment id (payment intent) or invoice. */
  paymentId: string | null;
  subscriptionId: string | null;
  occurredAt: string;
  receivedAt: string;
  member: { id: number; certificateNumber: string | null } | null;
  /** A USD payment: super_admin may record it for a member. */
  assignable: boolean;
}

export interface UnmatchedPaymentsAnswer {
  success: true;
  unmatched: number;
  pending: number;
  events: UnmatchedPaymentView[];
}

export const eventIdSchema = z.string().regex(/^evt_[A-Za-z0-9_]{1,100}$/, ONLINE_MESSAGES.eventNotFound);

export const assignSchema = z.object({
  certificateNumber: z
    .string(ONLINE_MESSAGES.certificate)
    .trim()
    .min(1, ONLINE_MESSAGES.certificate)
    .max(50, ONLINE_MESSAGES.certificate)
    .refine(isOneLine, ONLINE_MESSAGES.certificate),
});
export type AssignInput = z.output<typeof assignSchema>;

export const handledSchema = z.object({
  note: z
    .string(ONLINE_MESSAGES.note)
    .trim()
    .min(1, ONLINE_MESSAGES.note)
    .max(500, ONLINE_MESSAGES.note)
    .refine(isOneLine, ONLINE_MESSAGES.note),
});
export type HandledInput = z.output<typeof handledSchema>;
