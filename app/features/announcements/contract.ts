/**
 * Announcements (issue 41) on the wire. Staff: super_admin, and a limited_admin a super_admin
 * allowed in Staff (`staff_permissions`).
 *   GET    /api/admin/announcements                    -> AnnouncementList
 *   POST   /api/admin/announcements          DraftInput -> 201 AnnouncementAnswer (a draft)
 *   GET    /api/admin/announcements/options             -> AudienceOptions
 *   POST   /api/admin/announcements/audience AudienceInput -> AudienceCount
 *   POST   /api/admin/announcements/preview  PreviewInput  -> PreviewAnswer
 *   POST   /api/admin/announcements/test     PreviewInput  -> TestAnswer (to the staff member's own address)
 *   GET    /api/admin/announcements/:id                 -> AnnouncementAnswer (with progress)
 *   PUT    /api/admin/announcements/:id      DraftInput -> AnnouncementAnswer (a draft or scheduled one)
 *   DELETE /api/admin/announcements/:id                 -> { success } (a draft)
 *   POST   /api/admin/announcements/:id/schedule ScheduleInput -> AnnouncementAnswer
 *   POST   /api/admin/announcements/:id/send             -> AnnouncementAnswer (starts at once)
 *   POST   /api/admin/announcements/:id/cancel           -> AnnouncementAnswer
 *   GET    /api/admin/announcements/:id/problems.csv     -> text/csv: the failed and skipped recipients
 *   GET    /unsubscribe/:token   the page that asks (changes nothing by itself)
 *   POST   /unsubscribe/:token   one click (RFC 8058) or the page's button
 *   GET/PUT /api/account/announcements  { receive: boolean }  (the member)
 */
import { z } from "~/platform/zod";
import { isCleanMultiLine, isOneLine } from "~/platform/text-fields";
import { isIsoDate } from "~/platform/dates";
import { COVERAGE_KINDS } from "~/features/membership/statuses";

export const ANNOUNCEMENT_STATUSES = ["draft", "scheduled", "sending", "sent", "cancelled"] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];
export const ANNOUNCEMENT_STATUS_LABELS: Record<AnnouncementStatus, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  sent: "Sent",
  cancelled: "Cancelled",
};

/** The merge fields a subject or body may use, filled per member. */
export const MERGE_FIELDS = ["first_name", "paid_through", "membership_id"] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

export const PLAN_CHOICES = ["monthly", "annual"] as const;
export const PLAN_CHOICE_LABELS = { monthly: "Monthly", annual: "Annual" } as const;

export const SUBJECT_MAX = 150;
export const BODY_MAX = 20_000;

export const ANNOUNCEMENT_MESSAGES = {
  notFound: "Announcement not found",
  subjectRequired: "Subject is required",
  subjectTooLong: `Subject must be at most ${SUBJECT_MAX} characters`,
  subjectOneLine: "Subject must be one line, without control characters",
  bodyRequired: "Message is required",
  bodyTooLong: `Message must be at most ${BODY_MAX.toLocaleString("en-US")} characters`,
  bodyControl: "Message must be plain text, without control characters",
  unknownField: (name: string) => `Unknown merge field {${name}}: use {first_name}, {paid_through} or {membership_id}`,
  joinedOrder: "Joined after must be before Joined before",
  day: "Enter a date as YYYY-MM-DD",
  state: "A state is two letters, like FL",
  notEditable: "Only a draft or a scheduled announcement can be edited",
  notDeletable: "Only a draft can be deleted; cancel a scheduled one",
  notStartable: "This announcement was already sent or cancelled",
  notCancellable: "Only a scheduled or sending announcement can be cancelled",
  scheduleAt: "Enter a date and time, like 2026-12-01 09:00",
  scheduleFuture: "Choose a time in the future",
  scheduleTooFar: "Choose a time within a year",
  noRecipients: "No member of this audience can receive it: nobody to send to",
  noTestAddress: "Your staff account has no e-mail address: a super admin can add one in Staff",
  mailOff: "Mail is not set up on this site (SMTP_URL): announcements cannot be sent",
  noPublicUrl: "The site's public address is not set (PUBLIC_URL): announcements carry an unsubscribe link made from it",
  previewMember: "No member has this Membership ID",
  previewNobody: "No member matches this audience to preview it as",
  forbidden: "Only a super admin, or a limited admin a super admin allowed in Staff, may write announcements",
  badLink: "This link is not valid. Check that it was copied whole, or sign in to My account to change what you receive.",
} as const;

