/**
 * How staff read a stored submission value in the table and the detail dialog: phones as
 * (XXX) XXX-XXXX, coverage as USD, a contact subject and a beneficiary relationship by their
 * labels, dates and times in the association's time zone (named) when given; the details column shortened the
 * postal way. Pure: browser and tests alike.
 */
import { formatCoverage, formatPhone } from "~/domain/formats";
import { RELATIONSHIP_OPTIONS } from "~/domain/people";
import { formatDateTime, formatDay, formatZonedDateTime } from "~/platform/dates";
import type { SubmissionField, SubmissionStatus, SubmissionTable } from "./contract";
import { subjectLabel } from "./intake/schemas";

const DATE_TIME_COLUMNS = new Set(["submitted_at", "updated_at"]);
/** Calendar dates stored as YYYY-MM-DD: no time zone may move them to another day. */
const DATE_COLUMNS = new Set(["dob", "co_dob", "todays_date", "cc_process_date"]);
const PHONE_COLUMNS = new Set(["phone", "co_phone", "beneficiary_phone"]);

/** "2026-11-23T19:29:12.466Z" as "Nov 23, 2026, 2:29 PM EST" in `timeZone`, named (the reader's zone when omitted); anything else as stored. */
export function formatStoredDateTime(value: string, timeZone?: string): string {
  const shown = timeZone ? formatZonedDateTime(value, timeZone) : formatDateTime(value);
  return (/^\d{4}-\d{2}-\d{2}T/.test(value) && shown) || value;
}

/** When a submission arrived, date and time; an invalid date shows 'Recent' as in the table. */
export function formatSubmittedAt(value: string, timeZone?: string): string {
  const shown = formatStoredDateTime(value, timeZone);
  return shown === value ? "Recent" : shown;
}

/** "1980-04-02" as "Apr 2, 1980"; anything else as stored. */
export function formatCalendarDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCDate() !== Number(m[3])) return value;
  return formatDay(d.toISOString(), "UTC") ?? value;
}

export function relationshipLabel(value: string): string {
  return RELATIONSHIP_OPTIONS.find((r) => r.value === value.trim().toLowerCase())?.label ?? value;
}

/** One field of the detail dialog, as staff read it; "—" when empty. */
export function displayFieldValue(table: SubmissionTable, field: Pick<SubmissionField, "key" | "value">, timeZone?: string): string {
  const { key, value } = field;
  if (value === null || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  const text = String(value);
  if (DATE_TIME_COLUMNS.has(key)) return formatStoredDateTime(text, timeZone);
  if (DATE_COLUMNS.has(key)) return formatCalendarDate(text);
  if (PHONE_COLUMNS.has(key)) return formatPhone(text);
  if (key === "amount_of_coverage") return formatCoverage(text);
  if (key === "beneficiary_relationship") return relationshipLabel(text);
  if (table === "contact_messages" && key === "subject") return subjectLabel(text);
  return text;
}

/**
 * An e-mail address cut into pieces with a break opportunity before "@" and each ".", so a
 * narrow column wraps it there rather than in the middle of the domain.
 */
export function emailBreakParts(email: string): string[] {
  return email.split(/(?=[@.])/);
}

/** Street and unit words shortened the postal way, so more of a details text fits in the column. */
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\bStreet\b/gi, "St"],
  [/\bAvenue\b/gi, "Ave"],
  [/\bBoulevard\b/gi, "Blvd"],
  [/\bDrive\b/gi, "Dr"],
  [/\bRoad\b/gi, "Rd"],
  [/\bLane\b/gi, "Ln"],
  [/\bCourt\b/gi, "Ct"],
  [/\bApartment\b/gi, "Apt"],
  [/\bSuite\b/gi, "Ste"],
  [/\bNumber\b/gi, "No."],
  [/\bInformation\b/gi, "Info"],
];

export const DETAILS_MAX = 80;
export const DETAILS_CUT = 77;

/** The details column: abbreviated, whitespace collapsed, cut to 77 characters plus '...' when over 80. */
export function shortDetails(text: string): string {
  let out = text.replace(/\s+/g, " ").trim();
  for (const [re, short] of ABBREVIATIONS) out = out.replace(re, short);
  const chars = Array.from(out);
  return chars.length > DETAILS_MAX ? `${chars.slice(0, DETAILS_CUT).join("")}...` : out;
}

/** The date column: the day a submission arrived in the reader's zone; an invalid date shows 'Recent'. */
export const formatSubmissionDate = (value: string | null | undefined, timeZone?: string): string => formatDay(value, timeZone) ?? "Recent";

/** Admin-side spec, section 4: pending yellow, in-review blue, approved green, rejected red, completed purple. */
export const STATUS_COLORS: Record<SubmissionStatus, { name: string; className: string }> = {
  pending: { name: "yellow", className: "bg-yellow-100 text-yellow-900 ring-yellow-300" },
  "in-review": { name: "blue", className: "bg-blue-100 text-blue-900 ring-blue-300" },
  approved: { name: "green", className: "bg-green-100 text-green-900 ring-green-300" },
  rejected: { name: "red", className: "bg-red-100 text-red-900 ring-red-300" },
  completed: { name: "purple", className: "bg-purple-100 text-purple-900 ring-purple-300" },
};
