import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonthsKeepingMonthEnd,
  coverageOn,
  firstOfNextMonth,
  formatCents,
  formatLongDay,
  latestPaidThrough,
  MAX_PREPAID_YEARS,
  leftAtReinstatement,
  todayIn,
  type LedgerEntry,
  type MembershipRecord,
  type TermEvent,
} from "./coverage";

const pay = (on: string, amountCents: number): LedgerEntry => ({ on, amountCents });
const monthly = (approvedOn: string, payments: LedgerEntry[] = [], events: TermEvent[] = []): MembershipRecord => ({
  billing: "monthly",
  approvedOn,
  payments,
  events,
});
const annual = (approvedOn: string, payments: LedgerEntry[] = [], events: TermEvent[] = []): MembershipRecord => ({
  billing: "annual",
  approvedOn,
  payments,
  events,
});
const carried = (paidThrough: string, payments: LedgerEntry[] = []): MembershipRecord => ({
  billing: "monthly",
  approvedOn: null,
  carriedPaidThrough: paidThrough,
  payments,
});
const cancel = (on: string, reason = "Requested by member"): TermEvent => ({ kind: "cancelled", on, reason });
const reinstate = (on: string): TermEvent => ({ kind: "reinstated", on });

interface Case {
  name: string;
  record: MembershipRecord;
  today: string;
  label: string;
  effectiveOn?: string | null;
  paidThrough?: string | null;
  creditCents?: number;
  nextDue?: { on: string; amountCents: number } | null;
}

