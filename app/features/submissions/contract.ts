/**
 * What crosses the wire for the admin submissions tab ('Form & Application Submissions'):
 * the statuses and the four sources, the zod schemas the server validates with, the JSON
 * answer types the browser reads, the spec's messages and the export's columns. Imported by
 * server and browser code alike; how the screen shows a value is in `display.ts`.
 */
import { z } from "~/platform/zod";
import { todayUtc } from "~/platform/dates";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "~/platform/paging";
import { multiLineString, oneLineString } from "~/platform/text-fields";

export const SUBMISSION_STATUSES = ["pending", "in-review", "approved", "rejected", "completed"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const STATUS_LABELS: Record<SubmissionStatus, string> = {
  pending: "Pending",
  "in-review": "In Review",
  approved: "Approved",
  rejected: "Rejected",
  completed: "Completed",
};

/** A missing (or unknown) status is treated as pending. */
export function normalizeStatus(value: unknown): SubmissionStatus {
  return (SUBMISSION_STATUSES as readonly unknown[]).includes(value) ? (value as SubmissionStatus) : "pending";
}

/** The four stored sources, by table name (the legacy calls' keys). */
export const SUBMISSION_TABLES = ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const;
export type SubmissionTable = (typeof SUBMISSION_TABLES)[number];

export const SUBMISSION_TYPES = ["contact-form", "form-request", "membership-application"] as const;
export type SubmissionType = (typeof SUBMISSION_TYPES)[number];
export type FormType = "Contact Form" | "CPA Request" | "Material Request" | "Membership Application" | "Unknown";

export const TYPE_LABELS: Record<SubmissionType, string> = {
  "contact-form": "Contact Forms",
  "form-request": "Form Requests",
  "membership-application": "Membership Applications",
};

/** Admin-side spec, section 3: id prefix, type and formType of each source. */
export const SOURCES: Record<SubmissionTable, { prefix: string; type: SubmissionType; formType: FormType }> = {
  contact_messages: { prefix: "contact_", type: "contact-form", formType: "Contact Form" },
  cpa_requests: { prefix: "cpa_", type: "form-request", formType: "CPA Request" },
  homeowner_material_requests: { prefix: "homeowner_", type: "form-request", formType: "Material Request" },
  applications: { prefix: "application_", type: "membership-application", formType: "Membership Application" },
};

/** Any unrecognized source maps to type contact-form with formType Unknown. */
export function sourceInfo(table: string): { type: SubmissionType; formType: FormType } {
  const known = (SOURCES as Record<string, { type: SubmissionType; formType: FormType }>)[table];
  return known ? { type: known.type, formType: known.formType } : { type: "contact-form", formType: "Unknown" };
}

export const MESSAGES = {
  loadFailed: "Failed to load submissions from database. Please try again.",
  updateFailed: "Failed to update submission status. Please try again.",
  deleteOneFailed: "Failed to delete submission. Please try again.",
  deleteManyFailed: (message: string) => `Failed to delete submissions: ${message}`,
  deleted: (n: number) => `Successfully deleted ${n} submission(s)`,
  selectOne: "Please select at least one submission to delete.",
  confirmDeleteOne: "Are you sure you want to delete this submission? This action cannot be undone.",
  confirmDeleteMany: (n: number) => `Are you sure you want to delete ${n} submission(s)? This action cannot be undone.`,
  emptyTitle: "No submissions found",
  emptyFiltered: "Try adjusting your search or filter criteria.",
  emptyNone: "No form submissions have been received yet.",
  apiFailed: (status: number) => `API request failed: ${status}`,
  apiError: "API returned error",
  statusFailed: "Failed to update status",
  notFound: "Submission not found",
  badId: "Invalid submission id",
  badStatus: `Status must be one of ${SUBMISSION_STATUSES.join(", ")}`,
  badCharacters: "Search contains characters that are not allowed",
  badBody: "The body must be an object with id and status",
  nothingToDelete: "No submission ids to delete",
  assignFailed: "Failed to assign submission. Please try again.",
  badAssignee: "Only an active staff member can be assigned",
  badAssignBody: "The body must be an object with userId (a staff member's id, or null)",
  tooMany: "At most 1000 submissions can be deleted at once",
} as const;

// ---- list query (GET /api/admin/submissions and /export) --------------------------------

export const SORT_COLUMNS = ["date", "name", "email", "type", "status"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
/** `sort` is "<column>_<asc|desc>", e.g. date_desc (the default: newest first). */
export const SORTS = SORT_COLUMNS.flatMap((c) => [`${c}_asc`, `${c}_desc`] as const);
export type SubmissionSort = `${SortColumn}_${"asc" | "desc"}`;
export const DEFAULT_SORT: SubmissionSort = "date_desc";

export const MAX_SEARCH_LENGTH = 100;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const intParam = (fallback: number, max: number, message: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(z.number({ error: message }).int().min(1, message).max(max, message))
    .optional()
    .transform((v) => v ?? fallback);

export const submissionQuerySchema = z.object({
  search: z
    .string({ error: "Search must be text" })
    .max(MAX_SEARCH_LENGTH, `Search must be at most ${MAX_SEARCH_LENGTH} characters`)
    .refine((v) => !CONTROL.test(v), MESSAGES.badCharacters)
    .transform((v) => v.trim())
    .optional()
    .transform((v) => v ?? ""),
  type: z
    .enum(["all", ...SUBMISSION_TYPES], { error: `Type must be all, ${SUBMISSION_TYPES.join(", ")}` })
    .optional()
    .default("all"),
  status: z
    .enum(["all", ...SUBMISSION_STATUSES], { error: `Status must be all, ${SUBMISSION_STATUSES.join(", ")}` })
    .optional()
    .default("all"),
  sort: z
    .enum(SORTS as unknown as [SubmissionSort, ...SubmissionSort[]], { error: "Unknown sort" })
    .optional()
    .default(DEFAULT_SORT),
  /** "me": only the submissions assigned to the signed-in staff member. */
  assigned: z.enum(["all", "me"], { error: "Assigned must be all or me" }).optional().default("all"),
  page: intParam(1, 1_000_000, "Page must be a whole number of at least 1"),
  limit: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]], { error: `Limit must be one of ${PAGE_SIZES.join(", ")}` })
    .optional()
    .transform((v) => (v ? Number(v) : DEFAULT_PAGE_SIZE)),
});
export type SubmissionQuery = z.infer<typeof submissionQuerySchema>;

