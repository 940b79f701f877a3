/**
 * The membership (issue 31) on the wire: a member's plan, payments and refunds, cancellation
 * and reinstatement, and the coverage computed from them.
 *   GET  /api/admin/members/:id/membership                      -> MembershipAnswer   (staff)
 *   PUT  /api/admin/members/:id/membership/plan      PlanInput   -> MembershipAnswer   (staff)
 *   POST /api/admin/members/:id/membership/payments  PaymentInput -> MembershipAnswer  (staff) 201
 *   POST /api/admin/membership/payments/:id/refund   RefundInput -> MembershipAnswer   (staff) 201
 *   POST /api/admin/members/:id/membership/cancel    CancelInput -> MembershipAnswer   (super_admin)
 *   POST /api/admin/members/:id/membership/reinstate ReinstateInput -> MembershipAnswer (super_admin)
 *   PUT  /api/admin/members/:id/membership/co-insured  CoInsuredInput -> MembershipAnswer (staff; co-insured.ts)
 *   DELETE /api/admin/members/:id/membership/co-insured              -> MembershipAnswer (staff)
 *   GET  /api/account/membership                                -> MembershipAnswer   (the member)
 *   GET  /api/admin/members/:id/membership/reminders            -> MemberRemindersAnswer (staff)
 *   GET  /api/admin/membership/reminders/without-email          -> MembersWithoutEmailAnswer (staff)
 */
import { z } from "~/platform/zod";
import { isIsoDate } from "~/platform/dates";
import { isOneLine } from "~/platform/text-fields";
import { addDays, addMonthsKeepingMonthEnd, BILLINGS, formatLongDay, MAX_PREPAID_YEARS, type Coverage } from "./coverage";
import type { CoInsuredView } from "./co-insured";
import type { ReminderKind } from "./reminders";

/** How staff (and the payments import) record a payment. */
export const PAYMENT_METHODS = ["card", "ach", "check", "other"] as const;
/** A payment the provider's signed event recorded (issue 40); never chosen by staff. */
export const ONLINE_METHOD = "online";
export type PaymentMethod = (typeof PAYMENT_METHODS)[number] | typeof ONLINE_METHOD;
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Card",
  ach: "ACH",
  check: "Check",
  other: "Other",
  online: "Card (online)",
};
export const BILLING_LABELS = { monthly: "Monthly ($19.95 a month)", annual: "Annual ($99.00 a year)" } as const;

/** The largest single payment or amount of coverage the forms take, in cents. */
export const MAX_PAYMENT_CENTS = 10_000_000;
/**
 * The most coverage a plan records: $10,000,000.00, far above any home's, and within the plan's
 * column (a 32-bit integer of cents on PostgreSQL, which ends at $21,474,836.47).
 */
export const MAX_COVERAGE_CENTS = 1_000_000_000;

export const MEMBERSHIP_MESSAGES = {
  memberNotFound: "Member not found",
  paymentNotFound: "Payment not found",
  noPlan: "This member has no plan on record. Give them a plan first.",
  billing: "Choose monthly or annual billing",
  amount: "Enter an amount in dollars and cents, like 19.95",
  amountRange: "The amount must be between $0.01 and $100,000.00",
  coverage: "Enter the amount of coverage in dollars, like 250000",
  day: (label: string) => `${label} must be a date written YYYY-MM-DD`,
  /** Days as people read them: "Paid on must be a day from January 1, 1990 to November 28, 2026". */
  dayRange: (label: string, first: string, last: string | null) =>
    last === null ? `${label} must be a day from ${first} on` : `${label} must be a day from ${first} to ${last}`,
  method: "Choose how it was paid",
  reference: "Reference must be one line of at most 100 characters",
  referenceTaken: "A payment with this reference is already recorded",
  reason: "Give the reason, in at most 500 characters",
  refundOfRefund: "A refund cannot be refunded",
  refundTooMuch: "A refund cannot be more than the payment",
  refundBeforePayment: "A refund cannot be dated before the payment it pays back",
  alreadyRefunded: "This payment has already been refunded",
  refundMoreThanLeft: (left: string) => `A refund cannot be more than what is left of the payment: ${left}`,
  earlierPayments: (left: string) =>
    `Choose whether to carry the ${left} left from the earlier term into the new term or to refund it to the member`,
  alreadyCancelled: "This membership is already cancelled",
  notCancelled: "Only a cancelled membership can be reinstated",
  beforeCancellation: "A reinstatement must be on or after the cancellation date",
  text: (label: string, max: number) => `${label} must be one line of at most ${max} characters`,
  /** Days as people read them ("October 31, 2036"); `through` null: past the year 9999. */
  prepaidTooFar: (latest: string, through: string | null) =>
    `Coverage can be paid at most ${MAX_PREPAID_YEARS} years ahead, through ${latest}: this payment would pay it through ${through ?? "a day past the year 9999"}`,
} as const;

