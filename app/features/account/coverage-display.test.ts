import { describe, expect, it } from "vitest";
import { coverageOn } from "~/features/membership/coverage";
import type { PaymentView } from "~/features/membership/contract";
import { autopayChargeText, effectiveText, nextDueTerm, paidThroughText, paymentRows, statusNote, statusTone } from "./coverage-display";

const payment = (id: number, paidOn: string, amountCents: number, extra: Partial<PaymentView> = {}): PaymentView => ({
  id,
  amountCents,
  paidOn,
  method: "card",
  reference: null,
  refundOf: null,
  refundedCents: 0,
  carriedOutCents: 0,
  carriedWith: null,
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
      payment(2, "2026-02-01", 1995, { method: "check", refundedCents: 1995 }),
      payment(3, "2026-02-03", -1995, { refundOf: 2 }),
      payment(4, "2026-02-03", 1995, { method: "ach" }),
    ]);
    expect(rows.map((r) => [r.on, r.kind, r.details, r.amount, r.note])).toEqual([
      ["February 3, 2026", "payment", "Payment by ACH", "$19.95", null],
      ["February 3, 2026", "refund", "Refund of the payment of February 1, 2026", "-$19.95", null],
      ["February 1, 2026", "payment", "Payment by check", "$19.95", "refunded"],
      ["January 16, 2026", "payment", "Payment by card · Ref. PP-1001", "$19.95", null],
    ]);
  });

  it("says how much of a payment partly refunded was paid back, and shows money carried from one term into the next", () => {
    const rows = paymentRows([
      payment(1, "2026-02-12", 23940, { refundedCents: 3990, carriedOutCents: 13965 }),
      payment(2, "2026-02-20", -1995, { refundOf: 1 }),
      payment(3, "2026-03-02", -1995, { refundOf: 1 }),
      payment(4, "2026-06-10", -13965, { refundOf: 1, carriedWith: 9 }),
      payment(5, "2026-06-10", 13965, { method: "other", carriedWith: 9 }),
    ]);
    expect(rows.map((r) => [r.on, r.kind, r.details, r.amount, r.note])).toEqual([
      ["June 10, 2026", "carried", "Carried from the earlier term", "$139.65", null],
      ["June 10, 2026", "carried", "Carried into the new term from the payment of February 12, 2026", "-$139.65", null],
      ["March 2, 2026", "refund", "Refund of the payment of February 12, 2026", "-$19.95", null],
      ["February 20, 2026", "refund", "Refund of the payment of February 12, 2026", "-$19.95", null],
      ["February 12, 2026", "payment", "Payment by card", "$239.40", "$39.90 of $239.40 refunded; $139.65 carried into the new term"],
    ]);
  });

  it("says why a payment is owed when a reinstatement began a new term", () => {
    const reinstated = coverageOn(
      {
        billing: "monthly",
        approvedOn: "2026-01-15",
        payments: [{ on: "2026-01-16", amountCents: 21945 }],
        events: [
          { kind: "cancelled", on: "2026-06-10", reason: "" },
          { kind: "reinstated", on: "2026-06-10" },
        ],
      },
      "2026-06-10",
    );
    expect([reinstated.label, statusNote(reinstated)]).toEqual([
      "Awaiting first payment",
      "Your membership was reinstated on June 10, 2026 as a new term. Payments made before then belong to the earlier term (see your payment history), so your coverage begins again on the 1st of the month after we receive this term's first payment.",
    ]);
  });

  it("a member refunded below a period reads why there is no coverage, and that the due day has passed (issue 48)", () => {
    const bob = (today: string) =>
      coverageOn(
        {
          billing: "annual",
          approvedOn: "2027-01-10",
          payments: [
            { on: "2027-01-10", amountCents: 9900 },
            { on: "2027-01-25", amountCents: -4000 },
          ],
        },
        today,
      );
    expect(statusNote(bob("2027-01-25"))).toBe(
      "After a refund, what you have paid ($59.00) is less than one year of dues, so your coverage is not in force. Pay $40.00 by February 8, 2027 to keep your membership from lapsing.",
    );
    expect(statusTone(bob("2027-07-15"))).toBe("bad");
    expect(statusNote(bob("2027-07-15"))).toBe(
      "Your membership lapsed. After a refund, what you have paid ($59.00) is less than one year of dues, so your coverage is not in force. Make a payment or contact us to bring it up to date.",
    );
    expect(nextDueTerm(bob("2027-07-15"), "2027-07-15")).toBe("Payment past due since");
    expect(nextDueTerm(bob("2027-01-10"), "2027-01-10")).toBe("Next payment due");
  });

  it("names autopay's next charge as the way the payment due is paid (issue 48)", () => {
    expect(autopayChargeText("2027-01-07", { on: "2027-02-01" })).toBe(
      "your card is charged automatically on January 7, 2027 for the payment due February 1, 2027: nothing to do.",
    );
    expect(autopayChargeText("2027-02-07", { on: "2027-02-01" })).toBe(
      "your card is charged automatically on February 7, 2027 for the payment due February 1, 2027, so your membership reads past due until then.",
    );
    expect(autopayChargeText("2027-01-07", null)).toBe("your card is charged automatically on January 7, 2027.");
  });
});
