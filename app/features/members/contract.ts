/**
 * What crosses the wire for member administration (/admin/members and /api/admin/...): the
 * zod schemas the server validates with and the browser checks forms with, the JSON answer
 * types, and the messages both show. Imported by server and browser code alike.
 */
import { recordIdSchema } from "~/platform/ids";
import { AUDIT_ACTIONS, type AuditEntry } from "~/domain/audit";
import { z } from "~/platform/zod";
import { todayUtc } from "~/platform/dates";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type Pagination } from "~/platform/paging";
import { holdsWebOrMailAddress, isOneLine, notANameMessage } from "~/platform/text-fields";
import { contactDetailsSchema } from "~/features/account/contract";
import { DATE_FORMATS_TEXT, parseBirthdate } from "~/features/member-import/birthdate";
import { COVERAGE_KINDS, type CoverageCounts, type CoverageSummary } from "~/features/membership/statuses";
import type { StaffPermission } from "~/features/auth/staff-permissions";

export const MIN_STAFF_PASSWORD_LENGTH = 12;

export const MEMBER_STATUSES = ["all", "active", "inactive"] as const;
export type MemberStatusFilter = (typeof MEMBER_STATUSES)[number];

export const MEMBER_SORTS = ["certificate_number", "name", "last_login_at", "created_at"] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export const STAFF_ROLES = ["limited_admin", "super_admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const ROLE_LABELS: Record<StaffRole, string> = { limited_admin: "Limited admin", super_admin: "Super admin" };

export const MESSAGES = {
  memberNotFound: "Member not found",
  staffNotFound: "Staff account not found",
  usernameTaken: "That username is already taken.",
  coreAdmin: "A core admin can be neither demoted nor removed.",
  lastSuperAdmin: "The last super admin can be neither demoted nor removed.",
  notYourself: "You cannot demote or remove your own account.",
  passwordTooShort: `Password must be at least ${MIN_STAFF_PASSWORD_LENGTH} characters`,
  badUsername: "Username must be 3-64 letters, digits, dots, dashes, underscores or @",
  badCharacters: "Search contains characters that are not allowed",
  badId: "Invalid id",
  badBirthdate: `Birthdate must be a real date written ${DATE_FORMATS_TEXT}`,
  futureBirthdate: "Birthdate cannot be in the future",
} as const;

// Control characters have no business in a search or a name; they would only hide what was typed.
const CONTROL = /\p{Cc}/u;

const intParam = (fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "Must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .optional()
    .transform((v) => v ?? fallback);

const searchParam = z
  .string()
  .max(100, "Search must be at most 100 characters")
  .refine((v) => !CONTROL.test(v), MESSAGES.badCharacters)
  .transform((v) => v.trim())
  .optional()
  .transform((v) => v ?? "");

/** GET /api/admin/members and /api/admin/members/export (query string). */
export const memberQuerySchema = z.object({
  q: searchParam,
  status: z.enum(MEMBER_STATUSES, { error: "Status must be all, active or inactive" }).optional().default("all"),
  /** The coverage status (computed on the association's calendar day); absent: every status. */
  coverage: z.enum(COVERAGE_KINDS, { error: `Coverage must be one of ${COVERAGE_KINDS.join(", ")}` }).optional(),
  sort: z.enum(MEMBER_SORTS, { error: "Unknown sort column" }).optional().default("certificate_number"),
  dir: z.enum(["asc", "desc"], { error: "Direction must be asc or desc" }).optional().default("asc"),
  page: intParam(1, 1_000_000),
  pageSize: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]], { error: `Page size must be one of ${PAGE_SIZES.join(", ")}` })
    .optional()
    .transform((v) => (v ? Number(v) : DEFAULT_PAGE_SIZE)),
});
export type MemberQuery = z.infer<typeof memberQuerySchema>;

/** An id in a path: digits only, so "1e3", "-1" or "0x10" never reach the database. */
export const idParamSchema = recordIdSchema(MESSAGES.badId);

/** PATCH /api/admin/members/:id */
export const memberStatusSchema = z.object({ is_active: z.boolean({ error: "is_active must be true or false" }) }).strict();

/** A name: blank is "none" (null); trimmed, one line, at most 100 characters, no web or e-mail address. */
const nameField = (label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? v.trim() : v),
    z
      .string(`${label} must be text.`)
      .max(100, `${label} must be at most 100 characters.`)
      .refine(isOneLine, `${label} contains characters that are not allowed.`)
      .refine((v) => !holdsWebOrMailAddress(v), notANameMessage(label))
      .nullable(),
  );

/**
 * A new birthdate, in the upload's formats; blank keeps the one on file. Only its keyed digest
 * is stored, so the form never shows the current one.
 */
const newBirthdateField = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v),
  z
    .string("Birthdate must be text.")
    .max(10, MESSAGES.badBirthdate)
    .superRefine((value, ctx) => {
      const parsed = parseBirthdate(value, todayUtc());
      if (parsed.ok) return;
      ctx.addIssue({ code: "custom", message: parsed.reason === "future" ? MESSAGES.futureBirthdate : MESSAGES.badBirthdate });
    })
    .optional(),
);

