/**
 * Calendar dates as the site writes them: YYYY-MM-DD, UTC, no time zone involved. Browser and
 * server alike.
 */

import { MONTH_NAMES } from "./month-names";

export { MONTH_NAMES };

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1-12) of a Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** The years a day written YYYY-MM-DD can hold. */
export const FIRST_YEAR = 0;
export const LAST_YEAR = 9999;

/**
 * The YYYY-MM-DD of a day (month 1-12). A year that four digits cannot hold is refused
 * (RangeError), never written as garbage that sorts and reads as another day.
 */
export function isoDate(year: number, month: number, day: number): string {
  if (!Number.isInteger(year) || year < FIRST_YEAR || year > LAST_YEAR)
    throw new RangeError(`The year ${year} cannot be written as a day YYYY-MM-DD`);
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

/** The year, month (1-12) and day of a day written YYYY-MM-DD; anything else is refused (RangeError). */
export function dayParts(day: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`Not a day written YYYY-MM-DD: ${JSON.stringify(String(day).slice(0, 24))}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * The day `n` days after (or before, when negative) `day`. Years 0 to 99 are those years (not
 * 1900 to 1999, as Date.UTC reads them); a day past 9999-12-31 or before 0000-01-01 is refused.
 */
export function addDays(day: string, n: number): string {
  const [y, m, d] = dayParts(day);
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d + n);
  return isoDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
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

/**
 * An instant as staff read it, in the association's zone with the zone named, e.g.
 * "Nov 23, 2026, 2:29 PM EST" (issue 48: one screen never shows two zones); null when there is none.
 */
export function formatZonedDateTime(value: string | null | undefined, timeZone: string): string | null {
  const date = instant(value);
  return date ? formatter("zoned", timeZone).format(date) : null;
}

/** The year (four digits) it is in `timeZone` at `now`. */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return Number(wallTimeIn(now, timeZone).slice(0, 4));
}

// Building an Intl formatter costs far more than using one (toLocaleString builds one per
// call): each is made once per time zone. A page of cards formats dozens of dates.
const formatters = new Map<string, Intl.DateTimeFormat>();
const STYLES: Record<"dateTime" | "day" | "zoned", Intl.DateTimeFormatOptions> = {
  day: { dateStyle: "medium" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  // dateStyle and timeStyle cannot name the zone: the same fields written out, and its short name.
  zoned: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
};
function formatter(style: keyof typeof STYLES, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${style} ${timeZone ?? ""}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat("en-US", { ...STYLES[style], timeZone });
    formatters.set(key, made);
  }
  return made;
}

/** The wall-clock time ("YYYY-MM-DDTHH:mm") an instant reads in `timeZone`. */
export function wallTimeIn(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The instant a wall-clock time ("YYYY-MM-DDTHH:mm") names in `timeZone`. A time the clocks
 * skip (spring forward) is read as the same time before the change, an hour later on the
 * clock; a time they pass twice (fall back), the first of the two.
 */
export function instantOfWallTime(wallTime: string, timeZone: string): Date {
  const [day, time] = wallTime.split(/[T ]/);
  const [y, mo, d] = dayParts(day);
  const [h, mi] = time.split(":").map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const offsetAt = (ms: number) => {
    const [wd, wt] = wallTimeIn(new Date(ms), timeZone).split("T");
    const [wy, wmo, wdd] = dayParts(wd);
    const [wh, wmi] = wt.split(":").map(Number);
    return Date.UTC(wy, wmo - 1, wdd, wh, wmi) - ms;
  };
  // The offset before the time, then checked at the answer: two readings settle any change.
  const first = asUtc - offsetAt(asUtc - 86_400_000);
  const second = asUtc - offsetAt(first);
  const wanted = `${day}T${time}`;
  if (wallTimeIn(new Date(second), timeZone) === wanted) return new Date(second);
  return new Date(first);
}
