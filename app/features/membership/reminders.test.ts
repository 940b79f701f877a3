import { describe, expect, it } from "vitest";
import type { LedgerEntry, MembershipRecord, TermEvent } from "./coverage";
import { coverageOn } from "./coverage";
import { reminderAbout, reminderDue, reminderMail, stillDue, type DueReminder } from "./reminders";

const pay = (on: string, amountCents: number): LedgerEntry => ({ on, amountCents });
const monthly = (approvedOn: string, payments: LedgerEntry[] = [], events: TermEvent[] = []): MembershipRecord => ({
  billing: "monthly",
  approvedOn,
  payments,
  events,
});
const annual = (approvedOn: string, payments: LedgerEntry[] = []): MembershipRecord => ({ billing: "annual", approvedOn, payments });
const carried = (billing: "monthly" | "annual", paidThrough: string): MembershipRecord => ({
  billing,
  approvedOn: null,
  carriedPaidThrough: paidThrough,
  payments: [],
});

// Annual, paid 2026-03-15: effective 2026-04-01, paid through 2027-03-31, grace to 2027-04-30.
const paidAnnual = annual("2026-03-15", [pay("2026-03-15", 9900)]);
// Monthly, paid 2027-01-10: effective 2027-02-01, paid through 2027-02-28, grace to 2027-03-30.
const paidMonthly = monthly("2027-01-10", [pay("2027-01-10", 1995)]);

const cases: Array<{ name: string; record: MembershipRecord; today: string; due: DueReminder | null }> = [
  {
    name: "a year refunded below the price: past due, but no paid-through day to remind of",
    record: annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-01-25", -4000)]),
    today: "2027-01-26",
    due: null,
  },
  {
    name: "the same, lapsed",
    record: annual("2027-01-10", [pay("2027-01-10", 9900), pay("2027-01-25", -4000)]),
    today: "2027-02-20",
    due: null,
  },
  { name: "no plan", record: { billing: null, approvedOn: null, payments: [] }, today: "2027-03-01", due: null },
  { name: "approved, 2 days: not yet", record: monthly("2027-03-10"), today: "2027-03-12", due: null },
  {
    name: "approved, 3 days: first payment awaited",
    record: monthly("2027-03-10"),
    today: "2027-03-13",
    due: { kind: "first-payment", period: "2027-03-10", dueOn: "2027-03-13" },
  },
  {
    name: "first payment, last day of the catch-up",
    record: monthly("2027-03-10"),
    today: "2027-03-27",
    due: { kind: "first-payment", period: "2027-03-10", dueOn: "2027-03-13" },
  },
  { name: "first payment, after the catch-up", record: monthly("2027-03-10"), today: "2027-03-28", due: null },
  {
    name: "approved January 31, 3 days: February 3",
    record: monthly("2027-01-31"),
    today: "2027-02-03",
    due: { kind: "first-payment", period: "2027-01-31", dueOn: "2027-02-03" },
  },
  { name: "paid before 3 days: none", record: monthly("2027-03-10", [pay("2027-03-11", 1995)]), today: "2027-03-13", due: null },
  {
    name: "reinstated, unpaid: a new first-payment period",
    record: monthly(
      "2026-01-10",
      [pay("2026-01-10", 1995)],
      [
        { kind: "cancelled", on: "2026-06-01", reason: "x" },
        { kind: "reinstated", on: "2027-03-01" },
      ],
    ),
    today: "2027-03-05",
    due: { kind: "first-payment", period: "2027-03-01", dueOn: "2027-03-04" },
  },
  { name: "annual, 8 days before paid through: not yet", record: paidAnnual, today: "2027-03-23", due: null },
  {
    name: "annual, 7 days before paid through: due soon",
    record: paidAnnual,
    today: "2027-03-24",
    due: { kind: "due-soon", period: "2027-03-31", dueOn: "2027-03-24" },
  },
  {
    name: "annual, on the paid-through day: still due soon",
    record: paidAnnual,
    today: "2027-03-31",
    due: { kind: "due-soon", period: "2027-03-31", dueOn: "2027-03-24" },
  },
  { name: "monthly, 7 days before: no due-soon mail", record: paidMonthly, today: "2027-02-21", due: null },
  {
    name: "the day after paid through: past due",
    record: paidMonthly,
    today: "2027-03-01",
    due: { kind: "past-due", period: "2027-02-28", dueOn: "2027-03-01" },
  },
  {
    name: "annual past due",
    record: paidAnnual,
    today: "2027-04-01",
    due: { kind: "past-due", period: "2027-03-31", dueOn: "2027-04-01" },
  },
  { name: "past due, after the catch-up", record: paidMonthly, today: "2027-03-16", due: null },
  {
    name: "the day after the grace: lapsed",
    record: paidMonthly,
    today: "2027-03-31",
    due: { kind: "lapsed", period: "2027-02-28", dueOn: "2027-03-31" },
  },
  { name: "lapsed long ago: none", record: paidMonthly, today: "2027-06-01", due: null },
  {
    name: "carried-over coverage past due (leap day)",
    record: carried("monthly", "2028-02-29"),
    today: "2028-03-01",
    due: { kind: "past-due", period: "2028-02-29", dueOn: "2028-03-01" },
  },
  {
    name: "cancelled: none",
    record: monthly("2027-01-10", [pay("2027-01-10", 1995)], [{ kind: "cancelled", on: "2027-02-15", reason: "x" }]),
    today: "2027-03-01",
    due: null,
  },
  { name: "starts ahead: none", record: monthly("2027-03-10", [pay("2027-03-10", 1995)]), today: "2027-03-20", due: null },
];