/** PUT /api/admin/members/:id: the member's name, contact details and (optionally) a new birthdate. */
export const memberEditSchema = contactDetailsSchema
  .extend({ first_name: nameField("First name"), last_name: nameField("Last name"), birthdate: newBirthdateField })
  .strict();
export type MemberEditInput = z.output<typeof memberEditSchema>;
/** The fields an edit can change, as the audit log names them (the birthdate by name only, never its value). */
export const MEMBER_EDIT_FIELDS = [
  "first_name",
  "last_name",
  "birthdate",
  "email",
  "phone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
] as const;

const usernameField = z
  .string({ error: "Username is required" })
  .trim()
  .min(1, "Username is required")
  .regex(/^[a-z0-9._@-]{3,64}$/i, MESSAGES.badUsername);
const passwordField = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .min(MIN_STAFF_PASSWORD_LENGTH, MESSAGES.passwordTooShort)
  .max(200, "Password must be at most 200 characters");
const roleField = z.enum(STAFF_ROLES, { error: "Role must be limited_admin or super_admin" });

/** POST /api/admin/staff */
export const createStaffSchema = z.object({ username: usernameField, role: roleField, password: passwordField }).strict();
export type CreateStaffInput = z.infer<typeof createStaffSchema>;
/** PATCH /api/admin/staff/:id */
export const changeRoleSchema = z.object({ role: roleField }).strict();
/** POST /api/admin/staff/:id/password */
export const resetPasswordSchema = z.object({ password: passwordField }).strict();
/**
 * PUT /api/admin/staff/:id/settings: the staff member's own e-mail address (where an
 * announcement's Send test goes; blank is none) and, for a limited admin, whether they may
 * write and send announcements (a super admin always may).
 */
export const staffSettingsSchema = z
  .object({
    email: contactDetailsSchema.shape.email,
    announcements: z.boolean({ error: "announcements must be true or false" }),
  })
  .strict();
export type StaffSettingsInput = z.input<typeof staffSettingsSchema>;
/** The Staff tab's settings dialog: the same fields; the permission's checkbox posts "on" when ticked, nothing when not. */
export const staffSettingsFormSchema = staffSettingsSchema.extend({
  announcements: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
});
export type StaffSettings = z.output<typeof staffSettingsSchema>;

/** GET /api/admin/audit (query string). */
export const auditQuerySchema = z.object({
  actorId: idParamSchema.optional(),
  action: z.enum(AUDIT_ACTIONS, { error: "Unknown action" }).optional(),
  page: intParam(1, 1_000_000),
  pageSize: z
    .enum(PAGE_SIZES.map(String) as [string, ...string[]], { error: `Page size must be one of ${PAGE_SIZES.join(", ")}` })
    .optional()
    .transform((v) => (v ? Number(v) : DEFAULT_PAGE_SIZE)),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** A member as the admin table shows it: never a birthdate or its digest. */
export interface MemberRow {
  id: number;
  certificate_number: string;
  first_name: string | null;
  last_name: string | null;
  is_active: boolean;
  last_login_at: string | null;
  created_at: string;
  /** Contact details the member keeps on their account page. */
  email: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  /** The application this member was made from or linked to (the lowest, if several). */
  application_id: number | null;
  /** The member's coverage today (computed, never stored). */
  coverage: CoverageSummary;
}

export interface StaffRow {
  id: number;
  username: string;
  role: StaffRole;
  is_active: boolean;
  is_core_admin: boolean;
  last_login_at: string | null;
  created_at: string;
  /** The staff member's own address (Send test of an announcement), or null. */
  email: string | null;
  /** What a super admin allowed this limited admin beyond the role (a super admin may everything). */
  permissions: StaffPermission[];
}

export interface MembersPage {
  success: true;
  members: MemberRow[];
  pagination: Pagination;
  /** How many members the search and the active filter match in each coverage status (before the coverage filter). */
  coverageCounts: CoverageCounts;
  /** The association's calendar day the statuses are computed for. */
  coverageDay: string;
}
export interface MemberAnswer {
  success: true;
  member: MemberRow;
}
export interface StaffList {
  success: true;
  staff: StaffRow[];
}
export interface StaffAnswer {
  success: true;
  staff: StaffRow;
}
export interface AuditPage {
  success: true;
  entries: AuditEntry[];
  pagination: Pagination;
  /** Everyone who appears in the log, for the person filter. */
  actors: Array<{ id: number; label: string }>;
}

/** Columns of the CSV export, in order. */
/**
 * The members export's columns. Those added later come last, so a spreadsheet built on the
 * earlier file keeps its columns; plan and coverage_amount are written as the member import
 * reads them (monthly or annual, dollars like 250000.00).
 */
export const EXPORT_COLUMNS = [
  "certificate_number",
  "first_name",
  "last_name",
  "email",
  "status",
  "coverage_status",
  "paid_through",
  "last_login_at",
  "created_at",
  "phone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
  "plan",
  "coverage_amount",
] as const;

export function exportFileName(now = new Date()): string {
  return `members-${todayUtc(now)}.csv`;
}
