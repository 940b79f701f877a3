/**
 * The membership's one rule (spec: "Insurance is effective on the 1st of the month after
 * approval and receipt of the first month's payment"), as pure functions of a member's record
 * and today's date. Every date the site shows about a membership (effective, paid through,
 * next payment due, status) is computed here, never stored, so none can go stale.
 *
 * Days are calendar dates written YYYY-MM-DD; money is in whole cents.
 */
import { MONTH_NAMES, addDays, dayParts, daysInMonth, isoDate } from "~/platform/dates";

export { addDays };

export const BILLINGS = ["monthly", "annual"] as const;
export type Billing = (typeof BILLINGS)[number];

/** The price of one period of each plan, in cents ($19.95 a month, $99.00 a year). */
export const PLAN_PRICE_CENTS: Record<Billing, number> = { monthly: 1995, annual: 9900 };
const PERIOD_MONTHS: Record<Billing, number> = { monthly: 1, annual: 12 };

/** Days after the paid-through date during which a member is past due rather than lapsed. */
export const GRACE_DAYS = 30;

/**
 * How far ahead coverage may be paid for: a payment that would carry the paid-through day past
 * this many years from today is refused (issue 39: the payments' total is not capped, and 21
 * of $100,000 ran the dates past the year 9999).
 */
export const MAX_PREPAID_YEARS = 10;

/** The latest paid-through day a payment may reach on `today`: the same day MAX_PREPAID_YEARS later (month-end rule). */
export function latestPaidThrough(today: string): string {
  return addMonthsKeepingMonthEnd(today, MAX_PREPAID_YEARS * 12);
}

/** The association's time zone when none is configured: "today" is its calendar day. */
export const DEFAULT_TIME_ZONE = "America/New_York";

/** A payment (amount above zero) or a refund (below zero), on the day it was received or paid back. */
export interface LedgerEntry {
  on: string;
  amountCents: number;
  /**
   * The day that says which term the entry belongs to, when not `on`: a refund (or money
   * carried out at a reinstatement) counts in the term of the payment it comes out of, so it
   * names that payment's day.
   */
  termOn?: string;
}

/** A cancellation by staff, or a reinstatement that starts a new term. */
export type TermEvent = { kind: "cancelled"; on: string; reason: string } | { kind: "reinstated"; on: string };

export interface MembershipRecord {
  /** null: no plan on record (e.g. a member imported without one). */
  billing: Billing | null;
  /** The day the application was approved (or the plan given); null with no plan. */
  approvedOn: string | null;
  /**
   * Paid through on the association's old records, for members moving in by import: their
   * coverage is already in force, and payments recorded here extend it from that day.
   */
  carriedPaidThrough?: string | null;
  payments: readonly LedgerEntry[];
  events?: readonly TermEvent[];
}

export type CoverageState =
  | { kind: "no-plan" }
  | { kind: "awaiting-first-payment" }
  | { kind: "starts"; on: string }
  | { kind: "covered" }
  | { kind: "past-due" }
  | { kind: "lapsed" }
  | { kind: "cancelled"; on: string; reason: string };

export type CoverageStatusName =
  "No plan on record" | "Awaiting first payment" | "Starts" | "Covered" | "Past due" | "Lapsed" | "Cancelled";

export interface Coverage {
  state: CoverageState;
  /** What the member and staff read: "Covered", "Starts March 1, 2028", ... */
  label: string;
  /** The status without its date, for filters and counts. */
  status: CoverageStatusName;
  billing: Billing | null;
  priceCents: number | null;
  /** The 1st of the month coverage began (this term); null before the first payment, and for carried-over coverage. */
  effectiveOn: string | null;
  /** The last day paid for; null before the first payment. */
  paidThrough: string | null;
  /**
   * The last day of the grace after paidThrough; for a term whose whole period was paid and
   * then refunded below it (no paidThrough), the grace after the day its payment is due.
   */
  graceEndsOn: string | null;
  /** Paid beyond whole periods (this term), kept toward the next one. */
  creditCents: number;
  /** Net paid this term (payments less refunds). */
  paidCents: number;
  /** The next payment and its amount; null with no plan or when cancelled. */
  nextDue: { on: string; amountCents: number } | null;
  /** The day the current term began by a reinstatement; null in the first term. */
  reinstatedOn: string | null;
  /** The terms before the current one, oldest first, as they stood when they ended: what past months count. */
  earlierTerms: TermSpan[];
}

/** A term that ended by a cancellation: when it covered. */
export interface TermSpan {
  effectiveOn: string | null;
  paidThrough: string | null;
  graceEndsOn: string | null;
  cancelledOn: string;
}

// --- calendar arithmetic on YYYY-MM-DD (platform/dates.ts: a day past the year 9999 is refused, never garbage) ---

const parts = dayParts;

/** The 1st of the month after the month of `day`. */
export function firstOfNextMonth(day: string): string {
  const [y, m] = parts(day);
  return m === 12 ? isoDate(y + 1, 1, 1) : isoDate(y, m + 1, 1);
}

