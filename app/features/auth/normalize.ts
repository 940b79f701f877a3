/**
 * Login input rules of the spec (public-side section 5), shared by the login form and the
 * server so both agree on what a member's "password" is.
 */

/** Certificate numbers are trimmed and upper-cased. */
export function normalizeCertificate(value: string): string {
  return value.trim().toUpperCase();
}

/**
 * The birthdate becomes MMDDYY:
 * - with dashes and three parts (YYYY-MM-DD): month and day padded to 2 digits, then the
 *   last two digits of the first part (the year);
 * - otherwise non-digits are stripped, and 8 remaining digits (MMDDYYYY) keep the first
 *   four and the last two, dropping the century.
 */
export function normalizeBirthdate(value: string): string {
  const raw = value.trim();
  if (raw.includes("-")) {
    const parts = raw.split("-");
    if (parts.length === 3) {
      const [year, month, day] = parts;
      return month.padStart(2, "0") + day.padStart(2, "0") + year.slice(-2);
    }
  }
  const digits = raw.replace(/\D/g, "");
  if (digits.length === 8) return digits.slice(0, 4) + digits.slice(-2);
  return digits;
}

/** The birthdate field's input mask: digits and slashes, at most 8 characters (MMDDYY, MM/DD/YY, MMDDYYYY). */
export const BIRTHDATE_MAX_LENGTH = 8;
export function maskBirthdateInput(value: string): string {
  return value.replace(/[^\d/]/g, "").slice(0, BIRTHDATE_MAX_LENGTH);
}

/** A normalized member password is exactly six digits. */
export const isNormalizedBirthdate = (value: string) => /^\d{6}$/.test(value);
