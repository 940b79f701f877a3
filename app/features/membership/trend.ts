import { MONTH_NAMES, dayParts, daysInMonth, isoDate } from "~/platform/dates";
import { addDays, type Coverage } from "./coverage";
import type { CoverageCounts } from "./statuses";

/** One month of the staff dashboard's chart. */
export interface MonthFigures {
  /** YYYY-MM */
  month: string;
  /** "Nov 2026": the chart's axis. */
  short: string;
  /** "November 2026": the table's row. */
  long: string;
  /** Members covered on the month's last day (today, for this month). */
  covered: number;
  /** Members whose coverage took effect in the month. */
  new: number;
  /** Members whose 30-day grace ran out in the month, unpaid since. */
  lapsed: number;
}

/** What the staff dashboard shows of the membership. */
export interface MembershipFigures {
  /** The association's calendar day the figures are for. */
  today: string;
  counts: CoverageCounts;
  months: MonthFigures[];
}

export const TREND_MONTHS = 12;

/**
 * Covered, new and lapsed members in each of the last `months` months (this one last), from
 * each member's coverage as computed today (coverage.ts): one rule for the list, the counts
 * and the chart. A member's history is every term's: a term that ended by a cancellation
 * keeps counting in the months it covered when the membership is reinstated later, and a
 * reinstated term's coverage is new in the month it takes effect. A lapse later made good by
 * a payment (the paid-through day moves on) is no lapse.
 */
export function monthlyTrend(coverages: Iterable<Coverage>, today: string, months = TREND_MONTHS): MonthFigures[] {
  const [year, month] = dayParts(today);
  const out: MonthFigures[] = [];
  const index = new Map<string, number>();
  for (let k = months - 1; k >= 0; k--) {
    const n = year * 12 + (month - 1) - k;
    const y = Math.floor(n / 12);
    const m = (n % 12) + 1;
    const key = isoDate(y, m, 1).slice(0, 7);
    index.set(key, out.length);
    out.push({
      month: key,
      short: `${MONTH_NAMES[m - 1].slice(0, 3)} ${y}`,
      long: `${MONTH_NAMES[m - 1]} ${y}`,
      covered: 0,
      new: 0,
      lapsed: 0,
    });
  }
  const ends = out.map((f) => {
    const [y, m] = dayParts(`${f.month}-01`);
    const last = isoDate(y, m, daysInMonth(y, m));
    return last < today ? last : today;
  });

  const count = (effectiveOn: string | null, paidThrough: string, graceEndsOn: string, cancelledOn: string | null) => {
    if (effectiveOn && effectiveOn <= today) {
      const i = index.get(effectiveOn.slice(0, 7));
      if (i !== undefined) out[i].new++;
    }
    const lapsedOn = addDays(graceEndsOn, 1);
    if (lapsedOn <= today && !(cancelledOn && cancelledOn <= lapsedOn)) {
      const i = index.get(lapsedOn.slice(0, 7));
      if (i !== undefined) out[i].lapsed++;
    }
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i];
      if ((effectiveOn === null || effectiveOn <= end) && end <= paidThrough && !(cancelledOn && cancelledOn <= end)) out[i].covered++;
    }
  };
  for (const c of coverages) {
    for (const term of c.earlierTerms) if (term.paidThrough) count(term.effectiveOn, term.paidThrough, term.graceEndsOn!, term.cancelledOn);
    if (c.paidThrough) count(c.effectiveOn, c.paidThrough, c.graceEndsOn!, c.state.kind === "cancelled" ? c.state.on : null);
  }
  return out;
}