// One row per rule and edge; a fixed "today" in each, so no row depends on the clock.
const cases: Case[] = [
  {
    name: "no plan on record",
    record: { billing: null, approvedOn: null, payments: [] },
    today: "2026-05-01",
    label: "No plan on record",
    nextDue: null,
  },
  {
    name: "approved, nothing paid",
    record: monthly("2026-01-15"),
    today: "2026-01-20",
    label: "Awaiting first payment",
    effectiveOn: null,
    paidThrough: null,
    nextDue: { on: "2026-01-15", amountCents: 1995 },
  },
  {
    name: "a partial first payment is credit, not coverage",
    record: monthly("2026-01-15", [pay("2026-01-16", 1000)]),
    today: "2026-01-20",
    label: "Awaiting first payment",
    creditCents: 1000,
    nextDue: { on: "2026-01-15", amountCents: 995 },
  },
  {
    name: "paid after approval: starts the 1st of the next month",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995)]),
    today: "2026-01-20",
    label: "Starts February 1, 2026",
    effectiveOn: "2026-02-01",
    paidThrough: "2026-02-28",
    nextDue: { on: "2026-03-01", amountCents: 1995 },
  },
  { name: "covered on the effective day", record: monthly("2026-01-15", [pay("2026-01-16", 1995)]), today: "2026-02-01", label: "Covered" },
  {
    name: "covered on the paid-through day",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995)]),
    today: "2026-02-28",
    label: "Covered",
  },
  {
    name: "past due the day after paid through",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995)]),
    today: "2026-03-01",
    label: "Past due",
  },
  {
    name: "past due on the grace's last day",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995)]),
    today: "2026-03-30",
    label: "Past due",
  },
  {
    name: "lapsed the day after the grace",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995)]),
    today: "2026-03-31",
    label: "Lapsed",
  },
  {
    name: "paid before approval: the later date (approval) counts",
    record: monthly("2026-01-20", [pay("2026-01-10", 1995)]),
    today: "2026-01-25",
    label: "Starts February 1, 2026",
    effectiveOn: "2026-02-01",
  },
  {
    name: "paid in an earlier month than the approval (December 20, approved January 20): starts February 1, not January 1",
    record: monthly("2026-01-20", [pay("2025-12-20", 1995)]),
    today: "2026-01-25",
    label: "Starts February 1, 2026",
    effectiveOn: "2026-02-01",
    paidThrough: "2026-02-28",
    nextDue: { on: "2026-03-01", amountCents: 1995 },
  },
  {
    name: "annual, paid in an earlier month than the approval: the year runs from the 1st after the approval",
    record: annual("2026-01-20", [pay("2025-12-20", 9900)]),
    today: "2026-02-01",
    label: "Covered",
    effectiveOn: "2026-02-01",
    paidThrough: "2027-01-31",
  },
  {
    name: "approved January 31, paid February 29 (leap year)",
    record: monthly("2028-01-31", [pay("2028-02-29", 1995)]),
    today: "2028-02-29",
    label: "Starts March 1, 2028",
    effectiveOn: "2028-03-01",
    paidThrough: "2028-03-31",
  },
  {
    name: "approved and paid December 31: January 1 of the next year",
    record: monthly("2027-12-31", [pay("2027-12-31", 1995)]),
    today: "2027-12-31",
    label: "Starts January 1, 2028",
    effectiveOn: "2028-01-01",
    paidThrough: "2028-01-31",
  },
  {
    name: "a payment received on the 1st starts coverage the next 1st",
    record: monthly("2027-12-15", [pay("2028-01-01", 1995)]),
    today: "2028-01-01",
    label: "Starts February 1, 2028",
    effectiveOn: "2028-02-01",
  },
  {
    name: "the first payment is received when the running total reaches the price",
    record: monthly("2026-01-05", [pay("2026-01-10", 1000), pay("2026-02-05", 995)]),
    today: "2026-02-10",
    label: "Starts March 1, 2026",
    effectiveOn: "2026-03-01",
    paidThrough: "2026-03-31",
  },
  {
    name: "three months paid",
    record: monthly("2026-01-15", [pay("2026-01-16", 5985)]),
    today: "2026-04-30",
    label: "Covered",
    paidThrough: "2026-04-30",
    nextDue: { on: "2026-05-01", amountCents: 1995 },
  },
  {
    name: "two months and a part: the part is credit toward the next",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995), pay("2026-02-16", 1995), pay("2026-03-16", 500)]),
    today: "2026-03-20",
    label: "Covered",
    paidThrough: "2026-03-31",
    creditCents: 500,
    nextDue: { on: "2026-04-01", amountCents: 1495 },
  },
  {
    name: "an overpayment of 5 cents is credit",
    record: monthly("2026-01-15", [pay("2026-01-16", 2000)]),
    today: "2026-02-10",
    label: "Covered",
    paidThrough: "2026-02-28",
    creditCents: 5,
  },
  {
    name: "a refund takes back a period",
    record: monthly("2026-01-15", [pay("2026-01-16", 3990), pay("2026-01-20", -1995)]),
    today: "2026-03-05",
    label: "Past due",
    paidThrough: "2026-02-28",
  },
  {
    name: "a refund of the only payment, whole: nothing paid, awaiting again",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995), pay("2026-01-18", -1995)]),
    today: "2026-01-20",
    label: "Awaiting first payment",
    paidThrough: null,
    nextDue: { on: "2026-01-15", amountCents: 1995 },
  },
  {
    name: "a year paid, $40.00 of it refunded: less than a year is no coverage; past due within the grace after the due day",
    record: annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-01-25", -4000)]),
    today: "2027-02-08",
    label: "Past due",
    effectiveOn: null,
    paidThrough: null,
    creditCents: 5900,
    nextDue: { on: "2027-01-10", amountCents: 4000 },
  },
  {
    name: "a year paid, $40.00 of it refunded months later: lapsed, never awaiting a first payment",
    record: annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-07-15", -4000)]),
    today: "2027-07-15",
    label: "Lapsed",
    paidThrough: null,
    nextDue: { on: "2027-01-10", amountCents: 4000 },
  },
  {
    name: "part of a first payment, never a whole period: still awaiting it",
    record: annual("2027-01-10", [pay("2027-01-10", 5000)]),
    today: "2027-07-15",
    label: "Awaiting first payment",
    nextDue: { on: "2027-01-10", amountCents: 4900 },
  },
  {
    name: "annual plan: a year from the 1st after payment",
    record: annual("2027-03-10", [pay("2027-03-10", 9900)]),
    today: "2027-03-10",
    label: "Starts April 1, 2027",
    effectiveOn: "2027-04-01",
    paidThrough: "2028-03-31",
    nextDue: { on: "2028-04-01", amountCents: 9900 },
  },
  {
    name: "annual plan approved on leap day",
    record: annual("2028-02-29", [pay("2028-02-29", 9900)]),
    today: "2028-06-01",
    label: "Covered",
    effectiveOn: "2028-03-01",
    paidThrough: "2029-02-28",
  },
  {
    name: "annual plan, two years paid",
    record: annual("2027-03-10", [pay("2027-03-10", 19800)]),
    today: "2029-03-31",
    label: "Covered",
    paidThrough: "2029-03-31",
  },
  {
    name: "annual plan, a monthly amount is only credit",
    record: annual("2027-03-10", [pay("2027-03-10", 1995)]),
    today: "2027-04-10",
    label: "Awaiting first payment",
    creditCents: 1995,
    nextDue: { on: "2027-03-10", amountCents: 7905 },
  },
  {
    name: "cancelled by staff",
    record: monthly("2026-01-15", [pay("2026-01-16", 5985)], [cancel("2026-02-15", "Moved away")]),
    today: "2026-02-15",
    label: "Cancelled",
    nextDue: null,
  },
  {
    name: "a cancellation dated ahead leaves the member covered until then",
    record: monthly("2026-01-15", [pay("2026-01-16", 5985)], [cancel("2026-03-01")]),
    today: "2026-02-15",
    label: "Covered",
  },
  {
    name: "cancelled before any payment",
    record: monthly("2026-01-15", [], [cancel("2026-01-20")]),
    today: "2026-01-25",
    label: "Cancelled",
  },
  {
    name: "reinstated: a new term awaits its first payment (earlier payments stay with the old term)",
    record: monthly("2026-01-15", [pay("2026-01-16", 5985)], [cancel("2026-02-15"), reinstate("2026-06-10")]),
    today: "2026-06-11",
    label: "Awaiting first payment",
    nextDue: { on: "2026-06-10", amountCents: 1995 },
  },
  {
    name: "reinstated and paid: the same rule from the reinstatement",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995), pay("2026-06-12", 1995)], [cancel("2026-02-15"), reinstate("2026-06-10")]),
    today: "2026-06-12",
    label: "Starts July 1, 2026",
    effectiveOn: "2026-07-01",
    paidThrough: "2026-07-31",
  },
  {
    name: "reinstated after a payment received in the gap: the reinstatement day is the later",
    record: monthly("2026-01-15", [pay("2026-06-10", 1995)], [cancel("2026-02-15"), reinstate("2026-06-10")]),
    today: "2026-06-10",
    label: "Starts July 1, 2026",
  },
  {
    name: "events in any order",
    record: monthly("2026-01-15", [pay("2026-06-12", 1995)], [reinstate("2026-06-10"), cancel("2026-02-15")]),
    today: "2026-07-02",
    label: "Covered",
  },
  {
    name: "a second cancellation after reinstatement",
    record: monthly("2026-01-15", [pay("2026-06-12", 1995)], [cancel("2026-02-15"), reinstate("2026-06-10"), cancel("2026-07-15")]),
    today: "2026-07-16",
    label: "Cancelled",
  },
  {
    name: "carried over by import, no payment yet",
    record: carried("2026-12-31"),
    today: "2026-12-20",
    label: "Covered",
    effectiveOn: null,
    paidThrough: "2026-12-31",
    nextDue: { on: "2027-01-01", amountCents: 1995 },
  },
  {
    name: "carried over, a month paid",
    record: carried("2026-12-31", [pay("2026-12-28", 1995)]),
    today: "2027-01-15",
    label: "Covered",
    paidThrough: "2027-01-31",
  },
  {
    name: "carried over from the 30th: held to February's end",
    record: carried("2027-01-30", [pay("2027-01-28", 1995)]),
    today: "2027-02-10",
    label: "Covered",
    paidThrough: "2027-02-28",
  },
  {
    name: "carried over from a month end: month ends",
    record: carried("2027-01-31", [pay("2027-01-28", 3990)]),
    today: "2027-03-31",
    label: "Covered",
    paidThrough: "2027-03-31",
  },
  { name: "carried over and long past", record: carried("2026-01-31"), today: "2026-03-03", label: "Lapsed" },
  { name: "grace across February: Jan 31 + 30 days is March 2", record: carried("2026-01-31"), today: "2026-03-02", label: "Past due" },
  {
    name: "a lapsed member paying one month is paid through a day still past",
    record: monthly("2026-01-15", [pay("2026-01-16", 1995), pay("2026-06-01", 1995)]),
    today: "2026-06-02",
    label: "Lapsed",
    paidThrough: "2026-03-31",
  },
  {
    name: "approved February 28 of a leap year, paid the 29th",
    record: monthly("2028-02-28", [pay("2028-02-29", 1995)]),
    today: "2028-03-01",
    label: "Covered",
    effectiveOn: "2028-03-01",
  },
];