const QUERY_DEFAULTS = submissionQuerySchema.parse({});
/** The list's controls as the admin page's address holds them: a bad value falls back to its default, each on its own. */
const addressQuerySchema = z.object({
  search: submissionQuerySchema.shape.search.catch(QUERY_DEFAULTS.search),
  type: submissionQuerySchema.shape.type.catch(QUERY_DEFAULTS.type),
  status: submissionQuerySchema.shape.status.catch(QUERY_DEFAULTS.status),
  sort: submissionQuerySchema.shape.sort.catch(QUERY_DEFAULTS.sort),
  assigned: submissionQuerySchema.shape.assigned.catch(QUERY_DEFAULTS.assigned),
  page: submissionQuerySchema.shape.page.catch(QUERY_DEFAULTS.page),
  limit: submissionQuerySchema.shape.limit.catch(QUERY_DEFAULTS.limit),
});

/** The list's query from the page's address (a linked or reloaded page of results); never throws. */
export function submissionQueryFromAddress(params: URLSearchParams): SubmissionQuery {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(addressQuerySchema.shape)) {
    const value = params.get(key);
    if (value) raw[key] = value;
  }
  return addressQuerySchema.parse(raw);
}
export type SubmissionFilters = Pick<SubmissionQuery, "search" | "type" | "status" | "sort" | "assigned">;

export const isFiltered = (q: Pick<SubmissionQuery, "search" | "type" | "status" | "assigned">) =>
  !!q.search || q.type !== "all" || q.status !== "all" || q.assigned !== "all";

// ---- ids and bodies -------------------------------------------------------------------

/** "contact_12" → { table: "contact_messages", id: 12 }; anything else is refused. */
export function parseSubmissionId(value: string): { table: SubmissionTable; id: number } | null {
  const m = /^(contact|cpa|homeowner|application)_([1-9]\d{0,9})$/.exec(value);
  if (!m) return null;
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) return null;
  const table = SUBMISSION_TABLES.find((t) => SOURCES[t].prefix === `${m[1]}_`)!;
  return { table, id };
}

export const submissionIdSchema = z.string({ error: MESSAGES.badId }).transform((v, ctx) => {
  const parsed = parseSubmissionId(v);
  if (!parsed) {
    ctx.addIssue({ code: "custom", message: MESSAGES.badId });
    return z.NEVER;
  }
  return parsed;
});

