/**
 * Which membership reminder e-mail a member is owed on a day, from the one rule (coverage.ts).
 * Pure: the outbox (reminders.server.ts) asks this when it plans a day and again just before it
 * sends, so a member who paid in between is not told they are past due.
 *
 * A reminder is owed from its day for CATCH_UP_DAYS more days (a server down on the day still
 * sends it after), and only while the member's state still calls for it; it is keyed by its
 * period (the paid-through date, or the first day of a term awaiting its first payment), so each
 * is sent once per member, kind and period.
 */
import { isIsoDate } from "~/platform/dates";
import { addDays, coverageOn, formatCents, GRACE_DAYS, formatLongDay, type Coverage, type MembershipRecord } from "./coverage";

export const REMINDER_KINDS = ["first-payment", "due-soon", "past-due", "lapsed"] as const;
/**
 * The receipt of a payment recorded online (issue 40), in the same outbox: its period is the
 * payment's id, so each payment's receipt is sent once.
 */
export const RECEIPT_KIND = "payment-received";
export type ReminderKind = (typeof REMINDER_KINDS)[number] | typeof RECEIPT_KIND;

/** What staff read for each kind. */
export const REMINDER_LABELS: Record<ReminderKind, string> = {
  "first-payment": "First payment awaited",
  "due-soon": "Payment due soon",
  "past-due": "Past due",
  lapsed: "Lapsed",
  "payment-received": "Payment received",
};

/**
 * What a mail of the outbox is about, as staff read it beside its label (in brackets): a
 * reminder its period ("paid through March 31, 2027", "approved January 10, 2027"), a receipt
 * its payment ("$99.00 paid January 7, 2027"; "payment 12" when that payment is not found), an
 * announcement its id (staff read its subject and delivery on its own progress page). Never throws: a period not written as a day, or a kind
 * this screen does not know, is shown as written.
 */
export function reminderAbout(mail: { kind: string; period: string; payment?: { amountCents: number; paidOn: string } | null }): string {
  const day = (d: string) => (isIsoDate(d) ? formatLongDay(d) : d);
  switch (mail.kind) {
    case "first-payment":
      return `approved ${day(mail.period)}`;
    case "due-soon":
    case "past-due":
    case "lapsed":
      return `paid through ${day(mail.period)}`;
    case RECEIPT_KIND:
      return mail.payment ? `${formatCents(mail.payment.amountCents)} paid ${day(mail.payment.paidOn)}` : `payment ${mail.period}`;
    case "announcement":
      return `announcement ${mail.period}`;
    default:
      return mail.period;
  }
}

/** The receipt of a payment recorded online: "Payment received", with the amount, the day, the new paid-through date and the Membership ID. */
export function receiptMail(
  payment: { amountCents: number; paidOn: string },
  coverage: Coverage,
  ctx: Omit<ReminderMailContext, "paymentUrl">,
): { subject: string; text: string } {
  const body = [
    `We received your payment of ${formatCents(payment.amountCents)} on ${formatLongDay(payment.paidOn)}. Thank you.`,
    coverage.paidThrough
      ? `Your membership is paid through ${formatLongDay(coverage.paidThrough)}.`
      : "Your membership is recorded as paid; its dates are on your account page.",
    ctx.certificateNumber ? `Membership ID: ${ctx.certificateNumber}` : "",
  ].filter(Boolean);
  const greeting = ctx.firstName ? `Dear ${ctx.firstName},` : "Dear member,";
  const text = [
    greeting,
    "",
    ...body.flatMap((line) => [line, ""]),
    `Questions? Call us at ${ctx.phone} or write to ${ctx.email}.`,
    "",
    ctx.orgName,
    "",
  ].join("\n");
  return { subject: "Payment received", text };
}

/** Days after approval (or reinstatement) before a member still awaiting the first payment is reminded. */
export const FIRST_PAYMENT_AFTER_DAYS = 3;
/** Days before the paid-through date that an annual member is told their renewal is due. */
export const DUE_SOON_DAYS_BEFORE = 7;
/** How long after its day a reminder not yet planned is still sent. */
export const CATCH_UP_DAYS = 14;

export interface DueReminder {
  kind: ReminderKind;
  /** The paid-through date (or the term's first day) the reminder concerns: the key of "once". */
  period: string;
  /** The day it became owed. */
  dueOn: string;
}

const within = (today: string, from: string, to: string) => today >= from && today <= to;

