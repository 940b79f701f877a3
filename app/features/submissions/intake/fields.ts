import { z } from "~/platform/zod";
import { multiLineString, oneLineString } from "~/platform/text-fields";

/**
 * Field builders shared by every public form's schema. Input may come from a JSON API call
 * (strings, null, missing) or from a posted form (strings, "" for blank): blank and null
 * are treated alike, text is trimmed, and every field has a length limit.
 */

const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);

const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

export interface TextOptions {
  /** A field of several lines (a message, notes): keeps newlines and tabs. Default: one line. */
  multiline?: boolean;
}

const textString = (label: string, typeError: string, opts: TextOptions) =>
  opts.multiline ? multiLineString(label, typeError) : oneLineString(label, typeError);

export function requiredText(label: string, max: number, requiredMessage: string, opts: TextOptions = {}) {
  return z.preprocess(
    blankToUndefined,
    textString(label, requiredMessage, opts).trim().min(1, requiredMessage).max(max, tooLong(label, max)),
  );
}

/** Optional text: blank or missing becomes null, as the database stores it. */
export function optionalText(label: string, max: number, opts: TextOptions = {}) {
  return z
    .preprocess(blankToUndefined, textString(label, `${label} must be text`, opts).trim().max(max, tooLong(label, max)).optional())
    .transform((v) => v ?? null);
}

export const EMAIL_MAX = 254;

export function requiredEmail() {
  return z.preprocess(
    blankToUndefined,
    oneLineString("Email address", "Please enter your email address")
      .trim()
      .max(EMAIL_MAX, tooLong("Email address", EMAIL_MAX))
      .pipe(z.email("Please enter a valid email address, like name@example.com")),
  );
}

export const PHONE_MAX = 30;
// Digits with the usual separators, an optional leading + and an optional extension.
const PHONE_PATTERN = /^\+?[\d\s().-]+(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;

export function optionalPhone() {
  return optionalText("Phone number", PHONE_MAX).refine((v) => v === null || isPhoneNumber(v), {
    message: "Please enter a valid phone number, like (555) 123-4567",
  });
}

export function isPhoneNumber(value: string) {
  if (!PHONE_PATTERN.test(value)) return false;
  const digits = value.replace(/(?:x|ext\.?)\s*\d+$/i, "").replace(/\D/g, "");
  return digits.length >= 7 && digits.length <= 15;
}

/** A US ZIP code of 5 or 9 digits ("06905", "06905-1234" or "069051234"), stored as 06905 or 06905-1234. */
export function optionalZip() {
  return optionalText("ZIP code", 10)
    .refine((v) => v === null || /^\d{5}(?:-?\d{4})?$/.test(v), {
      message: "Please enter a valid ZIP code, like 06905 or 06905-1234",
    })
    .transform((v) => (v && v.length === 9 ? `${v.slice(0, 5)}-${v.slice(5)}` : v));
}

/** A US state as its 2-letter code, stored upper-case ("ct" is CT). */
export function optionalStateCode() {
  // Room for a typed-out name, so it gets the 2-letter message rather than a length one.
  return optionalText("State", 20)
    .refine((v) => v === null || /^[A-Za-z]{2}$/.test(v), { message: "Please enter the 2-letter state code, like CT" })
    .transform((v) => v?.toUpperCase() ?? null);
}

export const MEMBER_ID_MAX = 30;

/** A membership ID is the certificate number: upper-cased, as at sign-in ("aha123" is AHA123). */
export function optionalMemberId() {
  return optionalText("Membership ID", MEMBER_ID_MAX)
    .refine((v) => v === null || /^[A-Za-z0-9-]+$/.test(v), {
      message: "Membership ID may contain only letters, numbers and dashes",
    })
    .transform((v) => v?.toUpperCase() ?? null);
}