export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES, { error: MESSAGES.badStatus });

/** PUT /api/admin/forms (= /.netlify/functions/admin-forms): body id (prefixed) and status. */
export const statusChangeSchema = z.object({ id: submissionIdSchema, status: submissionStatusSchema }, { error: MESSAGES.badBody });

const rowIds = z
  .array(
    z.number({ error: "Ids must be whole numbers" }).int("Ids must be whole numbers").min(1, "Ids must be positive").max(2_147_483_647),
    {
      error: "Each table's ids must be a list of numbers",
    },
  )
  .max(1000, MESSAGES.tooMany)
  .optional()
  .default([]);

/** DELETE /api/admin/forms: body idsByTable with arrays of numeric ids per table. */
export const bulkDeleteSchema = z.object({
  idsByTable: z
    .object(
      {
        contact_messages: rowIds,
        cpa_requests: rowIds,
        homeowner_material_requests: rowIds,
        applications: rowIds,
      },
      { error: "idsByTable must be an object of id lists" },
    )
    .strict()
    .refine((v) => Object.values(v).some((ids) => ids.length > 0), MESSAGES.nothingToDelete)
    .refine((v) => Object.values(v).reduce((n, ids) => n + ids.length, 0) <= 1000, MESSAGES.tooMany),
});
export type IdsByTable = Record<SubmissionTable, number[]>;

// ---- answers --------------------------------------------------------------------------

/** One row of the unified list (admin-side spec, section 3). */
export interface SubmissionSummary {
  /** Prefixed by source: contact_, cpa_, homeowner_, application_ */
  id: string;
  table: SubmissionTable;
  rowId: number;
  type: SubmissionType;
  formType: FormType;
  submissionDate: string;
  status: SubmissionStatus;
  applicantName: string;
  applicantEmail: string;
  applicantPhone?: string;
  /** Full details text; the table shows `shortDetails(details)`. */
  details: string;
  coverageAmount?: string;
  /** The staff member the submission is assigned to; absent when nobody is. */
  assignedTo?: Assignee;
}

/** A staff member, as the inbox names them. */
export interface Assignee {
  id: number;
  name: string;
}

export interface SubmissionsPagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface SubmissionsPage {
  success: true;
  submissions: SubmissionSummary[];
  pagination: SubmissionsPagination;
}

export interface SubmissionField {
  /** The stored column. */
  key: string;
  label: string;
  value: string | number | boolean | null;
}

export interface SignatureImage {
  key: string;
  label: string;
  /** A PNG data URL (data:image/png;base64,...). */
  dataUrl: string;
}

/**
 * What staff wrote about a submission: an internal note (never shown to the sender), or an
 * e-mail reply sent to the sender from the detail dialog, with its subject and address.
 */
export interface SubmissionNote {
  id: number;
  kind: "note" | "reply";
  author: string | null;
  /** A reply's subject ("To: address" is in `to`); null for a note. */
  subject: string | null;
  to: string | null;
  body: string;
  createdAt: string;
}

/** One status change of a submission, from the audit log. */
export interface StatusChange {
  from: SubmissionStatus;
  to: SubmissionStatus;
  by: string | null;
  at: string;
}

/** GET /api/admin/submissions/:id: every stored field, the signature images, the notes and the status history. */
export interface SubmissionDetail extends SubmissionSummary {
  fields: SubmissionField[];
  signatures: SignatureImage[];
  /** Oldest first. */
  notes: SubmissionNote[];
  /** Oldest first. */
  history: StatusChange[];
  /** Where a reply goes: the sender's e-mail when the site can send mail, else null (no reply form). */
  replyTo: string | null;
  /** The active staff members it can be assigned to, by name. */
  assignees: Assignee[];
  /** Applications only: the member it became (or was linked to), and when the welcome e-mail went out. */
  membership?: { member: { id: number; certificate: string } | null; welcomeSentAt: string | null };
}

export const MAX_NOTE_LENGTH = 4000;
export const NOTE_MESSAGES = {
  required: "Write a note first",
  tooLong: `A note can be at most ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters`,
} as const;

/** POST /api/admin/submissions/:id/notes. */
export const noteSchema = z.object(
  {
    body: multiLineString("Note", NOTE_MESSAGES.required)
      .transform((v) => v.trim())
      .pipe(z.string().min(1, NOTE_MESSAGES.required).max(MAX_NOTE_LENGTH, NOTE_MESSAGES.tooLong)),
  },
  { error: MESSAGES.badBody },
);