/**
 * `day` moved `months` months on, by the month-end rule: the last day of a month stays the
 * last day (January 31 -> February 28 or 29 -> March 31), any other day keeps its number and
 * is held to the end of a shorter month (January 30 -> February 28).
 */
export function addMonthsKeepingMonthEnd(day: string, months: number): string {
  const [y, m, d] = parts(day);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = daysInMonth(year, month);
  const wasLast = d === daysInMonth(y, m);
  return isoDate(year, month, wasLast ? last : Math.min(d, last));
}

/** "March 1, 2028". */
export function formatLongDay(day: string): string {
  const [y, m, d] = parts(day);
  return `${MONTH_NAMES[m - 1]} ${d}, ${y}`;
}

/** Today's calendar day in `timeZone` (the association's), YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const fields = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(now);
  const get = (type: string) => fields.find((f) => f.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

// --- the rule ---

interface Term {
  startsOn: string;
  first: boolean;
  cancelled: { on: string; reason: string } | null;
  /** The next term's first day: this term owns the entries before it. */
  endsBefore: string | null;
}

/** The terms, oldest first: the one begun by approval, then one for each reinstatement of a cancelled term. */
function termsOf(approvedOn: string, events: readonly TermEvent[]): Term[] {
  const ordered = [...events].sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
  const terms: Term[] = [{ startsOn: approvedOn, first: true, cancelled: null, endsBefore: null }];
  for (const event of ordered) {
    const term = terms[terms.length - 1];
    if (event.kind === "cancelled") {
      if (!term.cancelled) term.cancelled = { on: event.on, reason: event.reason };
    } else if (term.cancelled && event.on >= term.cancelled.on) {
      term.endsBefore = event.on;
      terms.push({ startsOn: event.on, first: false, cancelled: null, endsBefore: null });
    }
  }
  return terms;
}

/**
 * The entries of a term: a reinstated term owns what was received from its first day on; the
 * first term also owns what was paid before approval (a first payment sent with the
 * application). A refund belongs to the term of the payment it pays back. A reinstatement
 * therefore starts from nothing, unless money left from the earlier term is carried into it
 * (an entry on the reinstatement's day): what was paid in an earlier term stays with it.
 */
function termEntries(term: Term, payments: readonly LedgerEntry[]): LedgerEntry[] {
  return payments
    .filter((p) => {
      const day = p.termOn ?? p.on;
      return (term.first || day >= term.startsOn) && (term.endsBefore === null || day < term.endsBefore);
    })
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
}

/** The day the running total of `entries` first reached `price`, or null. */
function firstPaymentReceived(entries: readonly LedgerEntry[], price: number): string | null {
  let total = 0;
  for (const entry of entries) {
    total += entry.amountCents;
    if (total >= price) return entry.on;
  }
  return null;
}

function labelOf(state: CoverageState): { label: string; status: CoverageStatusName } {
  switch (state.kind) {
    case "no-plan":
      return { label: "No plan on record", status: "No plan on record" };
    case "awaiting-first-payment":
      return { label: "Awaiting first payment", status: "Awaiting first payment" };
    case "starts":
      return { label: `Starts ${formatLongDay(state.on)}`, status: "Starts" };
    case "covered":
      return { label: "Covered", status: "Covered" };
    case "past-due":
      return { label: "Past due", status: "Past due" };
    case "lapsed":
      return { label: "Lapsed", status: "Lapsed" };
    case "cancelled":
      return { label: "Cancelled", status: "Cancelled" };
  }
}

interface TermDates {
  /** The term's payments once paid a whole period (the running total reached the price) and some of it is still paid: refunds took it below a period, not to nothing. */
  everPaid: boolean;
  paidCents: number;
  periods: number;
  creditCents: number;
  effectiveOn: string | null;
  paidThrough: string | null;
  graceEndsOn: string | null;
}

/** A term's dates from its own entries, by the rule (spec: the 1st of the month after approval and the first month's payment). */
function termDates(billing: Billing, term: Term, entries: readonly LedgerEntry[], carriedPaidThrough: string | null): TermDates {
  const price = PLAN_PRICE_CENTS[billing];
  const paidCents = Math.max(
    0,
    entries.reduce((sum, e) => sum + e.amountCents, 0),
  );
  const periods = Math.floor(paidCents / price);
  const creditCents = paidCents - periods * price;
  let effectiveOn: string | null = null;
  let paidThrough: string | null = null;
  const carried = term.first ? carriedPaidThrough : null;
  const received = firstPaymentReceived(entries, price);
  if (carried) {
    paidThrough = addMonthsKeepingMonthEnd(carried, periods * PERIOD_MONTHS[billing]);
  } else if (periods > 0) {
    effectiveOn = firstOfNextMonth(term.startsOn > received! ? term.startsOn : received!);
    paidThrough = addMonthsKeepingMonthEnd(addDays(effectiveOn, -1), periods * PERIOD_MONTHS[billing]);
  }
  const graceEndsOn = paidThrough ? addDays(paidThrough, GRACE_DAYS) : null;
  return { everPaid: received !== null && paidCents > 0, paidCents, periods, creditCents, effectiveOn, paidThrough, graceEndsOn };
}

