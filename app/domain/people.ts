import { dayParts, isIsoDate } from "~/platform/dates";

/** What the association asks of a person (an applicant, a co-insured): options and the rules of their dates. */

export const GENDER_OPTIONS = ["Female", "Male", "Other", "Prefer not to say"] as const;
export type Gender = (typeof GENDER_OPTIONS)[number];

export const RELATIONSHIP_OPTIONS = [
  { value: "spouse", label: "Spouse" },
  { value: "child", label: "Child" },
  { value: "parent", label: "Parent" },
  { value: "sibling", label: "Sibling" },
  { value: "other", label: "Other" },
] as const;
export type Relationship = (typeof RELATIONSHIP_OPTIONS)[number]["value"];

/** A calendar date written YYYY-MM-DD that exists, from 1900 on. */
export function isRealDate(value: string): boolean {
  return isIsoDate(value) && value >= "1900-01-01";
}

/** How far back a date of birth may go. */
export const MAX_AGE_YEARS = 120;

/**
 * What is wrong with a real YYYY-MM-DD date as a date of birth on `today` (YYYY-MM-DD), in
 * words that follow the field's label; null when it is fine.
 */
export function birthDateProblem(value: string, today: string): string | null {
  if (value > today) return "cannot be in the future.";
  const earliest = `${String(dayParts(today)[0] - MAX_AGE_YEARS).padStart(4, "0")}${today.slice(4)}`;
  if (value < earliest) return `must be within the last ${MAX_AGE_YEARS} years.`;
  return null;
}

/** The YYYY-MM-DD day `days` days after (or before) a YYYY-MM-DD day. */
export function shiftIsoDay(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * What is wrong with a real YYYY-MM-DD date as Today's Date on `today`, or null: it is today,
 * give or take a day (the visitor's day may be ahead of or behind the server's).
 */
export function todaysDateProblem(value: string, today: string): string | null {
  return value < shiftIsoDay(today, -1) || value > shiftIsoDay(today, 1) ? "must be today." : null;
}

/** Today in the visitor's own time zone, as the date input wants it. */
export function localIsoDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
