/**
 * Birthdates in an uploaded CSV. Accepted formats (admin side, sections 5 and 9):
 * YYYY-MM-DD (preferred), MM/DD/YYYY, MM-DD-YYYY, YYYY/MM/DD; month and day may have one digit.
 */

export const DATE_FORMATS_TEXT = "YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD";
export const EARLIEST_YEAR = 1900;

export type BirthdateResult =
  | { ok: true; year: number; month: number; day: number }
  | { ok: false; reason: "format" | "impossible" | "future" | "too-old" };

const YEAR_FIRST = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})([-/])(\d{1,2})\2(\d{4})$/;

/** `today` is the UTC calendar date (YYYY-MM-DD) a birthdate may not be after. */
export function parseBirthdate(value: string, today: string): BirthdateResult {
  const raw = value.trim();
  let year: number, month: number, day: number;
  let m = YEAR_FIRST.exec(raw);
  if (m) {
    [year, month, day] = [Number(m[1]), Number(m[3]), Number(m[4])];
  } else if ((m = YEAR_LAST.exec(raw))) {
    [month, day, year] = [Number(m[1]), Number(m[3]), Number(m[4])];
  } else {
    return { ok: false, reason: "format" };
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: "impossible" };
  if (year < EARLIEST_YEAR) return { ok: false, reason: "too-old" };
  if (isoDate(year, month, day) > today) return { ok: false, reason: "future" };
  return { ok: true, year, month, day };
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

const pad2 = (n: number) => String(n).padStart(2, "0");

export function isoDate(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** The member's password as login normalizes it (public side, section 5): MMDDYY. */
export function toMmddyy(year: number, month: number, day: number): string {
  return pad2(month) + pad2(day) + pad2(year % 100);
}

export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
