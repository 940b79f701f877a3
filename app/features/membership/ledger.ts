/**
 * A member's ledger as the rule reads it, shared by the server and staff's dialog: the record
 * coverage.ts computes from, what is left of a payment to refund, which payments the money left
 * at a reinstatement comes out of, and what a reinstatement would give either way. Pure.
 */
import { dayParts, daysInMonth, isoDate } from "~/platform/dates";
import {
  coverageOn,
  formatCents,
  formatLongDay,
  latestPaidThrough,
  leftAtReinstatement,
  type Coverage,
  type LeftAtReinstatement,
  type MembershipRecord,
  type TermEvent,
} from "./coverage";
import type { EarlierPayments, MembershipView, PaymentView, PlanView, TermEventView } from "./contract";

/** The entries of a ledger as they are stored and shown (a refund names its payment). */
export type LedgerRow = Pick<PaymentView, "id" | "amountCents" | "paidOn" | "refundOf">;

/** The record of the rule from a member's plan, ledger and events; a refund counts in its payment's term. */
export function membershipRecord(
  plan: Pick<PlanView, "billing" | "approvedOn" | "carriedPaidThrough"> | null,
  payments: readonly LedgerRow[],
  events: readonly Pick<TermEventView, "kind" | "on" | "reason">[],
): MembershipRecord {
  const dayOf = new Map(payments.map((p) => [p.id, p.paidOn]));
  return {
    billing: plan?.billing ?? null,
    approvedOn: plan?.approvedOn ?? null,
    carriedPaidThrough: plan?.carriedPaidThrough ?? null,
    payments: payments.map((p) => {
      const termOn = p.refundOf === null ? undefined : dayOf.get(p.refundOf);
      return termOn === undefined ? { on: p.paidOn, amountCents: p.amountCents } : { on: p.paidOn, amountCents: p.amountCents, termOn };
    }),
    events: events.map((e): TermEvent =>
      e.kind === "cancelled" ? { kind: e.kind, on: e.on, reason: e.reason ?? "" } : { kind: e.kind, on: e.on },
    ),
  };
}

/** What is left of a payment to refund or carry: its amount less what came out of it (0 for a refund). */
export function leftOfPayment(payment: LedgerRow, payments: readonly LedgerRow[]): number {
  if (payment.refundOf !== null || payment.amountCents <= 0) return 0;
  const out = payments.reduce((sum, p) => (p.refundOf === payment.id ? sum - p.amountCents : sum), 0);
  return Math.max(0, payment.amountCents - out);
}

/**
 * Which payments `cents` left at a reinstatement on `reinstatedOn` comes out of: the ending
 * term's payments (received from `termStartsOn`, null in the first term, and before the
 * reinstatement), the latest first, each up to what is left of it.
 */
export function paymentsToDrawFrom(
  payments: readonly LedgerRow[],
  cents: number,
  termStartsOn: string | null,
  reinstatedOn: string,
): Array<{ paymentId: number; cents: number }> {
  const candidates = payments
    .filter(
      (p) => p.refundOf === null && p.amountCents > 0 && p.paidOn < reinstatedOn && (termStartsOn === null || p.paidOn >= termStartsOn),
    )
    .sort((a, b) => (a.paidOn === b.paidOn ? b.id - a.id : a.paidOn < b.paidOn ? 1 : -1));
  const out: Array<{ paymentId: number; cents: number }> = [];
  let rest = cents;
  for (const p of candidates) {
    if (rest <= 0) break;
    const take = Math.min(rest, leftOfPayment(p, payments));
    if (take > 0) out.push({ paymentId: p.id, cents: take });
    rest -= take;
  }
  return out;
}

export interface ReinstatementPreview {
  left: LeftAtReinstatement;
  /** The coverage on `today` either way: the money left carried into the new term, or refunded. */
  outcomes: Record<EarlierPayments, Coverage>;
}

/**
 * What a reinstatement on `reinstatedOn` would do, by the one rule: the money left from the
 * cancelled term, and the coverage with it carried or refunded. The same entries the server
 * writes (ledger rows on the reinstatement's day), so the dialog says what will happen.
 */
export function reinstatementPreview(
  view: Pick<MembershipView, "plan" | "payments" | "events" | "coverage">,
  reinstatedOn: string,
  today: string,
): ReinstatementPreview | null {
  const record = membershipRecord(view.plan, view.payments, view.events);
  const left = leftAtReinstatement(record, reinstatedOn);
  if (!left) return null;
  const draws = paymentsToDrawFrom(view.payments, left.leftCents, view.coverage.reinstatedOn, reinstatedOn);
  const dayOf = new Map(view.payments.map((p) => [p.id, p.paidOn]));
  const out = draws.map((d) => ({ on: reinstatedOn, amountCents: -d.cents, termOn: dayOf.get(d.paymentId)! }));
  const events: TermEvent[] = [...(record.events ?? []), { kind: "reinstated", on: reinstatedOn }];
  const moved = draws.reduce((sum, d) => sum + d.cents, 0);
  return {
    left,
    outcomes: {
      carry: coverageOn({ ...record, events, payments: [...record.payments, ...out, { on: reinstatedOn, amountCents: moved }] }, today),
      refund: coverageOn({ ...record, events, payments: [...record.payments, ...out] }, today),
    },
  };
}