describe("coverageOn", () => {
  it("has at least 30 cases", () => expect(cases.length).toBeGreaterThanOrEqual(30));

  it.each(cases)("$name", (c) => {
    const got = coverageOn(c.record, c.today);
    expect(got.label).toBe(c.label);
    if (c.effectiveOn !== undefined) expect(got.effectiveOn).toBe(c.effectiveOn);
    if (c.paidThrough !== undefined) expect(got.paidThrough).toBe(c.paidThrough);
    if (c.creditCents !== undefined) expect(got.creditCents).toBe(c.creditCents);
    if (c.nextDue !== undefined) expect(got.nextDue).toEqual(c.nextDue);
  });

  it("names the status without its date for filters", () => {
    expect(coverageOn(monthly("2026-01-15", [pay("2026-01-16", 1995)]), "2026-01-20").status).toBe("Starts");
    expect(coverageOn(monthly("2026-01-15"), "2026-01-20").status).toBe("Awaiting first payment");
  });

  it("gives the grace's last day", () => {
    expect(coverageOn(monthly("2026-01-15", [pay("2026-01-16", 1995)]), "2026-02-01").graceEndsOn).toBe("2026-03-30");
    // Refunded below a period: the grace runs from the day the payment is due, as long as after a paid-through day.
    const refunded = coverageOn(annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-01-25", -4000)]), "2027-02-08");
    expect(refunded.graceEndsOn).toBe("2027-02-08");
    expect(coverageOn(annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-01-25", -4000)]), "2027-02-09").label).toBe("Lapsed");
    expect(coverageOn(monthly("2026-01-15"), "2026-06-01").graceEndsOn).toBeNull();
  });
});

describe("calendar helpers", () => {
  it.each([
    ["2026-01-31", 1, "2026-02-28"],
    ["2028-01-31", 1, "2028-02-29"],
    ["2028-02-29", 12, "2029-02-28"],
    ["2027-01-30", 1, "2027-02-28"],
    ["2026-11-30", 3, "2027-02-28"],
    ["2026-12-15", 1, "2027-01-15"],
    ["2026-03-31", -1, "2026-02-28"],
    ["2026-04-30", 0, "2026-04-30"],
  ])("%s + %i months = %s", (day, months, want) => expect(addMonthsKeepingMonthEnd(day, months)).toBe(want));

  it("refuse a day they cannot write instead of producing garbage (issue 39)", () => {
    expect(addMonthsKeepingMonthEnd("9999-11-30", 1)).toBe("9999-12-31");
    expect(() => addMonthsKeepingMonthEnd("9999-12-31", 1)).toThrow(RangeError);
    expect(() => addMonthsKeepingMonthEnd("10798-10-31", 1)).toThrow(RangeError);
    expect(() => firstOfNextMonth("9999-12-31")).toThrow(RangeError);
    expect(() => formatLongDay("10798-10-31")).toThrow(RangeError);
    expect(formatLongDay("0001-01-01")).toBe("January 1, 1");
    expect(addDays("0001-01-01", 30)).toBe("0001-01-31");
    // The case: 21 payments of $100,000 on a monthly plan is 105,263 months of coverage.
    const record = monthly(
      "2026-01-15",
      Array.from({ length: 21 }, () => pay("2026-02-01", 10_000_000)),
    );
    expect(() => coverageOn(record, "2026-11-27")).toThrow(RangeError);
  });

  it("say how far ahead coverage may be paid: ten years from today, by the month-end rule", () => {
    expect(MAX_PREPAID_YEARS).toBe(10);
    expect(latestPaidThrough("2026-11-27")).toBe("2036-11-27");
    expect(latestPaidThrough("2028-02-29")).toBe("2038-02-28");
    expect(latestPaidThrough("2026-04-30")).toBe("2036-04-30");
  });

  it("first of the next month", () => {
    expect(firstOfNextMonth("2026-12-31")).toBe("2027-01-01");
    expect(firstOfNextMonth("2026-01-01")).toBe("2026-02-01");
  });

  it("today in the association's time zone", () => {
    expect(todayIn("America/New_York", new Date("2026-11-27T03:00:00Z"))).toBe("2026-11-26");
    expect(todayIn("America/New_York", new Date("2026-11-27T05:00:00Z"))).toBe("2026-11-27");
    // Daylight saving begins 2026-03-08 at 07:00 UTC: 04:59 UTC is still the 7th in New York.
    expect(todayIn("America/New_York", new Date("2026-03-08T04:59:00Z"))).toBe("2026-03-07");
    expect(todayIn("Pacific/Honolulu", new Date("2026-01-01T09:59:00Z"))).toBe("2025-12-31");
  });

  it("formats cents", () => {
    expect(formatCents(1995)).toBe("$19.95");
    expect(formatCents(9900)).toBe("$99.00");
    expect(formatCents(-1995)).toBe("-$19.95");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
  });
});

describe("terms: a refund counts in its payment's term, and earlier terms keep their dates", () => {
  const refundOf = (on: string, amountCents: number, termOn: string): LedgerEntry => ({ on, amountCents, termOn });

  it("a refund dated in the new term of a payment made in the earlier one leaves the new term whole", () => {
    const record = monthly(
      "2026-02-10",
      [
        pay("2026-02-12", 23940),
        refundOf("2026-02-20", -1995, "2026-02-12"),
        refundOf("2026-06-10", -13965, "2026-02-12"),
        pay("2026-06-11", 1995),
      ],
      [cancel("2026-06-10"), reinstate("2026-06-10")],
    );
    const got = coverageOn(record, "2026-06-12");
    expect([got.label, got.paidCents, got.effectiveOn, got.paidThrough, got.reinstatedOn]).toEqual([
      "Starts July 1, 2026",
      1995,
      "2026-07-01",
      "2026-07-31",
      "2026-06-10",
    ]);
    // The earlier term kept what it used (four months, March to June), cut short by the cancellation.
    expect(got.earlierTerms).toEqual([
      { effectiveOn: "2026-03-01", paidThrough: "2026-06-30", graceEndsOn: "2026-07-30", cancelledOn: "2026-06-10" },
    ]);
  });

  it("gives no earlier terms in the first term, and each earlier term in order", () => {
    expect(coverageOn(monthly("2026-01-15", [pay("2026-01-16", 1995)]), "2026-02-01")).toMatchObject({
      reinstatedOn: null,
      earlierTerms: [],
    });
    const twice = coverageOn(
      monthly(
        "2026-01-15",
        [pay("2026-01-16", 1995), pay("2026-04-02", 3990)],
        [cancel("2026-02-15"), reinstate("2026-04-01"), cancel("2026-05-20"), reinstate("2026-08-01")],
      ),
      "2026-08-02",
    );
    expect(twice.earlierTerms).toEqual([
      { effectiveOn: "2026-02-01", paidThrough: "2026-02-28", graceEndsOn: "2026-03-30", cancelledOn: "2026-02-15" },
      { effectiveOn: "2026-05-01", paidThrough: "2026-06-30", graceEndsOn: "2026-07-30", cancelledOn: "2026-05-20" },
    ]);
    expect([twice.label, twice.reinstatedOn]).toEqual(["Awaiting first payment", "2026-08-01"]);
  });
});

describe("leftAtReinstatement: the earlier term's money, used and left", () => {
  it.each<[string, MembershipRecord, string, { paidCents: number; usedPeriods: number; leftCents: number } | null]>([
    [
      "issue 39: $239.40 paid, $19.95 refunded, cancelled in June: March to June used",
      monthly(
        "2026-02-10",
        [pay("2026-02-12", 23940), { on: "2026-02-20", amountCents: -1995, termOn: "2026-02-12" }],
        [cancel("2026-06-10")],
      ),
      "2026-06-10",
      { paidCents: 21945, usedPeriods: 4, leftCents: 13965 },
    ],
    [
      "cancelled before coverage began: all of it is left",
      monthly("2026-06-01", [pay("2026-06-02", 1995)], [cancel("2026-06-20")]),
      "2026-06-20",
      { paidCents: 1995, usedPeriods: 0, leftCents: 1995 },
    ],
    [
      "cancelled on a period's first day: that period is not used",
      monthly("2026-02-10", [pay("2026-02-12", 23940)], [cancel("2026-07-01")]),
      "2026-07-05",
      { paidCents: 23940, usedPeriods: 4, leftCents: 23940 - 4 * 1995 },
    ],
    [
      "annual: the year begun is used",
      annual("2026-01-15", [pay("2026-01-16", 19800)], [cancel("2026-05-01")]),
      "2026-06-01",
      { paidCents: 19800, usedPeriods: 1, leftCents: 9900 },
    ],
    [
      "a lapsed term: every period paid was used",
      monthly("2026-01-15", [pay("2026-01-16", 1995)], [cancel("2026-06-01")]),
      "2026-06-01",
      { paidCents: 1995, usedPeriods: 1, leftCents: 0 },
    ],
    [
      "a credit is left",
      monthly("2026-01-15", [pay("2026-01-16", 2500)], [cancel("2026-03-10")]),
      "2026-03-10",
      { paidCents: 2500, usedPeriods: 1, leftCents: 505 },
    ],
    [
      "a payment in the gap before the reinstatement is the earlier term's; one on its day is the new term's",
      monthly("2026-01-15", [pay("2026-01-16", 1995), pay("2026-06-05", 1995), pay("2026-06-10", 1995)], [cancel("2026-02-15")]),
      "2026-06-10",
      { paidCents: 3990, usedPeriods: 1, leftCents: 1995 },
    ],
    [
      "the second term's money only",
      monthly(
        "2026-01-15",
        [pay("2026-01-16", 5985), pay("2026-04-02", 5985)],
        [cancel("2026-02-15"), reinstate("2026-04-01"), cancel("2026-05-20")],
      ),
      "2026-05-20",
      { paidCents: 5985, usedPeriods: 1, leftCents: 3990 },
    ],
    ["not cancelled", monthly("2026-01-15", [pay("2026-01-16", 1995)]), "2026-03-01", null],
    ["a day before the cancellation", monthly("2026-01-15", [pay("2026-01-16", 1995)], [cancel("2026-03-01")]), "2026-02-28", null],
  ])("%s", (_name, record, reinstatedOn, want) => {
    const got = leftAtReinstatement(record, reinstatedOn);
    expect(got && { paidCents: got.paidCents, usedPeriods: got.usedPeriods, leftCents: got.leftCents }).toEqual(want);
    if (got) expect(got.usedCents).toBe(got.usedPeriods * (record.billing === "annual" ? 9900 : 1995));
  });

  it("carried over and cancelled: the periods paid on top of the old records' date, begun before the cancellation, are used", () => {
    const record: MembershipRecord = { ...carried("2026-12-31", [pay("2026-12-20", 3990)]), events: [cancel("2027-01-15")] };
    expect(leftAtReinstatement(record, "2027-01-20")).toEqual({
      cancelledOn: "2027-01-15",
      paidCents: 3990,
      usedPeriods: 1,
      usedCents: 1995,
      leftCents: 1995,
    });
  });
});
