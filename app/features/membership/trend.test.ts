import { describe, expect, it } from "vitest";
import { addDays, coverageOn, type MembershipRecord } from "./coverage";
import { monthlyTrend } from "./trend";

const monthly = (approvedOn: string, payments: Array<[string, number]>, extra: Partial<MembershipRecord> = {}): MembershipRecord => ({
  billing: "monthly",
  approvedOn,
  payments: payments.map(([on, amountCents]) => ({ on, amountCents })),
  ...extra,
});

describe("the dashboard's months: covered, new and lapsed", () => {
  const today = "2026-11-20";
  const figures = (records: MembershipRecord[], months = 12) =>
    monthlyTrend(
      records.map((r) => coverageOn(r, today)),
      today,
      months,
    );

  it("lists the last twelve months, this one last, across a new year", () => {
    const months = figures([]);
    expect(months).toHaveLength(12);
    expect(months[0]).toMatchObject({ month: "2025-12", short: "Dec 2025", long: "December 2025" });
    expect(months[11]).toMatchObject({ month: "2026-11", short: "Nov 2026", long: "November 2026", covered: 0, new: 0, lapsed: 0 });
  });

  const at = (months: ReturnType<typeof figures>, month: string) => {
    const m = months.find((f) => f.month === month)!;
    return [m.covered, m.new, m.lapsed];
  };

  it.each<[string, MembershipRecord, Record<string, [number, number, number]>]>([
    // Effective March 1, paid three months: covered March-May, past due in June, lapsed July 1 (grace ends June 30).
    [
      "three months paid, then nothing",
      monthly("2026-02-10", [["2026-02-12", 5985]]),
      {
        "2026-02": [0, 0, 0],
        "2026-03": [1, 1, 0],
        "2026-05": [1, 0, 0],
        "2026-06": [0, 0, 0],
        "2026-07": [0, 0, 1],
        "2026-08": [0, 0, 0],
      },
    ],
    // Still covered today: this month counts on today, not the month's end.
    [
      "paid a year ahead",
      monthly("2026-06-15", [["2026-06-15", 1995 * 12]]),
      { "2026-06": [0, 0, 0], "2026-07": [1, 1, 0], "2026-11": [1, 0, 0] },
    ],
    // Paid through November 30: covered on today (the 20th) though November is not over.
    ["paid through this month's end", monthly("2026-09-02", [["2026-09-03", 3990]]), { "2026-10": [1, 1, 0], "2026-11": [1, 0, 0] }],
    // Starts next month: not new yet, not covered.
    ["starts next month", monthly("2026-11-10", [["2026-11-10", 1995]]), { "2026-11": [0, 0, 0] }],
    // Cancelled in April while covered: covered through March, never lapsed.
    [
      "cancelled while covered",
      monthly("2026-01-05", [["2026-01-05", 1995 * 6]], { events: [{ kind: "cancelled", on: "2026-04-10", reason: "Moved" }] }),
      { "2026-02": [1, 1, 0], "2026-03": [1, 0, 0], "2026-04": [0, 0, 0], "2026-08": [0, 0, 0], "2026-09": [0, 0, 0] },
    ],
    // Carried over from old records through January 31: covered December and January, lapsed March 3 (grace ends March 2).
    [
      "carried over",
      { billing: "monthly", approvedOn: null, carriedPaidThrough: "2026-01-31", payments: [] },
      { "2025-12": [1, 0, 0], "2026-01": [1, 0, 0], "2026-02": [0, 0, 0], "2026-03": [0, 0, 1] },
    ],
    // Grace ends today: past due, not lapsed yet.
    [
      "grace ends today",
      { billing: "monthly", approvedOn: null, carriedPaidThrough: "2026-10-21", payments: [] },
      { "2026-11": [0, 0, 0] },
    ],
    // Grace ended yesterday: lapsed today.
    ["lapsed today", { billing: "monthly", approvedOn: null, carriedPaidThrough: "2026-10-20", payments: [] }, { "2026-11": [0, 0, 1] }],
    ["no plan", { billing: null, approvedOn: null, payments: [] }, { "2026-11": [0, 0, 0] }],
    ["awaiting first payment", monthly("2026-10-01", []), { "2026-10": [0, 0, 0], "2026-11": [0, 0, 0] }],
  ])("%s", (_name, record, expected) => {
    const months = figures([record]);
    for (const [month, triple] of Object.entries(expected)) expect([month, ...at(months, month)]).toEqual([month, ...triple]);
  });

  it("adds members up", () => {
    const months = figures([
      monthly("2026-02-10", [["2026-02-12", 5985]]),
      monthly("2026-02-20", [["2026-02-21", 1995 * 12]]),
      monthly("2026-03-01", [["2026-03-01", 1995]]),
    ]);
    expect(at(months, "2026-03")).toEqual([2, 2, 0]);
    expect(at(months, "2026-04")).toEqual([3, 1, 0]);
    // The third paid one month (April): its grace ends May 30, so it lapses May 31.
    expect(at(months, "2026-05")).toEqual([2, 0, 1]);
  });
});

