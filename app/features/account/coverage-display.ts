/**
 * What My account says about a member's coverage (issue 31): the sentence under the status,
 * the tone of its badge, and the payment history as the member reads it. Pure, from the
 * membership answer; the dates and amounts themselves come from coverage.ts.
 */
import { formatCents, formatLongDay, type Coverage } from "~/features/membership/coverage";
import type { PaymentMethod, PaymentView, PlanView } from "~/features/membership/contract";

export type StatusTone = "good" | "info" | "warning" | "bad" | "none";

export function statusTone(coverage: Coverage): StatusTone {
  switch (coverage.state.kind) {
    case "covered":
      return "good";
    case "starts":
      return "info";
    case "awaiting-first-payment":
    case "past-due":
      return "warning";
    case "lapsed":
    case "cancelled":
      return "bad";
    case "no-plan":
      return "none";
  }
}

/** One sentence on where the member stands and what, if anything, to do. */
export function statusNote(coverage: Coverage): string {
  const state = coverage.state;
  const due = coverage.nextDue ? formatLongDay(coverage.nextDue.on) : null;
  switch (state.kind) {
    case "no-plan":
      return "We have no plan on record for your membership yet. Please contact us and we will set it up.";
    case "awaiting-first-payment":
      return coverage.reinstatedOn
        ? `Your membership was reinstated on ${formatLongDay(coverage.reinstatedOn)} as a new term. Payments made before then belong to the earlier term (see your payment history), so your coverage begins again on the 1st of the month after we receive this term's first payment.`
        : "Your coverage begins on the 1st of the month after we receive your first payment.";
    case "starts":
      return `We have your first payment. Your coverage begins on ${formatLongDay(state.on)}.`;
    case "covered":
      return `Your home protection plan is in force through ${formatLongDay(coverage.paidThrough!)}.`;
    case "past-due":
      return coverage.paidThrough
        ? `The payment due ${due} has not reached us. Pay by ${formatLongDay(coverage.graceEndsOn!)} to keep your membership from lapsing.`
        : `${refundedBelow(coverage)} Pay ${formatCents(coverage.nextDue!.amountCents)} by ${formatLongDay(coverage.graceEndsOn!)} to keep your membership from lapsing.`;
    case "lapsed":
      return coverage.paidThrough
        ? `Your membership lapsed: the payment due ${due} did not reach us. Make a payment or contact us to bring it up to date.`
        : `Your membership lapsed. ${refundedBelow(coverage)} Make a payment or contact us to bring it up to date.`;
    case "cancelled":
      return `Your membership was cancelled on ${formatLongDay(state.on)}. Please contact us if you have questions.`;
  }
}

/** Why a member who paid has no coverage: a refund took what is paid below one period of dues. */
function refundedBelow(coverage: Coverage): string {
  const period = coverage.billing === "annual" ? "year" : "month";
  return `After a refund, what you have paid (${formatCents(coverage.paidCents)}) is less than one ${period} of dues, so your coverage is not in force.`;
}

/** The name of the next payment's day: past due once the day has gone by. */
export const nextDueTerm = (coverage: Pick<Coverage, "nextDue">, today: string) =>
  coverage.nextDue && coverage.nextDue.on < today ? "Payment past due since" : "Next payment due";

/**
 * Autopay's next charge beside the plan's next payment due, in one sentence (issue 48: "next
 * charge January 7" beside "Next payment due February 1" read as two payments): the card's
 * automatic charge is how the payment due is paid, ahead of its day.
 */
export function autopayChargeText(nextChargeOn: string, nextDue: Pick<NonNullable<Coverage["nextDue"]>, "on"> | null): string {
  const charge = formatLongDay(nextChargeOn);
  if (!nextDue) return `your card is charged automatically on ${charge}.`;
  return nextChargeOn <= nextDue.on
    ? `your card is charged automatically on ${charge} for the payment due ${formatLongDay(nextDue.on)}: nothing to do.`
    : `your card is charged automatically on ${charge} for the payment due ${formatLongDay(nextDue.on)}, so your membership reads past due until then.`;
}

/** Coverage effective, as the member reads it when there is no date yet. */
export function effectiveText(coverage: Coverage, plan: PlanView | null): string {
  if (coverage.effectiveOn) return formatLongDay(coverage.effectiveOn);
  if (plan?.carriedPaidThrough) return "In force from your earlier records";
  return "After your first payment";
}

export const paidThroughText = (coverage: Coverage) => (coverage.paidThrough ? formatLongDay(coverage.paidThrough) : "Not yet paid");

export const coverageAmountText = (plan: PlanView | null) =>
  plan?.coverageCents != null ? formatCents(plan.coverageCents) : "Not on record";

const PAID_BY: Record<PaymentMethod, string> = {
  card: "Payment by card",
  ach: "Payment by ACH",
  check: "Payment by check",
  other: "Payment",
  online: "Payment online by card",
};

export interface PaymentRow {
  id: number;
  on: string;
  /** "Payment", "Refund", money carried from one term into the next */
  kind: "payment" | "refund" | "carried";
  /** "Payment by card · Ref. PP-1001", "Refund of the payment of March 3, 2026" */
  details: string;
  /** "$19.95", "-$19.95" */
  amount: string;
  /** What came out of a payment since: "refunded", "$19.95 of $239.40 refunded", "$139.65 carried into the new term". */
  note: string | null;
}

/** What came out of a payment: refunded (whole or in part), carried into a later term. */
function takenFrom(p: PaymentView): string | null {
  const parts: string[] = [];
  if (p.refundedCents > 0)
    parts.push(p.refundedCents >= p.amountCents ? "refunded" : `${formatCents(p.refundedCents)} of ${formatCents(p.amountCents)} refunded`);
  if (p.carriedOutCents > 0) parts.push(`${formatCents(p.carriedOutCents)} carried into the new term`);
  return parts.length ? parts.join("; ") : null;
}

/** The ledger newest first; a refund is shown as one, naming the payment it pays back. */
export function paymentRows(payments: readonly PaymentView[]): PaymentRow[] {
  const byId = new Map(payments.map((p) => [p.id, p]));
  return [...payments]
    .sort((a, b) => (a.paidOn === b.paidOn ? b.id - a.id : a.paidOn < b.paidOn ? 1 : -1))
    .map((p): PaymentRow => {
      const from = p.refundOf !== null ? byId.get(p.refundOf) : undefined;
      const payment = from ? `the payment of ${formatLongDay(from.paidOn)}` : null;
      const base = { id: p.id, on: formatLongDay(p.paidOn), amount: formatCents(p.amountCents) };
      if (p.carriedWith !== null)
        return p.refundOf !== null
          ? { ...base, kind: "carried", details: `Carried into the new term${payment ? ` from ${payment}` : ""}`, note: null }
          : { ...base, kind: "carried", details: "Carried from the earlier term", note: takenFrom(p) };
      if (p.refundOf !== null) return { ...base, kind: "refund", details: payment ? `Refund of ${payment}` : "Refund", note: null };
      const how = [PAID_BY[p.method], p.reference && `Ref. ${p.reference}`].filter(Boolean).join(" · ");
      return { ...base, kind: "payment", details: how, note: takenFrom(p) };
    });
}
