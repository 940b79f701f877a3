import { describe, expect, it } from "vitest";
import { coverageOn } from "./coverage";
import type { PaymentView, PlanView, TermEventView } from "./contract";
import {
  leftOfPayment,
  membershipRecord,
  paymentsToDrawFrom,
  refundEffectText,
  refundOutcome,
  reinstatementPreview,
  unusedMonthsRefund,
  type LedgerRow,
} from "./ledger";

const row = (id: number, paidOn: string, amountCents: number, refundOf: number | null = null): LedgerRow => ({
  id,
  paidOn,
  amountCents,
  refundOf,
});

describe("what is left of a payment", () => {
  const ledger = [row(1, "2026-02-12", 23940), row(2, "2026-02-20", -1995, 1), row(3, "2026-03-01", -5000, 1), row(4, "2026-03-02", 1995)];
  it("is its amount less every refund of it; nothing for a refund", () => {
    expect(leftOfPayment(ledger[0], ledger)).toBe(23940 - 1995 - 5000);
    expect(leftOfPayment(ledger[3], ledger)).toBe(1995);
    expect(leftOfPayment(ledger[1], ledger)).toBe(0);
    expect(leftOfPayment(row(1, "2026-02-12", 1995), [row(1, "2026-02-12", 1995), row(2, "2026-02-13", -1995, 1)])).toBe(0);
  });
});

describe("which payments money left at a reinstatement comes out of", () => {
  const ledger = [
    row(1, "2026-01-16", 1995),
    row(2, "2026-02-01", 1995),
    row(3, "2026-03-01", 1995),
    row(4, "2026-03-02", -500, 3),
    row(5, "2026-06-12", 1995),
  ];
  it("the latest payment of the ending term first, each up to what is left of it", () => {
    expect(paymentsToDrawFrom(ledger, 3000, null, "2026-06-10")).toEqual([
      { paymentId: 3, cents: 1495 },
      { paymentId: 2, cents: 1505 },
    ]);
  });
  it("never a payment of another term, nor more than there is", () => {
    expect(paymentsToDrawFrom(ledger, 99_999, "2026-02-01", "2026-06-10")).toEqual([
      { paymentId: 3, cents: 1495 },
      { paymentId: 2, cents: 1995 },
    ]);
    expect(paymentsToDrawFrom(ledger, 0, null, "2026-06-10")).toEqual([]);
  });
});

describe("a reinstatement's preview: the money left, and the coverage carried or refunded, by the one rule", () => {
  const plan: PlanView = {
    billing: "monthly",
    coverageCents: null,
    beneficiaryName: null,
    beneficiaryRelationship: null,
    approvedOn: "2026-02-10",
    carriedPaidThrough: null,
  };
  const payment = (id: number, paidOn: string, amountCents: number, refundOf: number | null = null): PaymentView => ({
    ...row(id, paidOn, amountCents, refundOf),
    method: "card",
    reference: null,
    refundedCents: 0,
    carriedOutCents: 0,
    carriedWith: null,
    note: null,
    recordedAt: `${paidOn}T12:00:00.000Z`,
  });
  const events: TermEventView[] = [{ id: 1, kind: "cancelled", on: "2026-06-10", reason: "Asked to", recordedAt: "2026-06-10T12:00:00Z" }];
  // Issue 39: $239.40 paid, $19.95 of it refunded, covered March to June, cancelled and reinstated on June 10.
  const payments = [payment(1, "2026-02-12", 23940), payment(2, "2026-02-20", -1995, 1)];
  const view = { plan, payments, events, coverage: coverageOn(membershipRecord(plan, payments, events), "2026-06-10") };

  it("names what is left, and the dates either way", () => {
    const preview = reinstatementPreview(view, "2026-06-10", "2026-06-10")!;
    expect(preview.left).toEqual({ cancelledOn: "2026-06-10", paidCents: 21945, usedPeriods: 4, usedCents: 7980, leftCents: 13965 });
    expect(preview.outcomes.carry).toMatchObject({
      label: "Starts July 1, 2026",
      effectiveOn: "2026-07-01",
      paidThrough: "2027-01-31",
      reinstatedOn: "2026-06-10",
      earlierTerms: [{ effectiveOn: "2026-03-01", paidThrough: "2026-06-30", cancelledOn: "2026-06-10" }],
    });
    expect(preview.outcomes.refund).toMatchObject({
      label: "Awaiting first payment",
      nextDue: { on: "2026-06-10", amountCents: 1995 },
      earlierTerms: [{ effectiveOn: "2026-03-01", paidThrough: "2026-06-30", cancelledOn: "2026-06-10" }],
    });
  });

  it("is null for a membership that is not cancelled on the day", () => {
    expect(reinstatementPreview(view, "2026-06-09", "2026-06-10")).toBeNull();
    expect(reinstatementPreview({ ...view, events: [] }, "2026-06-10", "2026-06-10")).toBeNull();
  });

  it("reads a refund in its payment's term", () => {
    const record = membershipRecord(plan, [payment(1, "2026-02-12", 23940), payment(2, "2026-07-01", -1995, 1)], events);
    expect(record.payments).toEqual([
      { on: "2026-02-12", amountCents: 23940 },
      { on: "2026-07-01", amountCents: -1995, termOn: "2026-02-12" },
    ]);
  });
});

