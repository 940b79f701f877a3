/**
 * Login input rules of the spec (public-side section 5), shared by the login form and the
 * server so both agree on what a member's "password" is.
 */

/** Certificate numbers are trimmed and upper-cased. */
export function normalizeCertificate(value: string): string {
  return value.trim().toUpperCase();
}

/**
 * What a new certificate number may be made of, once normalized: letters, digits and "-" (as
 * the spec's AHA100001), nothing else. Every place that creates one checks it (member import,
 * the command line; CERTIFICATE_FORMAT allows the same).
 */
export const isCertificateNumber = (normalized: string) => /^[A-Z0-9-]+$/.test(normalized);

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

/**
 * The birthdate field's input mask: MMDDYY, at most 8 characters (MMDDYYYY fits too).
 * Separators are dropped as they are typed, so 05/17/1980 becomes 05171980 (normalized to
 * 051780) instead of being cut to "05/17/19" by the 8-character limit.
 */
export const BIRTHDATE_MAX_LENGTH = 8;
export function maskBirthdateInput(value: string): string {
  return value.replace(/\D/g, "").slice(0, BIRTHDATE_MAX_LENGTH);
}

/**
 * The mask applied to text being edited: the masked value and where the caret goes (after
 * the digits that stood before it), so a separator typed mid-field does not throw the caret
 * to the end.
 */
export function maskBirthdateEdit(value: string, caret: number): { value: string; caret: number } {
  const masked = maskBirthdateInput(value);
  return { value: masked, caret: Math.min(value.slice(0, caret).replace(/\D/g, "").length, masked.length) };
}

/**
 * Pasted text as the mask's digits. A date written year first (1980-05-17, the one dashed
 * form the normalization reads) is put in the mask's order (051780); anything else keeps its
 * digits in order (05/17/1980, 05-17-1980 and 05.17.1980 give 05171980).
 */
export function birthdateFromPaste(text: string): string {
  const trimmed = text.trim();
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(trimmed)) return normalizeBirthdate(trimmed);
  return trimmed.replace(/\D/g, "");
}

/** A normalized member password is exactly six digits. */
export const isNormalizedBirthdate = (value: string) => /^\d{6}$/.test(value);
