import { z } from "~/platform/zod";
import { LIMITS, type CaseApplicant } from "./contract";
import { digitsOnly, formatPhone, parseDollars } from "~/domain/formats";
import { GENDER_OPTIONS, type Gender } from "~/domain/people";
import { stripControlChars } from "~/platform/text-fields";

/**
 * Case lookup answers (public-side spec, sections 3 and 7) turned into what the form needs.
 * Accepted shapes: {success, applicant:{...}}, {ok, data:{...}}, or the fields directly when
 * firstName or applicantFirst is among them. Anything else means not found. Each value is
 * kept only when it makes sense for its field; other fields are never passed on.
 */

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);

/** The record inside a lookup answer, or null when the answer says "not found". */
export function caseRecordFromAnswer(answer: unknown): Loose | null {
  if (!isObject(answer)) return null;
  if (answer.success && isObject(answer.applicant)) return answer.applicant;
  if (answer.ok && isObject(answer.data)) return answer.data;
  if ("firstName" in answer || "applicantFirst" in answer) return answer;
  return null;
}

/** A lookup answer as the form's fields; null when not found. */
export function applicantFromAnswer(answer: unknown): CaseApplicant | null {
  const record = caseRecordFromAnswer(answer);
  return record ? pickApplicant(record) : null;
}

/** One line of text: trimmed, control characters removed, cut to max; numbers become text. */
function line(value: unknown, max: number): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) value = String(value);
  if (typeof value !== "string") return undefined;
  const cleaned = stripControlChars(value, { replacement: " " }).replace(/\s+/g, " ").trim();
  return cleaned ? cleaned.slice(0, max) : undefined;
}

export function normalizeGender(value: unknown): Gender | undefined {
  const text = line(value, 40)?.toLowerCase();
  if (!text) return undefined;
  const exact = GENDER_OPTIONS.find((g) => g.toLowerCase() === text);
  if (exact) return exact;
  if (text === "f") return "Female";
  if (text === "m") return "Male";
  return undefined;
}

export function normalizeCoverage(value: unknown): string | undefined {
  const text = line(value, 30);
  if (!text) return undefined;
  const amount = parseDollars(text);
  return amount !== null && amount > 0 ? amount.toFixed(2) : undefined;
}

export function normalizeState(value: unknown): string | undefined {
  const text = line(value, 10);
  return text && /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : undefined;
}

export function normalizeZip(value: unknown): string | undefined {
  // A ZIP stored as a number has lost its leading zeros (06905 -> 6905).
  if (typeof value === "number" && Number.isInteger(value) && value > 0 && value < 100000) value = String(value).padStart(5, "0");
  const text = line(value, LIMITS.zip);
  return text && /^\d{5}(?:-\d{4})?$/.test(text) ? text : undefined;
}

export function normalizeEmail(value: unknown): string | undefined {
  const text = line(value, LIMITS.email);
  return text && z.email().safeParse(text).success ? text : undefined;
}

export function normalizePhone(value: unknown): string | undefined {
  const text = line(value, LIMITS.phone);
  if (!text) return undefined;
  const digits = digitsOnly(text);
  return digits.length >= 10 && digits.length <= 15 ? formatPhone(text) : undefined;
}

/** The form's fields from a case record, whichever of the spec's field names it uses. */
export function pickApplicant(record: Loose): CaseApplicant {
  const first = line(record.firstName ?? record.applicantFirst, LIMITS.name);
  const last = line(record.lastName ?? record.applicantLast, LIMITS.name);
  const joined = [first, last].filter(Boolean).join(" ");
  const out: CaseApplicant = {
    applicantName: line(record.applicantName, LIMITS.name) ?? (joined ? joined.slice(0, LIMITS.name) : undefined),
    coverage: normalizeCoverage(record.coverage ?? record.amountCoverage),
    email: normalizeEmail(record.email),
    phone: normalizePhone(record.phone),
    address1: line(record.address1 ?? record.address, LIMITS.address),
    city: line(record.city, LIMITS.city),
    state: normalizeState(record.state),
    zip: normalizeZip(record.zip),
    gender: normalizeGender(record.gender),
  };
  for (const key of Object.keys(out) as (keyof CaseApplicant)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** A case number as the lookup takes it: digits only, 5 to 20 of them. */
export function caseNumberFrom(value: string): string | null {
  return /^\d{5,20}$/.test(value) ? value : null;
}
