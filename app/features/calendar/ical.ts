import type { MaintenanceTask } from "./tasks";

/**
 * iCalendar (RFC 5545) for the maintenance tasks. Written here rather than with the `ics`
 * package because that one folds lines by characters, not octets, and so breaks the 75-octet
 * rule (and can split a character) as soon as a title has a non-ASCII letter.
 */

const CRLF = "\r\n";
const MAX_OCTETS = 75;
export const ICS_PRODID = "-//American Homeowners Association//Home Maintenance Calendar//EN";
export const ICS_UID_DOMAIN = "maintenance.aha-homeowners.org";

/** TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma and newlines. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n")
      // Other control characters (all but tab) are not allowed in TEXT.
      .replace(/[^\P{Cc}\t]/gu, "")
  );
}

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/**
 * Folds a content line into pieces of at most 75 octets (RFC 5545 3.1): every continuation
 * starts with one space, which counts toward its 75. A character is never split.
 */
export function foldLine(line: string): string {
  if (utf8Length(line) <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  let limit = MAX_OCTETS;
  for (const ch of line) {
    const size = utf8Length(ch);
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
      limit = MAX_OCTETS - 1;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** UTC date-time in the basic format: 20250104T093000Z. */
export function formatUtc(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

const basicDate = (iso: string) => iso.replace(/-/g, "");

function nextDay(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return next.toISOString().slice(0, 10);
}

/** A stable UID per task and year: re-importing the file updates events instead of duplicating them. */
export function taskUid(task: MaintenanceTask): string {
  return `${task.id}-${task.date.slice(0, 4)}@${ICS_UID_DOMAIN}`;
}

function eventLines(task: MaintenanceTask, stamp: string): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${taskUid(task)}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${basicDate(task.date)}`,
    `DTEND;VALUE=DATE:${basicDate(nextDay(task.date))}`,
    `SUMMARY:${escapeText(task.title)}`,
    `DESCRIPTION:${escapeText(task.tip)}`,
    `CATEGORIES:${escapeText(task.category)}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
  ];
}

/** A VCALENDAR with one all-day event per task. */
export function buildIcs(tasks: ReadonlyArray<MaintenanceTask>, now: Date = new Date()): string {
  const stamp = formatUtc(now);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${ICS_PRODID}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "X-WR-CALNAME:Home Maintenance Calendar",
    ...tasks.flatMap((t) => eventLines(t, stamp)),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

export function icsFileName(task?: MaintenanceTask): string {
  return task ? `${task.id}-${task.date.slice(0, 4)}.ics` : "home-maintenance-calendar.ics";
}
