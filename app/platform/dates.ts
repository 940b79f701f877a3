/**
 * Calendar dates as the site writes them: YYYY-MM-DD, UTC, no time zone involved. Browser and
 * server alike.
 */

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1-12) of a Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** The YYYY-MM-DD of a day (month 1-12). */
export function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

/** A calendar date written YYYY-MM-DD that exists (no 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Today's date in UTC, YYYY-MM-DD. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A stored instant read as a Date, or null when it is missing or not a date. */
function instant(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * An instant for people, e.g. "Nov 23, 2026, 2:29 PM", in `timeZone` (the reader's own when
 * omitted); null when there is none, so each screen says what it shows instead ("Never").
 */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string | null {
  const date = instant(value);
  return date ? formatter("dateTime", timeZone).format(date) : null;
}

/** The day of an instant for people, e.g. "Nov 23, 2026", in `timeZone` (the reader's own when omitted); null when there is none. */
export function formatDay(value: string | null | undefined, timeZone?: string): string | null {
  const date = instant(value);
  return date ? formatter("day", timeZone).format(date) : null;
}

// Building an Intl formatter costs far more than using one (toLocaleString builds one per
// call): each is made once per time zone. A page of cards formats dozens of dates.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: "dateTime" | "day", timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${style} ${timeZone ?? ""}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(
      "en-US",
      style === "day" ? { dateStyle: "medium", timeZone } : { dateStyle: "medium", timeStyle: "short", timeZone },
    );
    formatters.set(key, made);
  }
  return made;
}
