import { describe, expect, it } from "vitest";
import { coverageOn } from "~/features/membership/coverage";
import type { PaymentView } from "~/features/membership/contract";
import { effectiveText, paidThroughText, paymentRows, statusNote, statusTone } from "./coverage-display";

const payment = (id: number, paidOn: string, amountCents: number, extra: Partial<PaymentView> = {}): PaymentView => ({
  id,
  amountCents,
  paidOn,
  method: "card",
  reference: null,
  refundOf: null,
  refundedBy: null,
  note: null,
  recordedAt: `${paidOn}T12:00:00.000Z`,
  ...extra,
});

describe("My account's coverage", () => {
  const monthly = (payments: Array<{ on: string; amountCents: number }>, today: string, events = []) =>
    coverageOn({ billing: "monthly", approvedOn: "2026-01-15", payments, events }, today);

  it("says where the member stands, in the tone of the status", () => {
    const cases = [
      [monthly([], "2026-01-20"), "warning", "Your coverage begins on the 1st of the month after we receive your first payment."],
      [
        monthly([{ on: "2026-01-16", amountCents: 1995 }], "2026-01-20"),
        "info",
        "We have your first payment. Your coverage begins on February 1, 2026.",
      ],
      [
        monthly([{ on: "2026-01-16", amountCents: 3990 }], "2026-02-10"),
        "good",
        "Your home protection plan is in force through March 31, 2026.",
      ],
      [
        monthly([{ on: "2026-01-16", amountCents: 1995 }], "2026-03-05"),
        "warning",
        "The payment due March 1, 2026 has not reached us. Pay by March 30, 2026 to keep your membership from lapsing.",
      ],
      [
        monthly([{ on: "2026-01-16", amountCents: 1995 }], "2026-04-01"),
        "bad",
        "Your membership lapsed: the payment due March 1, 2026 did not reach us. Make a payment or contact us to bring it up to date.",
      ],
      [
        coverageOn({ billing: null, approvedOn: null, payments: [] }, "2026-04-01"),
        "none",
        "We have no plan on record for your membership yet. Please contact us and we will set it up.",
      ],
    ] as const;
    for (const [coverage, tone, note] of cases) {
      expect([statusTone(coverage), statusNote(coverage)], coverage.label).toEqual([tone, note]);
    }
    const cancelled = coverageOn(
      {
        billing: "annual",
        approvedOn: "2026-01-15",
        payments: [{ on: "2026-01-16", amountCents: 9900 }],
        events: [{ kind: "cancelled", on: "2026-05-02", reason: "" }],
      },
      "2026-06-01",
    );
    expect([cancelled.label, statusTone(cancelled), statusNote(cancelled)]).toEqual([
      "Cancelled",
      "bad",
      "Your membership was cancelled on May 2, 2026. Please contact us if you have questions.",
    ]);
  });

  it("writes the dates for people, and says so when there is none yet", () => {
    const paid = monthly([{ on: "2026-01-16", amountCents: 1995 }], "2026-02-10");
    expect([effectiveText(paid, null), paidThroughText(paid)]).toEqual(["February 1, 2026", "February 28, 2026"]);
    const unpaid = monthly([], "2026-02-10");
    expect([effectiveText(unpaid, null), paidThroughText(unpaid)]).toEqual(["After your first payment", "Not yet paid"]);
    const carried = coverageOn({ billing: "annual", approvedOn: null, carriedPaidThrough: "2026-12-31", payments: [] }, "2026-02-10");
    const plan = { billing: "annual", coverageCents: null, beneficiaryName: null, beneficiaryRelationship: null, approvedOn: null };
    expect(effectiveText(carried, { ...plan, billing: "annual", carriedPaidThrough: "2026-12-31" })).toBe(
      "In force from your earlier records",
    );
  });

  it("lists the payments newest first, a refund as a refund of its payment, the refunded payment marked", () => {
    const rows = paymentRows([
      payment(1, "2026-01-16", 1995, { reference: "PP-1001" }),
      payment(2, "2026-02-01", 1995, { method: "check", refundedBy: 3 }),
      payment(3, "2026-02-03", -1995, { refundOf: 2 }),
      payment(4, "2026-02-03", 1995, { method: "ach" }),
    ]);
    expect(rows.map((r) => [r.on, r.kind, r.details, r.amount, r.refunded])).toEqual([
      ["February 3, 2026", "payment", "Payment by ACH", "$19.95", false],
      ["February 3, 2026", "refund", "Refund of the payment of February 1, 2026", "-$19.95", false],
      ["February 1, 2026", "payment", "Payment by check", "$19.95", true],
      ["January 16, 2026", "payment", "Payment by card · Ref. PP-1001", "$19.95", false],
    ]);
  });
});