/** The reminder a member is owed on `today`, or null; `coverage` when already computed for that day. */
export function reminderDue(record: MembershipRecord, today: string, coverage: Coverage = coverageOn(record, today)): DueReminder | null {
  const { state, paidThrough, graceEndsOn, nextDue } = coverage;
  switch (state.kind) {
    case "awaiting-first-payment": {
      // nextDue.on is the term's first day (approval or reinstatement) while nothing is paid.
      const period = nextDue!.on;
      const dueOn = addDays(period, FIRST_PAYMENT_AFTER_DAYS);
      return within(today, dueOn, addDays(dueOn, CATCH_UP_DAYS)) ? { kind: "first-payment", period, dueOn } : null;
    }
    case "covered": {
      if (coverage.billing !== "annual" || !paidThrough) return null;
      const dueOn = addDays(paidThrough, -DUE_SOON_DAYS_BEFORE);
      return within(today, dueOn, paidThrough) ? { kind: "due-soon", period: paidThrough, dueOn } : null;
    }
    // A term refunded below a whole period has no paid-through day to remind of: staff refunded it, and told the member.
    case "past-due": {
      if (!paidThrough) return null;
      const dueOn = addDays(paidThrough, 1);
      return within(today, dueOn, addDays(dueOn, CATCH_UP_DAYS)) ? { kind: "past-due", period: paidThrough, dueOn } : null;
    }
    case "lapsed": {
      if (!paidThrough) return null;
      const dueOn = addDays(graceEndsOn!, 1);
      return within(today, dueOn, addDays(dueOn, CATCH_UP_DAYS)) ? { kind: "lapsed", period: paidThrough, dueOn } : null;
    }
    default:
      return null;
  }
}

/** Whether the reminder `kind`/`period` is still owed on `today` (checked again just before sending). */
export function stillDue(record: MembershipRecord, today: string, kind: ReminderKind, period: string): boolean {
  const due = reminderDue(record, today);
  return due !== null && due.kind === kind && due.period === period;
}

export interface ReminderMailContext {
  firstName: string | null;
  certificateNumber: string | null;
  orgName: string;
  phone: string;
  email: string;
  /** Where members pay: the site's Make a Payment page, or the payment portal. */
  paymentUrl: string;
  /** Autopay failing (issue 40): the provider's reason (may be empty); the past-due mail says so. */
  autopayFailure?: string | null;
}

/**
 * The e-mail of a reminder: short and plain, from the association, with only what the member
 * needs to act (the dates, the amount, their Membership ID to pay with, and whom to ask).
 */
export function reminderMail(kind: ReminderKind, coverage: Coverage, ctx: ReminderMailContext): { subject: string; text: string } {
  const amount = coverage.nextDue ? formatCents(coverage.nextDue.amountCents) : formatCents(coverage.priceCents ?? 0);
  const day = (d: string | null) => (d ? formatLongDay(d) : "");
  const pay = `You can pay online at ${ctx.paymentUrl}${ctx.certificateNumber ? ` with your Membership ID, ${ctx.certificateNumber}` : ""}.`;
  let subject: string;
  let body: string[];
  switch (kind) {
    case "first-payment":
      subject = "Your membership is waiting for its first payment";
      body = [
        "Welcome, and thank you for joining. We have not yet received your first payment.",
        `Your insurance takes effect on the 1st of the month after we receive it. The amount is ${amount}.`,
        pay,
      ];
      break;
    case "due-soon":
      subject = "Your annual membership payment is due soon";
      body = [
        `Your membership is paid through ${day(coverage.paidThrough)}.`,
        `To keep your coverage without a break, please pay ${amount} by ${day(coverage.nextDue?.on ?? null)}.`,
        pay,
      ];
      break;
    case "past-due":
      subject = "Your membership payment is past due";
      body = [
        `Your membership was paid through ${day(coverage.paidThrough)}, and we have not received the next payment of ${amount}.`,
        ...(ctx.autopayFailure != null
          ? [
              `Your automatic payment did not go through${ctx.autopayFailure ? `: ${ctx.autopayFailure.replace(/[.\s]+$/, "")}` : ""}. Please update your card or pay another way.`,
            ]
          : []),
        `Please pay by ${day(coverage.graceEndsOn)} to keep your membership from lapsing.`,
        pay,
      ];
      break;
    case "lapsed":
      subject = "Your membership has lapsed";
      body = [
        `Your membership was paid through ${day(coverage.paidThrough)}. We did not receive a payment in the ${GRACE_DAYS} days after, so it has lapsed.`,
        "To renew it, please contact us.",
      ];
      break;
    case RECEIPT_KIND:
      throw new Error("A receipt is written by receiptMail");
  }
  const greeting = ctx.firstName ? `Dear ${ctx.firstName},` : "Dear member,";
  const text = [
    greeting,
    "",
    ...body.flatMap((line) => [line, ""]),
    `Questions? Call us at ${ctx.phone} or write to ${ctx.email}. If you have already paid, thank you, and please disregard this message.`,
    "",
    ctx.orgName,
    "",
  ].join("\n");
  return { subject, text };
}
