import { describe, expect, it } from "vitest";
import { coverageOn, type MembershipRecord, type TermEvent } from "./coverage";
import { checkedText, coverageProof, firstNameAndInitial, proofDate, proofHeading, termCancelledOn } from "./proof";

/** A monthly plan approved October 20, 2026; `paid` dollars' worth of months paid October 21. */
function record(months: number, events: TermEvent[] = []): MembershipRecord {
  return {
    billing: "monthly",
    approvedOn: "2026-10-20",
    payments: months ? [{ on: "2026-10-21", amountCents: 1995 * months }] : [],
    events,
  };
}

/** What the card and the check say on `today`: heading, date label and value. */
function says(rec: MembershipRecord, today: string, active = true) {
  const proof = coverageProof(coverageOn(rec, today), rec.events ?? [], active);
  const date = proofDate(proof);
  return { proof, heading: proofHeading(proof), line: `${date.label} ${date.value}` };
}

describe("what a proof of coverage says, status by status", () => {
  it("covered: Covered, through the last day paid for", () => {
    // Effective November 1, twelve months: through October 31, 2027.
    expect(says(record(12), "2026-11-27")).toEqual({
      proof: { covered: true, status: "covered", coveredThrough: "2027-10-31", startsOn: null },
      heading: "Covered",
      line: "Covered through October 31, 2027",
    });
  });

  it("paid, not begun: Not yet covered, and the day it starts, never a covered-through date", () => {
    // Paid October 21 for a plan approved then: effective November 1; on October 25 it has not begun.
    expect(says(record(2), "2026-10-25")).toEqual({
      proof: { covered: false, status: "starts", coveredThrough: null, startsOn: "2026-11-01" },
      heading: "Not yet covered",
      line: "Coverage starts November 1, 2026",
    });
  });

  it("past due and lapsed: Not covered, and the day coverage ended", () => {
    // One month: through November 30, 2026; past due in December, lapsed after the 30 days of grace.
    expect(says(record(1), "2026-12-10")).toMatchObject({ heading: "Not covered", line: "Coverage ended November 30, 2026" });
    expect(says(record(1), "2026-12-10").proof).toEqual({ covered: false, status: "ended", coveredThrough: "2026-11-30", startsOn: null });
    expect(says(record(1), "2027-02-01")).toMatchObject({ heading: "Not covered", line: "Coverage ended November 30, 2026" });
  });

  it("cancelled: the card and the check give one end date, the day before the cancellation, not the paid-through date", () => {
    // Paid through October 31, 2027; cancelled November 27, 2026: covered through November 26.
    const cancelled = record(12, [{ kind: "cancelled", on: "2026-11-27", reason: "Moved" }]);
    expect(coverageOn(cancelled, "2026-11-27").paidThrough).toBe("2027-10-31");
    expect(says(cancelled, "2026-11-27")).toEqual({
      proof: { covered: false, status: "ended", coveredThrough: "2026-11-26", startsOn: null },
      heading: "Not covered",
      line: "Coverage ended November 26, 2026",
    });
    // Cancelled after the paid months ran out: they end it.
    const late = record(1, [{ kind: "cancelled", on: "2027-01-15", reason: "Moved" }]);
    expect(says(late, "2027-01-20").line).toBe("Coverage ended November 30, 2026");
  });

  it("a cancellation recorded for a later day: covered through the day before it", () => {
    const scheduled = record(12, [{ kind: "cancelled", on: "2026-12-15", reason: "Selling the house" }]);
    expect(says(scheduled, "2026-11-27")).toMatchObject({ heading: "Covered", line: "Covered through December 14, 2026" });
  });

  it("nothing in force: no plan, no payment yet, cancelled before coverage began, a deactivated account", () => {
    const none = { heading: "Not covered", line: "Coverage None in force" };
    expect(says({ billing: null, approvedOn: null, payments: [] }, "2026-11-27")).toMatchObject(none);
    expect(says(record(0), "2026-11-27")).toMatchObject(none);
    // Paid, cancelled before November 1, when it would have begun.
    expect(says(record(2, [{ kind: "cancelled", on: "2026-10-28", reason: "Changed mind" }]), "2026-11-27")).toMatchObject(none);
    expect(says(record(12), "2026-11-27", false)).toMatchObject(none);
    expect(says(record(12), "2026-11-27", false).proof).toEqual({ covered: false, status: "none", coveredThrough: null, startsOn: null });
  });

  it("reinstated: the new term's dates, the old cancellation no longer ends it", () => {
    const events: TermEvent[] = [
      { kind: "cancelled", on: "2026-11-01", reason: "Moved" },
      { kind: "reinstated", on: "2026-11-01" },
    ];
    expect(termCancelledOn(events)).toBeNull();
    expect(termCancelledOn([...events, { kind: "cancelled", on: "2026-12-01", reason: "Again" }])).toBe("2026-12-01");
    expect(termCancelledOn([])).toBeNull();
  });

  it("the day of the check, and what the check shows of a name", () => {
    expect(checkedText("2026-11-27")).toBe("Checked November 27, 2026");
    expect(firstNameAndInitial(" Dana ", " rivera")).toEqual({ firstName: "Dana", lastInitial: "R" });
    expect(firstNameAndInitial("Sam", null)).toEqual({ firstName: "Sam", lastInitial: "" });
    // One character, not half of one.
    expect(firstNameAndInitial("Li", "𝒵hou")).toEqual({ firstName: "Li", lastInitial: "𝒵" });
  });
});