/** A payment to add, as prepaidPastLimit weighs it. */
export interface AddedPayment {
  amountCents: number;
  paidOn: string;
}

/**
 * Whether `added` payments would pay coverage past the limit (coverage.ts: MAX_PREPAID_YEARS
 * from `today`): the paid-through day they would give, or null when it stays within the limit
 * or they do not move it on (a member already past it, from before the limit, may still be
 * paid into another term). `through` is null when the day is past what a date can hold.
 */
export function prepaidPastLimit(
  view: {
    plan: Pick<PlanView, "billing" | "approvedOn" | "carriedPaidThrough"> | null;
    payments: readonly LedgerRow[];
    events: readonly Pick<TermEventView, "kind" | "on" | "reason">[];
    coverage: Pick<Coverage, "paidThrough">;
  },
  added: readonly AddedPayment[],
  today: string,
): { through: string | null; latest: string } | null {
  const latest = latestPaidThrough(today);
  const rows: LedgerRow[] = [
    ...view.payments,
    ...added.map((a, i) => ({ id: -1 - i, amountCents: a.amountCents, paidOn: a.paidOn, refundOf: null })),
  ];
  let through: string | null;
  try {
    through = coverageOn(membershipRecord(view.plan, rows, view.events), today).paidThrough;
  } catch (err) {
    if (err instanceof RangeError) return { through: null, latest };
    throw err;
  }
  if (!through || through <= latest) return null;
  const before = view.coverage.paidThrough;
  return before && through <= before ? null : { through, latest };
}

/** A member's plan, ledger and events: what the rule reads. */
type RecordView = {
  plan: Pick<PlanView, "billing" | "approvedOn" | "carriedPaidThrough"> | null;
  payments: readonly LedgerRow[];
  events: readonly Pick<TermEventView, "kind" | "on" | "reason">[];
};

/** The coverage before and after a refund of `cents` of `payment` on `refundedOn`, on `today`, by the rule: what the confirmation states. */
export function refundOutcome(
  view: RecordView,
  payment: Pick<LedgerRow, "id">,
  cents: number,
  refundedOn: string,
  today: string,
): { before: Coverage; after: Coverage } {
  const refund: LedgerRow = { id: -1, amountCents: -cents, paidOn: refundedOn, refundOf: payment.id };
  return {
    before: coverageOn(membershipRecord(view.plan, view.payments, view.events), today),
    after: coverageOn(membershipRecord(view.plan, [...view.payments, refund], view.events), today),
  };
}

/**
 * Refund the unused months: the most of what is left of `payment` that can be refunded on
 * `today` while the member stays covered to the end of this month (or to the paid-through day,
 * when that comes first), by the rule. Coverage is bought in whole periods, so for an annual
 * plan this is the years not begun and any credit. Null when nothing can be refunded so, and
 * for a cancelled membership (its money is settled at a reinstatement).
 */
export function unusedMonthsRefund(view: RecordView, payment: LedgerRow, today: string): number | null {
  const left = leftOfPayment(payment, view.payments);
  const { before } = refundOutcome(view, payment, 0, today, today);
  if (left <= 0 || before.state.kind === "cancelled") return null;
  const [y, m] = dayParts(today);
  const monthEnd = isoDate(y, m, daysInMonth(y, m));
  const target = before.paidThrough === null ? null : before.paidThrough < monthEnd ? before.paidThrough : monthEnd;
  const keeps = (cents: number) => {
    if (target === null) return true;
    const { after } = refundOutcome(view, payment, cents, today, today);
    return after.paidThrough !== null && after.paidThrough >= target;
  };
  // More refunded never pays further: the largest amount that keeps it, by halves.
  let low = 0;
  let high = left;
  if (keeps(high)) low = high;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (keeps(mid)) low = mid;
    else high = mid;
  }
  return low > 0 ? low : null;
}

/**
 * What a refund does to the membership, as the confirmation states it (issue 48: a partial
 * refund ended a paid member's coverage without a word): "Bob will not be covered after this
 * refund: $59.00 is less than one year of dues."
 */
export function refundEffectText(name: string, before: Coverage, after: Coverage, today: string): string {
  const period = after.billing === "annual" ? "year" : "month";
  const day = (d: string) => formatLongDay(d);
  if (after.paidThrough === null && after.paidCents === 0)
    return before.paidThrough === null || before.paidThrough < today
      ? `${name} has no coverage in force, before or after this refund: nothing of it stays paid.`
      : `${name} will not be covered after this refund: nothing of it stays paid.`;
  if (after.paidThrough === null)
    return before.paidThrough === null || before.paidThrough < today
      ? `${name} has no coverage in force, before or after this refund: ${formatCents(after.paidCents)} is less than one ${period} of dues.`
      : `${name} will not be covered after this refund: ${formatCents(after.paidCents)} is less than one ${period} of dues.`;
  if (before.paidThrough !== null && after.paidThrough >= before.paidThrough)
    return `The refund does not change ${name}'s coverage: paid through ${day(after.paidThrough)}.`;
  if (after.paidThrough < today)
    return `${name} will not be covered after this refund: what is left pays only through ${day(after.paidThrough)}.`;
  return `${name} will be covered through ${day(after.paidThrough)} after this refund${before.paidThrough ? `, not ${day(before.paidThrough)}` : ""}.`;
}