/** An amount of coverage as typed (an application's, an import's) in cents, or null when it is none a plan can hold. */
export function coverageCentsOf(text: string | null | undefined): number | null {
  const cents = text ? parseCents(text) : null;
  return cents !== null && cents <= MAX_COVERAGE_CENTS ? cents : null;
}

/** Dollars typed by a person ("1,250.50", "$19.95") as cents, or null. */
export function parseCents(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, "");
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

/** Written as dollars and cents, of any size ("99999999999", "1,000,000,000.00"). */
export function isDollarsWritten(text: string): boolean {
  return /^\d+(?:\.\d{1,2})?$/.test(text.replace(/[$,\s]/g, ""));
}

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
const blankToNull = (v: unknown) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : trimmed(v));

/** No membership day is before this one: the association's records begin after it. */
export const EARLIEST_MEMBERSHIP_DAY = "1990-01-01";

/**
 * The last day each kind of day may be, on the association's `today`: money is recorded when
 * it moved (tomorrow at the latest, for a payer a time zone ahead); a plan is approved at most
 * a year ahead.
 */
export const LATEST_DAY = {
  "Paid on": (today: string) => addDays(today, 1),
  "Refunded on": (today: string) => addDays(today, 1),
  "Reinstated on": (today: string) => addDays(today, 1),
  "Approved on": (today: string) => addMonthsKeepingMonthEnd(today, 12),
} as const;
export type BoundedDay = keyof typeof LATEST_DAY;

/** Why `value` is outside its label's range on `today` (null: today unknown, the earliest day only), or null when it is inside. */
export function dayOutOfRange(label: string, value: string, today: string | null): string | null {
  const latest = today !== null && label in LATEST_DAY ? LATEST_DAY[label as BoundedDay](today) : null;
  if (value >= EARLIEST_MEMBERSHIP_DAY && (latest === null || value <= latest)) return null;
  return MEMBERSHIP_MESSAGES.dayRange(label, formatLongDay(EARLIEST_MEMBERSHIP_DAY), latest && formatLongDay(latest));
}

