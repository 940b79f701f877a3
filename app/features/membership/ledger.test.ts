import { describe, expect, it } from "vitest";
import { coverageOn } from "./coverage";
import type { PaymentView, PlanView, TermEventView } from "./contract";
import { leftOfPayment, membershipRecord, paymentsToDrawFrom, reinstatementPreview, type LedgerRow } from "./ledger";

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