/** The unsubscribe page's words. */
export const UNSUBSCRIBE_TEXTS = {
  title: "Stop announcements?",
  question: (firstName: string | null) =>
    `${firstName ? `${firstName}, you` : "You"} receive the association's announcements by e-mail. Stop them?`,
  confirm: "Stop announcements",
  doneTitle: "Announcements stopped",
  done: "You will no longer receive announcements.",
  stillSent: "Reminders and receipts about your own coverage are not announcements: they are still sent.",
  account: "Change this on My account",
} as const;

/** Why a recipient's mail was not sent (kept on the outbox row). */
export const SKIP_REASONS = {
  optedOut: "The member stopped announcements",
  deactivated: "The member's account was deactivated",
  noAddress: "No e-mail address on file",
  cancelled: "The announcement was cancelled",
  deleted: "The member was deleted",
} as const;

const day = z
  .string(ANNOUNCEMENT_MESSAGES.day)
  .trim()
  .refine((v) => isIsoDate(v), ANNOUNCEMENT_MESSAGES.day);

export const audienceSchema = z
  .object({
    statuses: z
      .array(z.enum(COVERAGE_KINDS, { error: "Unknown coverage status" }))
      .max(COVERAGE_KINDS.length)
      .default([]),
    plans: z
      .array(z.enum(PLAN_CHOICES, { error: "Plan must be monthly or annual" }))
      .max(2)
      .default([]),
    states: z
      .array(
        z
          .string(ANNOUNCEMENT_MESSAGES.state)
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{2}$/, ANNOUNCEMENT_MESSAGES.state),
      )
      .max(80)
      .default([]),
    joinedAfter: day.nullish().transform((v) => v || null),
    joinedBefore: day.nullish().transform((v) => v || null),
  })
  .strict()
  .refine((a) => !a.joinedAfter || !a.joinedBefore || a.joinedAfter <= a.joinedBefore, {
    message: ANNOUNCEMENT_MESSAGES.joinedOrder,
    path: ["joinedBefore"],
  });
export type Audience = z.output<typeof audienceSchema>;
export const EVERYONE: Audience = { statuses: [], plans: [], states: [], joinedAfter: null, joinedBefore: null };

/** `{name}` in a subject or body; names outside MERGE_FIELDS are refused before sending. */
const MERGE_FIELD = /\{([A-Za-z0-9_]+)\}/g;
export function unknownMergeField(text: string): string | null {
  for (const m of text.matchAll(MERGE_FIELD)) if (!(MERGE_FIELDS as readonly string[]).includes(m[1])) return m[1];
  return null;
}

const subject = z
  .string(ANNOUNCEMENT_MESSAGES.subjectRequired)
  .trim()
  .min(1, ANNOUNCEMENT_MESSAGES.subjectRequired)
  .max(SUBJECT_MAX, ANNOUNCEMENT_MESSAGES.subjectTooLong)
  .refine(isOneLine, ANNOUNCEMENT_MESSAGES.subjectOneLine)
  .superRefine((v, ctx) => {
    const name = unknownMergeField(v);
    if (name) ctx.addIssue({ code: "custom", message: ANNOUNCEMENT_MESSAGES.unknownField(name) });
  });
const body = z
  .string(ANNOUNCEMENT_MESSAGES.bodyRequired)
  .max(BODY_MAX, ANNOUNCEMENT_MESSAGES.bodyTooLong)
  .refine((v) => v.trim().length > 0, ANNOUNCEMENT_MESSAGES.bodyRequired)
  .refine(isCleanMultiLine, ANNOUNCEMENT_MESSAGES.bodyControl)
  .superRefine((v, ctx) => {
    const name = unknownMergeField(v);
    if (name) ctx.addIssue({ code: "custom", message: ANNOUNCEMENT_MESSAGES.unknownField(name) });
  });