/** A member's coverage on `today` (the association's calendar day). */
export function coverageOn(record: MembershipRecord, today: string): Coverage {
  const none = {
    effectiveOn: null,
    paidThrough: null,
    graceEndsOn: null,
    creditCents: 0,
    paidCents: 0,
    nextDue: null,
    reinstatedOn: null,
    earlierTerms: [],
  };
  if (!record.billing || (!record.approvedOn && !record.carriedPaidThrough)) {
    const state: CoverageState = { kind: "no-plan" };
    return { state, ...labelOf(state), billing: record.billing, priceCents: null, ...none };
  }
  const billing = record.billing;
  const price = PLAN_PRICE_CENTS[billing];
  const carried = record.carriedPaidThrough ?? null;
  const terms = termsOf(record.approvedOn ?? carried!, record.events ?? []);
  const term = terms[terms.length - 1];
  const { everPaid, effectiveOn, paidThrough, creditCents, paidCents, ...dates } = termDates(
    billing,
    term,
    termEntries(term, record.payments),
    carried,
  );
  const earlierTerms = terms.slice(0, -1).map((t): TermSpan => {
    const dates = termDates(billing, t, termEntries(t, record.payments), carried);
    return { effectiveOn: dates.effectiveOn, paidThrough: dates.paidThrough, graceEndsOn: dates.graceEndsOn, cancelledOn: t.cancelled!.on };
  });

  // Nothing paid through: the payment is due from the term's first day. A term that once paid
  // a whole period and was refunded below it (not to nothing: a whole refund starts it over) is
  // not awaiting a first payment (issue 48): its payment is due, past due within the grace
  // after that day, lapsed after it.
  const dueOn = paidThrough ? addDays(paidThrough, 1) : term.startsOn;
  const graceEndsOn = paidThrough ? dates.graceEndsOn : everPaid ? addDays(dueOn, GRACE_DAYS - 1) : null;
  let state: CoverageState;
  if (term.cancelled && term.cancelled.on <= today) state = { kind: "cancelled", ...term.cancelled };
  else if (!paidThrough && !everPaid) state = { kind: "awaiting-first-payment" };
  else if (paidThrough && effectiveOn && today < effectiveOn) state = { kind: "starts", on: effectiveOn };
  else if (paidThrough && today <= paidThrough) state = { kind: "covered" };
  else if (today <= graceEndsOn!) state = { kind: "past-due" };
  else state = { kind: "lapsed" };

  const nextDue = state.kind === "cancelled" ? null : { on: dueOn, amountCents: price - creditCents };
  return {
    state,
    ...labelOf(state),
    billing,
    priceCents: price,
    effectiveOn,
    paidThrough,
    graceEndsOn,
    creditCents,
    paidCents,
    nextDue,
    reinstatedOn: term.first ? null : term.startsOn,
    earlierTerms,
  };
}

/** What a cancelled term's money comes to on the day it is reinstated. */
export interface LeftAtReinstatement {
  /** The day the term was cancelled. */
  cancelledOn: string;
  /** Net paid in the term (payments less refunds). */
  paidCents: number;
  /** Periods of coverage that began before the cancellation: used, whatever day in them it came. */
  usedPeriods: number;
  usedCents: number;
  /** The rest: what can be carried into the new term, or paid back. */
  leftCents: number;
}

/**
 * The money of the cancelled term a reinstatement on `reinstatedOn` ends: what it paid for
 * coverage that began before the cancellation is used; the rest (periods that would have
 * begun after it, and any credit) is left, to carry into the new term or to refund. Null when
 * the membership is not cancelled on that day.
 */
export function leftAtReinstatement(record: MembershipRecord, reinstatedOn: string): LeftAtReinstatement | null {
  if (!record.billing || (!record.approvedOn && !record.carriedPaidThrough)) return null;
  const billing = record.billing;
  const carried = record.carriedPaidThrough ?? null;
  const terms = termsOf(record.approvedOn ?? carried!, record.events ?? []);
  const term = terms[terms.length - 1];
  if (!term.cancelled || reinstatedOn < term.cancelled.on) return null;
  const ending = { ...term, endsBefore: reinstatedOn };
  const dates = termDates(billing, ending, termEntries(ending, record.payments), carried);
  const months = PERIOD_MONTHS[billing];
  let usedPeriods = 0;
  for (let i = 0; i < dates.periods; i++) {
    const begins = dates.effectiveOn
      ? addMonthsKeepingMonthEnd(dates.effectiveOn, i * months)
      : addDays(addMonthsKeepingMonthEnd(carried!, i * months), 1);
    if (begins >= term.cancelled.on) break;
    usedPeriods++;
  }
  const usedCents = usedPeriods * PLAN_PRICE_CENTS[billing];
  return {
    cancelledOn: term.cancelled.on,
    paidCents: dates.paidCents,
    usedPeriods,
    usedCents,
    leftCents: Math.max(0, dates.paidCents - usedCents),
  };
}

/** "$19.95" from cents. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString("en-US")}.${String(abs % 100).padStart(2, "0")}`;
}
