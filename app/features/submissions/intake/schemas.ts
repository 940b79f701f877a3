import { z } from "~/platform/zod";
import { optionalMemberId, optionalPhone, optionalStateCode, optionalText, optionalZip, requiredEmail, requiredText } from "./fields";

/**
 * One schema per public form, used by the browser (instant messages), the page actions
 * (forms posted without JavaScript) and the JSON API (the authority).
 */

/** Public-side spec, section 3: value and label of each contact subject. */
export const CONTACT_SUBJECTS = [
  { value: "membership", label: "Membership Questions" },
  { value: "warranty", label: "Home Warranty Claims" },
  { value: "billing", label: "Billing Inquiry" },
  { value: "technical", label: "Technical Support" },
  { value: "general", label: "General Information" },
  { value: "feedback", label: "Feedback/Suggestions" },
] as const;

export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]["value"];
const SUBJECT_VALUES = CONTACT_SUBJECTS.map((s) => s.value) as [ContactSubject, ...ContactSubject[]];

export function subjectLabel(value: string): string {
  return CONTACT_SUBJECTS.find((s) => s.value === value)?.label ?? value;
}

export const LIMITS = {
  name: 120,
  message: 5000,
  notes: 2000,
  materials: 2000,
  firm: 150,
  address: 200,
  city: 100,
  state: 50,
} as const;

/** Contact message: name, email, subject and message required; phone optional. */
export const contactSchema = z.object({
  name: requiredText("Name", LIMITS.name, "Please enter your name"),
  email: requiredEmail(),
  phone: optionalPhone(),
  subject: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(SUBJECT_VALUES, "Please choose a subject")),
  message: requiredText("Message", LIMITS.message, "Please enter your message", { multiline: true }),
});
export type ContactInput = z.input<typeof contactSchema>;
export type ContactMessage = z.output<typeof contactSchema>;

// The request forms' names, without zod: the page shows them before the form's code has come.
export { REQUEST_FORMS, isRequestFormKind, type RequestFormKind } from "./request-forms";

/** The optional postal address printed materials are mailed to (spec: /api/submit-material-request). */
function postalAddressFields() {
  return {
    address1: optionalText("Address line 1", LIMITS.address),
    address2: optionalText("Address line 2", LIMITS.address),
    city: optionalText("City", LIMITS.city),
    state: optionalStateCode(),
    zip: optionalZip(),
  };
}

/**
 * The request form as the visitor fills it in (and the field names of the alternative
 * paths /api/cpa-requests and /api/homeowner-material-requests): full name and email
 * required; phone, membership ID and additional info optional; materials requested for
 * the homeowner variant, with an optional mailing address.
 */
export const requestFormSchema = z.object({
  fullName: requiredText("Full name", LIMITS.name, "Please enter your full name"),
  email: requiredEmail(),
  phone: optionalPhone(),
  memberId: optionalMemberId(),
  notes: optionalText("Additional information", LIMITS.notes, { multiline: true }),
  materials_requested: optionalText("Materials requested", LIMITS.materials, { multiline: true }),
  // The homeowner variant's mailing address; the CPA variant has no such fields.
  ...postalAddressFields(),
});
export type RequestFormInput = z.input<typeof requestFormSchema>;
export type RequestForm = z.output<typeof requestFormSchema>;

/** POST /api/submit-cpa-request (spec section 7), plus the optional member_id. */
export const cpaRequestSchema = z.object({
  first_name: requiredText("First name", LIMITS.name, "Please enter your first name"),
  last_name: optionalText("Last name", LIMITS.name),
  email: requiredEmail(),
  phone: optionalPhone(),
  firm_name: optionalText("Firm name", LIMITS.firm),
  city: optionalText("City", LIMITS.city),
  state: optionalText("State", LIMITS.state),
  zip: optionalZip(),
  notes: optionalText("Notes", LIMITS.notes, { multiline: true }),
  member_id: optionalMemberId(),
});
export type CpaRequest = z.output<typeof cpaRequestSchema>;

/** POST /api/submit-material-request (spec section 7), plus the optional member_id. */
export const materialRequestSchema = z.object({
  first_name: requiredText("First name", LIMITS.name, "Please enter your first name"),
  last_name: optionalText("Last name", LIMITS.name),
  email: requiredEmail(),
  phone: optionalPhone(),
  ...postalAddressFields(),
  materials_requested: optionalText("Materials requested", LIMITS.materials, { multiline: true }),
  notes: optionalText("Notes", LIMITS.notes, { multiline: true }),
  member_id: optionalMemberId(),
});
export type MaterialRequest = z.output<typeof materialRequestSchema>;

/** Spec section 5: the full name is split at spaces; the first word is the first name, the rest the last name. */
export function splitFullName(fullName: string): { first_name: string; last_name: string | null } {
  const [first = "", ...rest] = fullName.trim().split(/\s+/);
  return { first_name: first, last_name: rest.length ? rest.join(" ") : null };
}

/** The request form as the body of POST /api/submit-cpa-request (unknown values null). */
export function toCpaRequest(form: RequestForm): CpaRequest {
  return {
    ...splitFullName(form.fullName),
    email: form.email,
    phone: form.phone,
    firm_name: null,
    city: null,
    state: null,
    zip: null,
    notes: form.notes,
    member_id: form.memberId,
  };
}

/** The request form as the body of POST /api/submit-material-request. */
export function toMaterialRequest(form: RequestForm): MaterialRequest {
  return {
    ...splitFullName(form.fullName),
    email: form.email,
    phone: form.phone,
    address1: form.address1,
    address2: form.address2,
    city: form.city,
    state: form.state,
    zip: form.zip,
    materials_requested: form.materials_requested,
    notes: form.notes,
    member_id: form.memberId,
  };
}

/** The bot trap every public form carries: people never see it, so it stays empty. */
export const HONEYPOT_FIELD = "website";

export function isHoneypotFilled(raw: unknown): boolean {
  if (!raw || typeof raw !== "object") return false;
  const value = (raw as Record<string, unknown>)[HONEYPOT_FIELD];
  return value !== undefined && value !== null && String(value).trim() !== "";
}