/** A day written YYYY-MM-DD, from EARLIEST_MEMBERSHIP_DAY to its label's latest on `today` (null: not known here). */
const day = (label: string, today: string | null = null) =>
  z.preprocess(
    trimmed,
    z
      .string(MEMBERSHIP_MESSAGES.day(label))
      .refine(isIsoDate, MEMBERSHIP_MESSAGES.day(label))
      .superRefine((value, ctx) => {
        if (!isIsoDate(value)) return;
        const problem = dayOutOfRange(label, value, today);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
  );

const money = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z
    .string(MEMBERSHIP_MESSAGES.amount)
    .transform((v, ctx) => {
      const cents = parseCents(v);
      if (cents === null) {
        // Dollars and cents, only too many of them (99999999999): the range says what is wrong.
        ctx.addIssue({ code: "custom", message: isDollarsWritten(v) ? MEMBERSHIP_MESSAGES.amountRange : MEMBERSHIP_MESSAGES.amount });
        return z.NEVER;
      }
      return cents;
    })
    .refine((c) => c >= 1 && c <= MAX_PAYMENT_CENTS, MEMBERSHIP_MESSAGES.amountRange),
);

const optionalLine = (label: string, max: number) =>
  z.preprocess(
    blankToNull,
    z
      .string(MEMBERSHIP_MESSAGES.text(label, max))
      .max(max, MEMBERSHIP_MESSAGES.text(label, max))
      .refine(isOneLine, MEMBERSHIP_MESSAGES.text(label, max))
      .nullable(),
  );

const reason = z.preprocess(
  trimmed,
  z
    .string(MEMBERSHIP_MESSAGES.reason)
    .min(1, MEMBERSHIP_MESSAGES.reason)
    .max(500, MEMBERSHIP_MESSAGES.reason)
    .refine(isOneLine, MEMBERSHIP_MESSAGES.reason),
);

/** A plan as staff give it; `today` (the association's) bounds the approval day, null: from 1990 on only. */
export const planSchemaOn = (today: string | null) =>
  z.object({
    billing: z.enum(BILLINGS, MEMBERSHIP_MESSAGES.billing),
    coverageAmount: z.preprocess(
      (v) => (typeof v === "number" ? String(v) : blankToNull(v)),
      z
        .string(MEMBERSHIP_MESSAGES.coverage)
        .transform((v, ctx) => {
          const cents = parseCents(v);
          if (cents === null || cents > MAX_COVERAGE_CENTS) {
            ctx.addIssue({ code: "custom", message: MEMBERSHIP_MESSAGES.coverage });
            return z.NEVER;
          }
          return cents;
        })
        .nullable(),
    ),
    beneficiaryName: optionalLine("Beneficiary", 200),
    beneficiaryRelationship: optionalLine("Relationship", 100),
    approvedOn: day("Approved on", today),
  });
export const planSchema = planSchemaOn(null);
export type PlanInput = z.output<typeof planSchema>;

/** A payment as staff record it; `today` bounds its day, null: from 1990 on only. */
export const paymentSchemaOn = (today: string | null) =>
  z.object({
    amount: money,
    paidOn: day("Paid on", today),
    method: z.enum(PAYMENT_METHODS, MEMBERSHIP_MESSAGES.method),
    reference: z.preprocess(
      blankToNull,
      z
        .string(MEMBERSHIP_MESSAGES.reference)
        .max(100, MEMBERSHIP_MESSAGES.reference)
        .refine(isOneLine, MEMBERSHIP_MESSAGES.reference)
        .nullable(),
    ),
  });
export const paymentSchema = paymentSchemaOn(null);
export type PaymentInput = z.output<typeof paymentSchema>;

export const refundSchemaOn = (today: string | null) =>
  z.object({
    // Blank: the whole payment.
    amount: z.preprocess(blankToNull, money.nullable()),
    refundedOn: day("Refunded on", today),
    reason,
  });
export const refundSchema = refundSchemaOn(null);
export type RefundInput = z.output<typeof refundSchema>;

export const cancelSchema = z.object({ cancelledOn: day("Cancelled on"), reason });
export type CancelInput = z.output<typeof cancelSchema>;

/** What a reinstatement does with the money left from the earlier term (coverage.ts: leftAtReinstatement). */
export const EARLIER_PAYMENTS = ["carry", "refund"] as const;
export type EarlierPayments = (typeof EARLIER_PAYMENTS)[number];

/**
 * The reason is optional: a reinstatement is usually the member paying again, which the ledger
 * already says. `earlierPayments` is required when money is left from the earlier term (the
 * server says how much when it is missing).
 */
export const reinstateSchemaOn = (today: string | null) =>
  z.object({
    reinstatedOn: day("Reinstated on", today),
    reason: optionalLine("Reason", 500),
    earlierPayments: z.preprocess(blankToNull, z.enum(EARLIER_PAYMENTS, "Choose carry or refund").nullable()).optional(),
  });
export const reinstateSchema = reinstateSchemaOn(null);
export type ReinstateInput = z.output<typeof reinstateSchema>;

export interface PlanView {
  billing: (typeof BILLINGS)[number];
  coverageCents: number | null;
  beneficiaryName: string | null;
  beneficiaryRelationship: string | null;
  approvedOn: string | null;
  carriedPaidThrough: string | null;
}

export interface PaymentView {
  id: number;
  amountCents: number;
  paidOn: string;
  method: PaymentMethod;
  reference: string | null;
  /** A refund (or money carried out of a payment) names the payment it comes out of. */
  refundOf: number | null;
  /** On a payment: how much of it has been paid back, by one refund or several (0: none). */
  refundedCents: number;
  /** On a payment: how much of it was carried into a later term at a reinstatement (0: none). */
  carriedOutCents: number;
  /** The reinstatement (its event id) that carried money with this entry: out of a payment (negative), or into the new term (positive). */
  carriedWith: number | null;
  note: string | null;
  recordedAt: string;
}

export interface TermEventView {
  id: number;
  kind: "cancelled" | "reinstated";
  on: string;
  reason: string | null;
  recordedAt: string;
}

export interface MembershipView {
  memberId: number;
  plan: PlanView | null;
  /** The household's second person, covered by the same certificate (to a member: the name only). */
  coInsured: CoInsuredView | null;
  coverage: Coverage;
  /** The association's calendar day the coverage was computed for. */
  today: string;
  payments: PaymentView[];
  events: TermEventView[];
}

export type MembershipAnswer = { success: true } & MembershipView;

/** POST /api/admin/membership/payments/import: the portal's CSV export, previewed (apply false) or recorded. */
export const PAYMENTS_IMPORT_LIMIT = "11mb";
/** The largest payments file the import takes, and how it is written for people. */
export const PAYMENTS_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const PAYMENTS_IMPORT_MAX_LABEL = "10MB";

const mappedColumn = (field: string) =>
  z
    .string(`Choose the column that holds the ${field}`)
    .trim()
    .min(1, `Choose the column that holds the ${field}`)
    .max(200, `The column chosen for the ${field} is too long a name`);

export const paymentsImportSchema = z.object({
  csv: z
    .string("Choose the payment portal's CSV export")
    .max(PAYMENTS_IMPORT_MAX_BYTES, `The file must be at most ${PAYMENTS_IMPORT_MAX_LABEL}`),
  apply: z.boolean("apply must be true or false").default(false),
  /** For a file neither the site's nor Stripe's: which of its columns holds each field (kept for the next file with its header). */
  mapping: z
    .object(
      {
        certificate_number: mappedColumn("certificate number"),
        amount: mappedColumn("amount"),
        paid_on: mappedColumn("day paid"),
        reference: mappedColumn("reference"),
      },
      "mapping must name a column for each of certificate number, amount, paid on and reference",
    )
    .nullable()
    .optional(),
  /** Stripe's export: leave out the rows that name no member and cannot be recorded (payments that are not dues). */
  leaveOutNotDues: z.boolean("leaveOutNotDues must be true or false").default(false),
});

export interface PaymentsImportAnswer {
  success: true;
  applied: boolean;
  message: string;
  report: {
    totalRows: number;
    toRecord: number;
    totalCents: number;
    skipped: number;
    skippedRows: Array<{ line: number; reference: string }>;
    problems: number;
    /** Unknown certificates and members without a plan carry the certificate number. */
    problemRows: Array<{ line: number; message: string; certificate?: string }>;
    members: number;
    /** The first rows to be recorded (up to 100), with the member each matched. */
    matchedRows: Array<{
      line: number;
      certificate: string;
      name: string;
      amountCents: number;
      paidOn: string;
      reference: string;
      refundCents?: number;
    }>;
    /** How the file was read: the site's own columns, Stripe's payments export, or columns staff mapped (saved: kept for its header). */
    format: {
      kind: "site" | "stripe" | "mapped";
      mapping: { certificate_number: string; amount: string; paid_on: string; reference: string } | null;
      saved: boolean;
      /** A mapped file's columns, for staff to map again. */
      columns?: string[];
    };
    /** Rows that took no money (failed, not captured): skipped, each with why. */
    notPaid: number;
    notPaidRows: Array<{ line: number; reference: string; reason: string }>;
    /** Refunds (Stripe's Amount Refunded) recorded against their payments, new or recorded before. */
    refunds: number;
    refundCents: number;
    refundRows: Array<{ line: number; reference: string; refundCents: number }>;
    /** Stripe rows naming no member that cannot be recorded: problems staff may leave out (leaveOutNotDues). */
    mayLeaveOut: number;
    /** Those rows, left out: skipped, each with why. */
    leftOut: number;
    leftOutRows: Array<{ line: number; reference: string; reason: string }>;
  };
}

/** The answer refusing a file whose columns staff could map: its header's columns, to choose from. */
export interface PaymentsImportRefusalDetails {
  columns?: string[];
  problems?: Array<{ line: number; message: string; certificate?: string }>;
}

/** GET/POST /api/account/membership/card: the member's proof-of-coverage token (POST: a new one). */
export interface CardAnswer {
  success: true;
  token: string;
  verifyPath: string;
  /** The absolute address the QR code opens. */
  verifyUrl: string;
  /** The QR code of verifyUrl as SVG markup, drawn on the server. */
  qrSvg: string;
}

/**
 * GET /api/verify/:token: all a scanned card tells (proof.ts): covered or not, the one date
 * and what it is, and each person's first name and last initial.
 */
export interface VerifyAnswer {
  success: true;
  covered: boolean;
  status: "covered" | "starts" | "ended" | "none";
  firstName: string;
  lastInitial: string;
  coInsured: { firstName: string; lastInitial: string } | null;
  /** The last day covered: ahead while covered, behind once ended; null otherwise. */
  coveredThrough: string | null;
  /** The first day of coverage paid for and not begun. */
  startsOn: string | null;
  /** The association's calendar day of the check. */
  checkedOn: string;
}

/** One reminder e-mail of a member, as staff see it. */
export interface ReminderView {
  id: number;
  kind: ReminderKind;
  /** "Past due", "Payment due soon"... */
  label: string;
  /**
   * What it is about, as the outbox keys it: a reminder's paid-through date (or the term's
   * first day); a receipt's payment id (kind payment-received).
   */
  period: string;
  /** Its period in words ("paid through March 31, 2027", "$99.00 paid January 7, 2027"): reminders.ts, reminderAbout. */
  about: string;
  dueOn: string;
  /** queued: waiting; failed: tried again at nextAttemptAt (null: no more tries); dropped: no longer due, not sent. */
  status: "queued" | "sent" | "failed" | "dropped";
  /** A sender holds it right now. */
  sending: boolean;
  attempts: number;
  nextAttemptAt: string | null;
  /** Why the last try failed, or why it was dropped. */
  lastError: string | null;
  sentTo: string | null;
  sentAt: string | null;
  createdAt: string;
}

export interface MemberReminders {
  memberId: number;
  /** Without an address the member gets no reminders. */
  hasEmail: boolean;
  /** Whether this server sends reminders at all (SMTP_URL and REMINDERS_ENABLED). */
  enabled: boolean;
  reminders: ReminderView[];
}
export type MemberRemindersAnswer = { success: true } & MemberReminders;

export interface MembersWithoutEmail {
  total: number;
  members: Array<{ id: number; certificateNumber: string | null; firstName: string | null; lastName: string | null }>;
}
export type MembersWithoutEmailAnswer = { success: true } & MembersWithoutEmail;