export const draftSchema = z.object({ subject, body, audience: audienceSchema }).strict();
export type DraftInput = z.input<typeof draftSchema>;
export type Draft = z.output<typeof draftSchema>;

export const audienceInputSchema = z.object({ audience: audienceSchema }).strict();

/** Preview and Send test: the text as written now (saved or not), as one member would read it. */
export const previewSchema = z
  .object({
    subject,
    body,
    audience: audienceSchema,
    /** The member to fill in; without it, the first member of the audience. */
    certificateNumber: z
      .string()
      .trim()
      .max(40)
      .refine(isOneLine, ANNOUNCEMENT_MESSAGES.previewMember)
      .nullish()
      .transform((v) => v || null),
  })
  .strict();
export type PreviewInput = z.input<typeof previewSchema>;

/** A wall-clock time in the association's time zone: "2026-12-01T09:00" (or with a space). */
export const scheduleSchema = z
  .object({
    at: z
      .string(ANNOUNCEMENT_MESSAGES.scheduleAt)
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}$/, ANNOUNCEMENT_MESSAGES.scheduleAt)
      .refine(
        (v) => isIsoDate(v.slice(0, 10)) && Number(v.slice(11, 13)) < 24 && Number(v.slice(14, 16)) < 60,
        ANNOUNCEMENT_MESSAGES.scheduleAt,
      ),
  })
  .strict();

export const receiveSchema = z.object({ receive: z.boolean("Choose whether to receive announcements") }).strict();

export interface AudienceCount {
  success: true;
  /** Members the audience matches (active members only). */
  matching: number;
  withoutEmail: number;
  optedOut: number;
  /** Who would get it now: matching, less those without an address or opted out. */
  recipients: number;
}

export interface AudienceOptions {
  success: true;
  /** The states members live in, for the audience's state choice. */
  states: string[];
  /** Whether mail is set up: without it nothing can be sent (the editor says so). */
  mailEnabled: boolean;
  /** The association's time zone, in which a schedule is written. */
  timeZone: string;
  /** Where Send test goes: the staff member's own address, or null. */
  testAddress: string | null;
}

export interface Progress {
  /** Rows added when sending started. */
  recipients: number;
  sent: number;
  waiting: number;
  failed: number;
  /** Skipped, by reason (SKIP_REASONS' texts), including members deleted since. */
  skipped: Record<string, number>;
}

export interface AnnouncementSummary {
  id: number;
  subject: string;
  status: AnnouncementStatus;
  audience: Audience;
  scheduledAt: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
  createdBy: string | null;
  sentBy: string | null;
  /** Null until sending starts. */
  progress: Progress | null;
}

export interface RecipientProblem {
  memberId: number;
  certificateNumber: string | null;
  name: string;
  status: "failed" | "skipped";
  reason: string;
  attempts: number;
}

export interface AnnouncementDetail extends AnnouncementSummary {
  body: string;
  /** The first failed and skipped recipients (all of them in problems.csv). */
  problems: RecipientProblem[];
}

export interface AnnouncementList {
  success: true;
  announcements: AnnouncementSummary[];
}
export interface AnnouncementAnswer {
  success: true;
  announcement: AnnouncementDetail;
}
export interface PreviewAnswer {
  success: true;
  subject: string;
  text: string;
  /**
   * Whose values fill it in: the audience's first member who will receive it, else its first;
   * `missing` says why this member would not receive it (no e-mail address, opted out), else null.
   */
  member: { certificateNumber: string | null; name: string; missing: PreviewMissing | null };
}

/** Why the member a preview is read as would not receive the announcement. */
export type PreviewMissing = "address" | "opted-out";
export const PREVIEW_MISSING_TEXT: Record<PreviewMissing, string> = {
  address: "This member has no e-mail address: they will not receive it.",
  "opted-out": "This member opted out of announcements: they will not receive it.",
};
export interface TestAnswer {
  success: true;
  sentTo: string;
}
export interface ReceiveAnswer {
  success: true;
  receive: boolean;
}
