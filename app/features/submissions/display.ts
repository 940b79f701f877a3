/**
 * How staff read a stored submission value in the table and the detail dialog: phones as
 * (XXX) XXX-XXXX, coverage as USD, a contact subject and a beneficiary relationship by their
 * labels, dates and times in the reader's own time zone. Pure: browser and tests alike.
 */
import { formatCoverage, formatPhone, RELATIONSHIP_OPTIONS } from "~/features/applications/contract";
import type { SubmissionField, SubmissionTable } from "./contract";
import { subjectLabel } from "./schemas";

const DATE_TIME_COLUMNS = new Set(["submitted_at", "updated_at"]);
/** Calendar dates stored as YYYY-MM-DD: no time zone may move them to another day. */
const DATE_COLUMNS = new Set(["dob", "co_dob", "todays_date", "cc_process_date"]);
const PHONE_COLUMNS = new Set(["phone", "co_phone", "beneficiary_phone"]);

/** "2026-11-23T19:29:12.466Z" as "Nov 23, 2026, 2:29 PM" in the reader's zone; anything else as stored. */
export function formatDateTime(value: string, timeZone?: string): string {
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime())) return value;
  return d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone });
}

/** When a submission arrived, date and time; an invalid date shows 'Recent' as in the table. */
export function formatSubmittedAt(value: string, timeZone?: string): string {
  const shown = formatDateTime(value, timeZone);
  return shown === value ? "Recent" : shown;
}

/** "1980-04-02" as "Apr 2, 1980"; anything else as stored. */
export function formatCalendarDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCDate() !== Number(m[3])) return value;
  return d.toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" });
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
  if (DATE_TIME_COLUMNS.has(key)) return formatDateTime(text, timeZone);
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