describe("the dashboard's past months do not change when a term is cancelled or reinstated later", () => {
  type Entry = { on: string; amountCents: number; termOn?: string };
  const base = (payments: Entry[], approvedOn = "2026-02-10"): MembershipRecord => ({
    billing: "monthly",
    approvedOn,
    payments,
    events: [],
  });
  // Issue 39: $239.40 paid, $19.95 of it refunded: covered March 2026 to January 2027.
  const paid = base([
    { on: "2026-02-12", amountCents: 23940 },
    { on: "2026-02-20", amountCents: -1995, termOn: "2026-02-12" },
  ]);
  const later = (record: MembershipRecord, events: MembershipRecord["events"], entries: Entry[] = []): MembershipRecord => ({
    ...record,
    payments: [...record.payments, ...entries],
    events: [...(record.events ?? []), ...(events ?? [])],
  });
  const cancel = (on: string) => ({ kind: "cancelled" as const, on, reason: "Asked to" });
  const reinstate = (on: string) => ({ kind: "reinstated" as const, on });
  // What a reinstatement writes when it carries (or refunds) $139.65 left from the earlier term.
  const out = (on: string, cents: number) => ({ on, amountCents: -cents, termOn: "2026-02-12" });

  const byMonth = (record: MembershipRecord, today: string) =>
    new Map(monthlyTrend([coverageOn(record, today)], today, 24).map((m) => [m.month, [m.covered, m.new, m.lapsed]]));

  it.each<[string, MembershipRecord, string, MembershipRecord, string[]]>([
    [
      "cancelled and reinstated the same day, the money left carried",
      paid,
      "2026-06-10",
      later(paid, [cancel("2026-06-10"), reinstate("2026-06-10")], [out("2026-06-10", 13965), { on: "2026-06-10", amountCents: 13965 }]),
      ["2026-06-10", "2026-07-15", "2026-12-31", "2027-03-01"],
    ],
    [
      "cancelled and reinstated the same day, the money left refunded",
      paid,
      "2026-06-10",
      later(paid, [cancel("2026-06-10"), reinstate("2026-06-10")], [out("2026-06-10", 13965)]),
      ["2026-06-10", "2026-08-01", "2027-01-31"],
    ],
    [
      "cancelled and reinstated the same day, nothing done with the money",
      paid,
      "2026-06-10",
      later(paid, [cancel("2026-06-10"), reinstate("2026-06-10")]),
      ["2026-06-11", "2026-10-01"],
    ],
    ["cancelled, never reinstated", paid, "2026-06-10", later(paid, [cancel("2026-06-10")]), ["2026-06-10", "2026-09-30", "2027-05-01"]],
    [
      "cancelled, reinstated months later with the money carried",
      paid,
      "2026-06-10",
      later(paid, [cancel("2026-06-10"), reinstate("2026-09-01")], [out("2026-09-01", 13965), { on: "2026-09-01", amountCents: 13965 }]),
      ["2026-09-01", "2026-11-15", "2027-06-30"],
    ],
    [
      "lapsed, then cancelled and reinstated: the lapse stays in its month",
      base([{ on: "2026-02-12", amountCents: 1995 }]),
      "2026-07-20",
      later(base([{ on: "2026-02-12", amountCents: 1995 }]), [cancel("2026-07-20"), reinstate("2026-07-20")]),
      ["2026-07-20", "2026-12-01"],
    ],
    [
      "carried over from the old records, then cancelled and reinstated",
      { billing: "monthly", approvedOn: null, carriedPaidThrough: "2026-04-30", payments: [{ on: "2026-04-20", amountCents: 3990 }] },
      "2026-05-15",
      later(
        { billing: "monthly", approvedOn: null, carriedPaidThrough: "2026-04-30", payments: [{ on: "2026-04-20", amountCents: 3990 }] },
        [cancel("2026-05-15"), reinstate("2026-05-15")],
        [
          { on: "2026-05-15", amountCents: -1995, termOn: "2026-04-20" },
          { on: "2026-05-15", amountCents: 1995 },
        ],
      ),
      ["2026-05-15", "2026-06-30", "2026-09-01"],
    ],
  ])("%s", (_name, before, changedOn, after, todays) => {
    const seen = byMonth(before, addDays(changedOn, -1));
    const changedMonth = changedOn.slice(0, 7);
    for (const today of todays) {
      const now = byMonth(after, today);
      const past = [...seen.keys()].filter((month) => month < changedMonth && now.has(month));
      expect(past.length, today).toBeGreaterThan(0);
      for (const month of past) expect([today, month, now.get(month)]).toEqual([today, month, seen.get(month)]);
    }
  });

  it("issue 39: two members covered March to June, one cancelled and reinstated in June, are still two in those months", () => {
    const other = base([{ on: "2026-02-14", amountCents: 1995 * 6 }], "2026-02-11");
    const reinstated = later(paid, [cancel("2026-06-10"), reinstate("2026-06-10")]);
    const months = monthlyTrend([coverageOn(reinstated, "2026-06-20"), coverageOn(other, "2026-06-20")], "2026-06-20");
    const covered = (month: string) => months.find((m) => m.month === month)!.covered;
    expect(["2026-03", "2026-04", "2026-05"].map(covered)).toEqual([2, 2, 2]);
    // June: the reinstated member's earlier term ended on the 10th, before the month's count (today, the 20th).
    expect(covered("2026-06")).toBe(1);
    expect(months.find((m) => m.month === "2026-03")!.new).toBe(2);
  });
});