describe("which reminder a member is owed", () => {
  it.each(cases)("$name", ({ record, today, due }) => {
    expect(reminderDue(record, today)).toEqual(due);
  });

  it("a reminder is no longer owed once the member paid", () => {
    expect(stillDue(paidMonthly, "2027-03-05", "past-due", "2027-02-28")).toBe(true);
    const paid = { ...paidMonthly, payments: [...paidMonthly.payments, pay("2027-03-04", 1995)] };
    expect(stillDue(paid, "2027-03-05", "past-due", "2027-02-28")).toBe(false);
  });
});

describe("the reminder's mail", () => {
  const ctx = {
    firstName: "Pat",
    certificateNumber: "AHA0000042",
    orgName: "American Homeowners Association",
    phone: "(800) 555-0142",
    email: "info@aha-homeowners.org",
    paymentUrl: "https://aha.example/make-payment",
  };
  it("says what is due, when, and how to pay; nothing else about the member", () => {
    const mail = reminderMail("past-due", coverageOn(paidMonthly, "2027-03-01"), ctx);
    expect(mail.subject).toBe("Your membership payment is past due");
    expect(mail.text).toBe(
      [
        "Dear Pat,",
        "",
        "Your membership was paid through February 28, 2027, and we have not received the next payment of $19.95.",
        "",
        "Please pay by March 30, 2027 to keep your membership from lapsing.",
        "",
        "You can pay online at https://aha.example/make-payment with your Membership ID, AHA0000042.",
        "",
        "Questions? Call us at (800) 555-0142 or write to info@aha-homeowners.org. If you have already paid, thank you, and please disregard this message.",
        "",
        "American Homeowners Association",
        "",
      ].join("\n"),
    );
  });
  it("each kind has its own subject", () => {
    const subjects = (["first-payment", "due-soon", "past-due", "lapsed"] as const).map(
      (kind) => reminderMail(kind, coverageOn(paidAnnual, "2027-03-24"), { ...ctx, firstName: null }).subject,
    );
    expect(new Set(subjects).size).toBe(4);
    expect(reminderMail("due-soon", coverageOn(paidAnnual, "2027-03-24"), ctx).text).toContain("please pay $99.00 by April 1, 2027");
  });
});

describe("reminderAbout: what each mail of the outbox is about, never a throw", () => {
  it("a reminder names its period, a receipt its payment, an announcement its id", () => {
    expect(reminderAbout({ kind: "first-payment", period: "2027-01-10" })).toBe("approved January 10, 2027");
    expect(reminderAbout({ kind: "due-soon", period: "2027-03-31" })).toBe("paid through March 31, 2027");
    expect(reminderAbout({ kind: "past-due", period: "2027-02-28" })).toBe("paid through February 28, 2027");
    expect(reminderAbout({ kind: "lapsed", period: "2027-02-28" })).toBe("paid through February 28, 2027");
    expect(reminderAbout({ kind: "payment-received", period: "12", payment: { amountCents: 9900, paidOn: "2027-01-07" } })).toBe(
      "$99.00 paid January 7, 2027",
    );
    expect(reminderAbout({ kind: "payment-received", period: "12", payment: null })).toBe("payment 12");
    expect(reminderAbout({ kind: "announcement", period: "7" })).toBe("announcement 7");
  });

  it("a period that is not a day, or a kind it does not know, is shown as written", () => {
    expect(reminderAbout({ kind: "past-due", period: "12" })).toBe("paid through 12");
    expect(reminderAbout({ kind: "first-payment", period: "2027-02-30" })).toBe("approved 2027-02-30");
    expect(reminderAbout({ kind: "something-new", period: "x-1" })).toBe("x-1");
  });
});