export const MAX_REPLY_SUBJECT = 200;
export const MAX_REPLY_LENGTH = 10_000;
export const REPLY_MESSAGES = {
  subjectRequired: "Subject is required",
  subjectTooLong: `Subject can be at most ${MAX_REPLY_SUBJECT} characters`,
  messageRequired: "Write a message first",
  messageTooLong: `A message can be at most ${MAX_REPLY_LENGTH.toLocaleString("en-US")} characters`,
  mailOff: "E-mail is not set up on this site",
  noAddress: "This submission has no e-mail address to reply to",
  notSent: "The e-mail could not be sent. Please try again later.",
  tooMany: (retryAfterSeconds: number) =>
    `Too many e-mails in a short time. Please wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"} and send it again.`,
} as const;

/** POST /api/admin/submissions/:id/reply. */
export const replySchema = z.object(
  {
    subject: oneLineString("Subject", REPLY_MESSAGES.subjectRequired)
      .transform((v) => v.trim())
      .pipe(z.string().min(1, REPLY_MESSAGES.subjectRequired).max(MAX_REPLY_SUBJECT, REPLY_MESSAGES.subjectTooLong)),
    message: multiLineString("Message", REPLY_MESSAGES.messageRequired)
      .transform((v) => v.trim())
      .pipe(z.string().min(1, REPLY_MESSAGES.messageRequired).max(MAX_REPLY_LENGTH, REPLY_MESSAGES.messageTooLong)),
  },
  { error: MESSAGES.badBody },
);

/** PUT /api/admin/submissions/:id/assignee: a staff member's user id, or null to unassign. */
export const assignSchema = z.object(
  {
    userId: z
      .number({ error: MESSAGES.badAssignee })
      .int(MESSAGES.badAssignee)
      .min(1, MESSAGES.badAssignee)
      .max(2_147_483_647, MESSAGES.badAssignee)
      .nullable(),
  },
  { error: MESSAGES.badAssignBody },
);

export interface AssignAnswer {
  success: true;
  assignedTo: Assignee | null;
}

export interface NoteAnswer {
  success: true;
  note: SubmissionNote;
}

export interface SubmissionDetailAnswer {
  success: true;
  submission: SubmissionDetail;
}

export interface StatusChangeAnswer {
  success: true;
  ok: true;
  id: string;
  status: SubmissionStatus;
}

export interface BulkDeleteAnswer {
  success: true;
  ok: true;
  deleted: number;
}

/** GET /api/admin/forms and /.netlify/functions/admin-forms: every stored row of the four tables. */
export interface LegacyFormsAnswer {
  ok: boolean;
  error: string | null;
  contact_messages: Array<Record<string, unknown>>;
  cpa_requests: Array<Record<string, unknown>>;
  homeowner_material_requests: Array<Record<string, unknown>>;
  applications: Array<Record<string, unknown>>;
}

/** Columns of the CSV export, in order. */
export const EXPORT_COLUMNS = [
  "id",
  "type",
  "formType",
  "submissionDate",
  "status",
  "applicantName",
  "applicantEmail",
  "applicantPhone",
  "coverageAmount",
  "details",
] as const;

export function exportFileName(now = new Date()): string {
  return `submissions-${todayUtc(now)}.csv`;
}

/** The list call's query string (GET /api/admin/submissions): every parameter spelled out; the export's without page and limit. */
export function listSearchParams(q: SubmissionQuery, { paged = true } = {}): URLSearchParams {
  const out = new URLSearchParams({ search: q.search, type: q.type, status: q.status, sort: q.sort });
  if (q.assigned !== "all") out.set("assigned", q.assigned);
  if (paged) {
    out.set("page", String(q.page));
    out.set("limit", String(q.limit));
  }
  return out;
}

/** Prefixed ids ("cpa_3", "application_9") grouped as the DELETE call's idsByTable. */
export function idsByTableOf(ids: Iterable<string>): IdsByTable {
  const out: IdsByTable = { contact_messages: [], cpa_requests: [], homeowner_material_requests: [], applications: [] };
  for (const value of ids) {
    const parsed = parseSubmissionId(value);
    if (parsed) out[parsed.table].push(parsed.id);
  }
  return out;
}
