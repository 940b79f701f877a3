import { holdsWebOrMailAddress, stripControlChars } from "~/platform/text-fields";
import type { MergeField } from "./contract";

/** A member's values for the merge fields, as the database has them. */
export interface MergeValues {
  firstName: string | null;
  /** YYYY-MM-DD, or null (no payment yet). */
  paidThrough: string | null;
  certificateNumber: string | null;
}

const LONG_DAY = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * One merge value as it may go into a mail: one line (CR, LF, U+2028 and every other control
 * or format character become a space), at most 100 characters, and never a web or mail
 * address: a member's own name cannot add a header, a line or a link the text did not have.
 */
export function safeValue(value: string | null | undefined, fallback: string): string {
  const oneLine = stripControlChars(value ?? "", { replacement: " " })
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
  if (!oneLine || holdsWebOrMailAddress(oneLine)) return fallback;
  return oneLine;
}

export function mergeValues(values: MergeValues): Record<MergeField, string> {
  return {
    first_name: safeValue(values.firstName, "Member"),
    paid_through: values.paidThrough ? LONG_DAY.format(new Date(`${values.paidThrough}T00:00:00Z`)) : "not yet paid",
    membership_id: safeValue(values.certificateNumber, "not on record"),
  };
}

/** The text with each {field} replaced by the member's value (fields are checked before: an unknown one stays as written). */
export function fillIn(text: string, values: Record<MergeField, string>): string {
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => (name in values ? values[name as MergeField] : whole));
}

/** The foot every announcement ends with: how to stop them, by one click. */
export function unsubscribeFoot(orgName: string, unsubscribeUrl: string): string {
  return [
    "--",
    `You receive this as a member of ${orgName}.`,
    `To stop announcements, open: ${unsubscribeUrl}`,
    "Reminders and receipts about your own coverage are still sent.",
  ].join("\n");
}

/** An announcement as one member reads it: subject on one line, the body with its foot. */
export function renderAnnouncement(
  announcement: { subject: string; body: string },
  values: MergeValues,
  foot: { orgName: string; unsubscribeUrl: string } | null,
): { subject: string; text: string } {
  const filled = mergeValues(values);
  // The subject is staff's own line (checked one line when saved); the values put in it are one line too.
  const subject = fillIn(announcement.subject, filled).replace(/\s+/g, " ").trim();
  const body = fillIn(announcement.body.replace(/\r\n?/g, "\n"), filled).trimEnd();
  return { subject, text: foot ? `${body}\n\n${unsubscribeFoot(foot.orgName, foot.unsubscribeUrl)}\n` : `${body}\n` };
}