describe("a refund's effect on the coverage, and the unused months (issue 48)", () => {
  const plan = (billing: "monthly" | "annual", approvedOn: string) => ({ billing, approvedOn, carriedPaidThrough: null });
  const member = (billing: "monthly" | "annual", approvedOn: string, payments: LedgerRow[], events: TermEventView[] = []) => ({
    plan: plan(billing, approvedOn),
    payments,
    events,
  });
  const cancelled = (on: string): TermEventView => ({ kind: "cancelled", on, reason: "Asked to" }) as TermEventView;

  it("states what the refund does, by the rule", () => {
    // Bob: a year paid January 10, covered February 1 through January 31 next year.
    const bob = member("annual", "2027-01-10", [row(1, "2027-01-10", 9900)]);
    const forty = refundOutcome(bob, { id: 1 }, 4000, "2027-07-15", "2027-07-15");
    expect(forty.before.label).toBe("Covered");
    expect(forty.after.label).toBe("Lapsed");
    expect(refundEffectText("Bob", forty.before, forty.after, "2027-07-15")).toBe(
      "Bob will not be covered after this refund: $59.00 is less than one year of dues.",
    );
    // Six months paid ahead: four of them refunded.
    const ann = member("monthly", "2027-01-10", [row(1, "2027-01-10", 11970)]);
    const four = refundOutcome(ann, { id: 1 }, 7980, "2027-03-15", "2027-03-15");
    expect(refundEffectText("Ann", four.before, four.after, "2027-03-15")).toBe(
      "Ann will be covered through March 31, 2027 after this refund, not July 31, 2027.",
    );
    // Credit only: the paid-through day stays.
    const credit = member("monthly", "2027-01-10", [row(1, "2027-01-10", 2500)]);
    const five = refundOutcome(credit, { id: 1 }, 505, "2027-02-15", "2027-02-15");
    expect(refundEffectText("Cy", five.before, five.after, "2027-02-15")).toBe(
      "The refund does not change Cy's coverage: paid through February 28, 2027.",
    );
    // Nothing in force either way.
    const partial = member("annual", "2027-01-10", [row(1, "2027-01-10", 5000)]);
    const some = refundOutcome(partial, { id: 1 }, 1000, "2027-02-15", "2027-02-15");
    expect(refundEffectText("Di", some.before, some.after, "2027-02-15")).toBe(
      "Di has no coverage in force, before or after this refund: $40.00 is less than one year of dues.",
    );
  });

  it("the unused months: the most that keeps the member covered to the end of this month", () => {
    // Monthly, six months paid (February to July); in March: April to July, four months.
    expect(
      unusedMonthsRefund(member("monthly", "2027-01-10", [row(1, "2027-01-10", 11970)]), row(1, "2027-01-10", 11970), "2027-03-15"),
    ).toBe(7980);
    // The credit goes back too.
    expect(
      unusedMonthsRefund(member("monthly", "2027-01-10", [row(1, "2027-01-10", 6000)]), row(1, "2027-01-10", 6000), "2027-03-15"),
    ).toBe(6000 - 2 * 1995);
    // Three years paid: the two not begun. One year in force: nothing, since a year is bought whole.
    expect(
      unusedMonthsRefund(member("annual", "2027-01-10", [row(1, "2027-01-10", 29700)]), row(1, "2027-01-10", 29700), "2027-05-15"),
    ).toBe(19800);
    expect(
      unusedMonthsRefund(member("annual", "2027-01-10", [row(1, "2027-01-10", 9900)]), row(1, "2027-01-10", 9900), "2027-05-15"),
    ).toBeNull();
    // Before coverage begins (starts February 1): the first month is kept.
    expect(
      unusedMonthsRefund(member("monthly", "2027-01-20", [row(1, "2027-01-20", 5985)]), row(1, "2027-01-20", 5985), "2027-01-25"),
    ).toBe(3990);
    // No whole period paid: all of it is unused.
    expect(unusedMonthsRefund(member("annual", "2027-01-10", [row(1, "2027-01-10", 1000)]), row(1, "2027-01-10", 1000), "2027-05-15")).toBe(
      1000,
    );
    // Past due (paid through February 28): nothing comes back without taking that month.
    expect(
      unusedMonthsRefund(member("monthly", "2027-01-10", [row(1, "2027-01-10", 1995)]), row(1, "2027-01-10", 1995), "2027-03-10"),
    ).toBeNull();
    // What was refunded before is not offered again.
    const refunded = [row(1, "2027-01-10", 11970), row(2, "2027-02-01", -3990, 1)];
    expect(unusedMonthsRefund(member("monthly", "2027-01-10", refunded), refunded[0], "2027-03-15")).toBe(3990);
    // Cancelled: settled at a reinstatement.
    expect(
      unusedMonthsRefund(
        member("monthly", "2027-01-10", [row(1, "2027-01-10", 11970)], [cancelled("2027-03-01")]),
        row(1, "2027-01-10", 11970),
        "2027-03-15",
      ),
    ).toBeNull();
    // What it computes keeps the member covered to the month's end, and a cent more would not.
    const six = member("monthly", "2027-01-10", [row(1, "2027-01-10", 11970)]);
    expect(refundOutcome(six, { id: 1 }, 7980, "2027-03-15", "2027-03-15").after.paidThrough).toBe("2027-03-31");
    expect(refundOutcome(six, { id: 1 }, 7981, "2027-03-15", "2027-03-15").after.paidThrough).toBe("2027-02-28");
  });
});
