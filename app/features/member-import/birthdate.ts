/**
 * Birthdates in an uploaded CSV. Accepted formats (admin side, sections 5 and 9):
 * YYYY-MM-DD (preferred), MM/DD/YYYY, MM-DD-YYYY, YYYY/MM/DD; month and day may have one digit.
 */

import { dayParts, daysInMonth } from "~/platform/dates";

export const DATE_FORMATS_TEXT = "YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD";
export const EARLIEST_YEAR = 1900;

export type BirthdateResult =
  { ok: true; year: number; month: number; day: number } | { ok: false; reason: "format" | "impossible" | "future" | "too-old" };

/**
 * `today` is the UTC calendar date (YYYY-MM-DD) a birthdate may not be after. Read by hand,
 * one character at a time: an import checks up to a few hundred thousand of these.
 */
export function parseBirthdate(value: string, today: string): BirthdateResult {
  const raw = value.trim();
  const parts = [0, 0, 0];
  const lengths = [0, 0, 0];
  let part = 0;
  let separator = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++lengths[part] > 4) return FORMAT;
      parts[part] = parts[part] * 10 + (c - 48);
    } else if (c === 45 || c === 47) {
      // "-" or "/", the same one twice, each after some digits
      if (separator === 0) separator = c;
      else if (c !== separator) return FORMAT;
      if (lengths[part] === 0 || ++part > 2) return FORMAT;
    } else {
      return FORMAT;
    }
  }
  if (part !== 2) return FORMAT;
  let year: number, month: number, day: number;
  if (lengths[0] === 4 && lengths[1] <= 2 && lengths[2] >= 1 && lengths[2] <= 2) [year, month, day] = parts;
  else if (lengths[0] <= 2 && lengths[1] <= 2 && lengths[1] >= 1 && lengths[2] === 4) [month, day, year] = parts;
  else return FORMAT;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: "impossible" };
  if (year < EARLIEST_YEAR) return { ok: false, reason: "too-old" };
  if (year * 10000 + month * 100 + day > dayNumber(today)) return { ok: false, reason: "future" };
  return { ok: true, year, month, day };
}

const FORMAT: BirthdateResult = { ok: false, reason: "format" };

let lastToday = "";
let lastTodayNumber = 0;
/** "2024-06-15" -> 20240615, remembered for the run of calls with the same day. */
function dayNumber(today: string): number {
  if (today !== lastToday) {
    lastToday = today;
    const [y, m, d] = dayParts(today);
    lastTodayNumber = y * 10000 + m * 100 + d;
  }
  return lastTodayNumber;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** The member's password as login normalizes it (public side, section 5): MMDDYY. */
export function toMmddyy(year: number, month: number, day: number): string {
  return pad2(month) + pad2(day) + pad2(year % 100);
}
