import { FIELD_LABELS, type ApplicationField } from "~/domain/application-fields";
import { z } from "~/platform/zod";
import { checkSignatureDataUrl, SIGNATURE_MAX_CHARS, type SignatureProblem } from "./signature-image";
import { holdsWebOrMailAddress, isOneLine, notANameMessage } from "~/platform/text-fields";
import { digitsOnly, formatPhone, parseDollars } from "~/domain/formats";
import {
  GENDER_OPTIONS,
  RELATIONSHIP_OPTIONS,
  birthDateProblem,
  isRealDate,
  localIsoDate,
  todaysDateProblem,
  type Gender,
  type Relationship,
} from "~/domain/people";

/**
 * What crosses the wire for the membership application (public-side spec, sections 3, 5, 7):
 * the one zod schema the page (Conform) and POST /api/applications both use, its messages,
 * the options, and the case lookup answer of GET /api/cases/:caseNumber.
 *
 * The schema reads a posted form (strings, "on" for a ticked box, "" for blank) and a JSON
 * body (strings, booleans, null) alike. Every field is optional to the object itself and
 * the required/conditional rules run together in one refinement, so all problems are listed
 * at once, in the order of spec section 5.
 */

const RELATIONSHIP_VALUES = RELATIONSHIP_OPTIONS.map((r) => r.value) as readonly string[];

/** Spec section 5, word for word. */
export const MESSAGES = {
  amountOfCoverage: "Amount of Coverage is required.",
  applicantName: "Applicant Name is required.",
  dob: "Applicant Date of Birth is required.",
  gender: "Applicant Gender is required.",
  email: "Applicant Email is required.",
  phone: "Applicant Phone is required.",
  todaysDate: "Today's Date is required.",
  achApplicantSignature: "Applicant ACH signature is required when Automatic Checking is selected.",
  achCoApplicantSignature: "Co-Applicant ACH signature is required when a Co-Applicant is listed and Automatic Checking is selected.",
  ccNameOnCard: "Name on Card is required when using Credit Card.",
  paymentOptions: "Please select at least one Payment Option.",
  applicantSignature: "Applicant signature is required.",
  coApplicantSignature: "Co-Applicant signature is required when a Co-Applicant is listed.",
  confirmAccuracy: "Please confirm that the information provided is true and correct.",
} as const;

export const ERROR_SUMMARY_TITLE = "Please correct the following:";

/** The label of every field, as the form shows it (shared with staff's view of an application). */
export { FIELD_LABELS, type ApplicationField };

/** The order problems are listed in (spec section 5); the payment-option problem sits on the first box. */
export const ERROR_ORDER: ApplicationField[] = [
  "caseNumber",
  "amountOfCoverage",
  "applicantName",
  "dob",
  "gender",
  "email",
  "phone",
  "todaysDate",
  "coApplicantName",
  "coDob",
  "coGender",
  "coEmail",
  "coPhone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
  "beneficiaryName",
  "beneficiaryRelationship",
  "beneficiaryPhone",
  "beneficiaryEmail",
  "achApplicantSignature",
  "achCoApplicantSignature",
  "ccNameOnCard",
  "ccCardholderSignature",
  "ccProcessDate",
  "paymentMonthlyBilling",
  "applicantSignature",
  "coApplicantSignature",
  "confirmAccuracy",
];

export const SIGNATURE_FIELDS = ["applicantSignature", "coApplicantSignature", "achApplicantSignature", "achCoApplicantSignature"] as const;
export type SignatureField = (typeof SIGNATURE_FIELDS)[number];

const SIGNATURE_NAMES: Record<SignatureField, string> = {
  applicantSignature: "Applicant signature",
  coApplicantSignature: "Co-Applicant signature",
  achApplicantSignature: "Applicant ACH signature",
  achCoApplicantSignature: "Co-Applicant ACH signature",
};

export function signatureMessage(field: SignatureField, problem: SignatureProblem): string {
  const name = SIGNATURE_NAMES[field];
  if (problem === "too-large") return `${name} is too large (at most 500 KB).`;
  if (problem === "not-png") return `${name} must be a PNG image.`;
  return `${name} is not a valid image.`;
}

export const LIMITS = {
  caseNumber: 20,
  name: 120,
  email: 254,
  phone: 30,
  address: 200,
  city: 100,
  state: 2,
  zip: 10,
} as const;

/** Coverage is at most this many dollars: far above any plan, low enough to stay exact. */
export const MAX_COVERAGE = 100_000_000;

const isEmail = (value: string) => z.email().safeParse(value).success;
const isPhone = (value: string) => /^\+?[\d\s().-]+$/.test(value) && digitsOnly(value).length >= 10 && digitsOnly(value).length <= 15;
const isZip = (value: string) => /^\d{5}(?:-\d{4})?$/.test(value);

// ---- field builders ---------------------------------------------------------------------

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** Text: blank (missing, null, "", spaces) becomes undefined; control characters are refused. */
function text(label: string, max: number) {
  return z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === "string" ? v.trim() : v),
    z
      .string(`${label} must be text.`)
      .max(max, `${label} must be at most ${max} characters.`)
      .refine(isOneLine, `${label} contains characters that are not allowed.`)
      .optional(),
  );
}

/** A ticked box: true, "on" or "true"; blank, missing or false is unticked. */
function flag(label: string) {
  return z.preprocess(
    (v) => {
      if (blank(v) || v === false || v === "false" || v === "off") return false;
      if (v === true || v === "on" || v === "true") return true;
      return v;
    },
    z.boolean(`${label} must be ticked or not.`),
  );
}

function signature(field: SignatureField) {
  return z.preprocess(
    (v) => (blank(v) ? undefined : v),
    z.string(`${SIGNATURE_NAMES[field]} is not a valid image.`).max(SIGNATURE_MAX_CHARS, signatureMessage(field, "too-large")).optional(),
  );
}

const baseSchema = z.object({
  caseNumber: z.preprocess(
    (v) => (typeof v === "string" ? digitsOnly(v) || undefined : typeof v === "number" ? String(v) : blank(v) ? undefined : v),
    z.string("Case Number must be digits.").max(LIMITS.caseNumber, `Case Number must be at most ${LIMITS.caseNumber} digits.`).optional(),
  ),
  amountOfCoverage: text(FIELD_LABELS.amountOfCoverage, 30),
  applicantName: text(FIELD_LABELS.applicantName, LIMITS.name),
  coApplicantName: text(FIELD_LABELS.coApplicantName, LIMITS.name),
  dob: text(FIELD_LABELS.dob, 10),
  coDob: text(FIELD_LABELS.coDob, 10),
  gender: text(FIELD_LABELS.gender, 30),
  coGender: text(FIELD_LABELS.coGender, 30),
  email: text(FIELD_LABELS.email, LIMITS.email),
  coEmail: text(FIELD_LABELS.coEmail, LIMITS.email),
  phone: text(FIELD_LABELS.phone, LIMITS.phone),
  coPhone: text(FIELD_LABELS.coPhone, LIMITS.phone),
  todaysDate: text(FIELD_LABELS.todaysDate, 10),
  address1: text(FIELD_LABELS.address1, LIMITS.address),
  address2: text(FIELD_LABELS.address2, LIMITS.address),
  city: text(FIELD_LABELS.city, LIMITS.city),
  // The input takes 2 characters; longer text from elsewhere gets the format message.
  state: text(FIELD_LABELS.state, 20),
  zip: text(FIELD_LABELS.zip, LIMITS.zip),
  beneficiaryName: text(FIELD_LABELS.beneficiaryName, LIMITS.name),
  beneficiaryRelationship: text(FIELD_LABELS.beneficiaryRelationship, 20),
  beneficiaryPhone: text(FIELD_LABELS.beneficiaryPhone, LIMITS.phone),
  beneficiaryEmail: text(FIELD_LABELS.beneficiaryEmail, LIMITS.email),
  paymentMonthlyBilling: flag(FIELD_LABELS.paymentMonthlyBilling),
  paymentAutomaticChecking: flag(FIELD_LABELS.paymentAutomaticChecking),
  paymentUseCreditCard: flag(FIELD_LABELS.paymentUseCreditCard),
  ccNameOnCard: text(FIELD_LABELS.ccNameOnCard, LIMITS.name),
  ccCardholderSignature: text("Cardholder Signature", LIMITS.name),
  ccProcessDate: text(FIELD_LABELS.ccProcessDate, 10),
  confirmAccuracy: flag("Confirmation"),
  applicantSignature: signature("applicantSignature"),
  coApplicantSignature: signature("coApplicantSignature"),
  achApplicantSignature: signature("achApplicantSignature"),
  achCoApplicantSignature: signature("achCoApplicantSignature"),
});

type BaseApplication = z.output<typeof baseSchema>;

/** Spec section 5, then the format of what was typed; one message per field. */
function checkApplication(a: BaseApplication, ctx: z.RefinementCtx) {
  const flagged = new Set<string>();
  const problem = (path: ApplicationField, message: string) => {
    if (flagged.has(path)) return;
    flagged.add(path);
    ctx.addIssue({ code: "custom", path: [path], message });
  };
  const required = (field: keyof typeof MESSAGES & keyof BaseApplication) => {
    if (a[field] === undefined) problem(field as ApplicationField, MESSAGES[field]);
  };

  required("amountOfCoverage");
  if (a.amountOfCoverage !== undefined) {
    const amount = parseDollars(a.amountOfCoverage);
    if (amount === null || amount <= 0 || amount > MAX_COVERAGE)
      problem("amountOfCoverage", "Amount of Coverage must be a dollar amount, like $250,000.00.");
  }
  required("applicantName");
  required("dob");
  required("gender");
  required("email");
  required("phone");
  required("todaysDate");

  // What was typed must make sense (messages in the words of the spec's labels).
  const date = (field: ApplicationField, value: string | undefined) => {
    if (value !== undefined && !isRealDate(value)) problem(field, `${FIELD_LABELS[field]} must be a real date.`);
  };
  const today = localIsoDate();
  const birthDate = (field: ApplicationField, value: string | undefined) => {
    if (value === undefined || !isRealDate(value)) return date(field, value);
    const problemText = birthDateProblem(value, today);
    if (problemText) problem(field, `${FIELD_LABELS[field]} ${problemText}`);
  };
  const email = (field: ApplicationField, value: string | undefined) => {
    if (value !== undefined && !isEmail(value))
      problem(field, `${FIELD_LABELS[field]} must be a valid email address, like name@example.com.`);
  };
  const phone = (field: ApplicationField, value: string | undefined) => {
    if (value !== undefined && !isPhone(value)) problem(field, `${FIELD_LABELS[field]} must be a phone number, like (555) 123-4567.`);
  };
  const gender = (field: ApplicationField, value: string | undefined) => {
    if (value !== undefined && !(GENDER_OPTIONS as readonly string[]).includes(value))
      problem(field, `${FIELD_LABELS[field]} must be one of: ${GENDER_OPTIONS.join(", ")}.`);
  };
  // Names are names: a web or e-mail address in one would reach staff, and mails, as typed.
  for (const field of ["applicantName", "coApplicantName", "beneficiaryName", "ccNameOnCard", "ccCardholderSignature"] as const) {
    const value = a[field];
    const label = field === "ccCardholderSignature" ? "Cardholder Signature" : FIELD_LABELS[field];
    if (value !== undefined && holdsWebOrMailAddress(value)) problem(field as ApplicationField, notANameMessage(label));
  }
  birthDate("dob", a.dob);
  gender("gender", a.gender);
  email("email", a.email);
  phone("phone", a.phone);
  date("todaysDate", a.todaysDate);
  if (a.todaysDate !== undefined && isRealDate(a.todaysDate)) {
    const problemText = todaysDateProblem(a.todaysDate, today);
    if (problemText) problem("todaysDate", `${FIELD_LABELS.todaysDate} ${problemText}`);
  }
  birthDate("coDob", a.coDob);
  gender("coGender", a.coGender);
  email("coEmail", a.coEmail);
  phone("coPhone", a.coPhone);
  if (a.state !== undefined && !/^[A-Za-z]{2}$/.test(a.state)) problem("state", "State must be 2 letters, like CT.");
  if (a.zip !== undefined && !isZip(a.zip)) problem("zip", "ZIP Code must be 5 digits, or 5+4 like 06905-1234.");
  if (a.beneficiaryRelationship !== undefined && !RELATIONSHIP_VALUES.includes(a.beneficiaryRelationship))
    problem("beneficiaryRelationship", `Relationship must be one of: ${RELATIONSHIP_OPTIONS.map((r) => r.label).join(", ")}.`);
  phone("beneficiaryPhone", a.beneficiaryPhone);
  email("beneficiaryEmail", a.beneficiaryEmail);

  // The drawn signatures must be real PNG images within the size limit.
  for (const field of SIGNATURE_FIELDS) {
    const value = a[field];
    const bad = value === undefined ? null : checkSignatureDataUrl(value);
    if (bad) problem(field, signatureMessage(field, bad));
  }

  const hasCoApplicant = a.coApplicantName !== undefined;
  if (a.paymentAutomaticChecking) {
    required("achApplicantSignature");
    if (hasCoApplicant) required("achCoApplicantSignature");
  }
  if (a.paymentUseCreditCard) required("ccNameOnCard");
  date("ccProcessDate", a.ccProcessDate);
  if (!a.paymentMonthlyBilling && !a.paymentAutomaticChecking && !a.paymentUseCreditCard)
    problem("paymentMonthlyBilling", MESSAGES.paymentOptions);
  required("applicantSignature");
  if (hasCoApplicant) required("coApplicantSignature");
  if (!a.confirmAccuracy) problem("confirmAccuracy", MESSAGES.confirmAccuracy);
}

/** The stored shape: required fields present, coverage as "250000.00", 10-digit phones formatted, state upper-case. */
function normalize(a: BaseApplication) {
  const opt = (v: string | undefined) => v ?? null;
  const optPhone = (v: string | undefined) => (v === undefined ? null : formatPhone(v));
  return {
    caseNumber: opt(a.caseNumber),
    amountOfCoverage: parseDollars(a.amountOfCoverage!)!.toFixed(2),
    applicantName: a.applicantName!,
    coApplicantName: opt(a.coApplicantName),
    dob: a.dob!,
    coDob: opt(a.coDob),
    gender: a.gender as Gender,
    coGender: opt(a.coGender) as Gender | null,
    email: a.email!,
    coEmail: opt(a.coEmail),
    phone: formatPhone(a.phone!),
    coPhone: optPhone(a.coPhone),
    todaysDate: a.todaysDate!,
    address1: opt(a.address1),
    address2: opt(a.address2),
    city: opt(a.city),
    state: a.state === undefined ? null : a.state.toUpperCase(),
    zip: opt(a.zip),
    beneficiaryName: opt(a.beneficiaryName),
    beneficiaryRelationship: opt(a.beneficiaryRelationship) as Relationship | null,
    beneficiaryPhone: optPhone(a.beneficiaryPhone),
    beneficiaryEmail: opt(a.beneficiaryEmail),
    paymentMonthlyBilling: a.paymentMonthlyBilling,
    paymentAutomaticChecking: a.paymentAutomaticChecking,
    paymentUseCreditCard: a.paymentUseCreditCard,
    ccNameOnCard: opt(a.ccNameOnCard),
    ccCardholderSignature: opt(a.ccCardholderSignature),
    ccProcessDate: opt(a.ccProcessDate),
    confirmAccuracy: a.confirmAccuracy,
    applicantSignature: a.applicantSignature!,
    coApplicantSignature: opt(a.coApplicantSignature),
    achApplicantSignature: opt(a.achApplicantSignature),
    achCoApplicantSignature: opt(a.achCoApplicantSignature),
  };
}

/** The membership application: the page validates with it (Conform), the API decides with it. */
export const applicationSchema = baseSchema.superRefine(checkApplication).transform(normalize);
export type ApplicationInput = z.input<typeof baseSchema>;
export type Application = z.output<typeof applicationSchema>;

/** Problems keyed by field, one message each, in the order of spec section 5. */
export function applicationProblems(error: z.ZodError): { fields: Partial<Record<ApplicationField, string>>; messages: string[] } {
  const byField = new Map<string, string>();
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "_");
    if (!byField.has(key)) byField.set(key, issue.message);
  }
  const fields: Partial<Record<ApplicationField, string>> = {};
  for (const name of ERROR_ORDER) {
    const message = byField.get(name);
    if (message) fields[name] = message;
  }
  const rest = [...byField].filter(([k]) => !(k in fields)).map(([, m]) => m);
  return { fields, messages: [...Object.values(fields), ...rest] };
}

// ---- API answers ------------------------------------------------------------------------

/** POST /api/applications, 201. */
export interface ApplicationCreated {
  success: true;
  id: number;
  submittedAt: string;
}

/** POST /api/applications, 4xx: `details` lists the spec's messages, `fields` maps them to fields. */
export interface ApplicationRejected {
  success: false;
  error: string;
  details?: string[];
  fields?: Partial<Record<ApplicationField, string>>;
}

/** Case lookup (spec section 9): at least 5 digits. */
export const CASE_NUMBER_MIN_DIGITS = 5;

/**
 * GET /api/cases/:caseNumber, 200: the spec's first accepted shape (success with an applicant
 * object), holding only what the form needs. 404 {success:false, error} when not found.
 */
export interface CaseApplicant {
  applicantName?: string;
  /** Decimal dollars, e.g. "250000.00". */
  coverage?: string;
  email?: string;
  phone?: string;
  address1?: string;
  city?: string;
  state?: string;
  zip?: string;
  gender?: Gender;
}
export interface CaseFound {
  success: true;
  applicant: CaseApplicant;
}
export const CASE_NOT_FOUND = "Case not found";

// ---- from approved application to member ---------------------------------------------------

export const MEMBERSHIP_MESSAGES = {
  notFound: "Application not found",
  notApproved: "Only an approved application can become a member.",
  inProgress: "A member is being created from this application; try again in a moment.",
  noNumber: "No free certificate number was found; check CERTIFICATE_FORMAT.",
  choose: "Choose whether to create a new member or to link the application to an existing member.",
  notAMatch: "That member does not have this application's name and date of birth; open the application again and choose again.",
  givePlan: "givePlan must be true or false",
} as const;

/**
 * POST /api/admin/applications/:id/member: staff's explicit choice. `linkTo: null` makes a new
 * member; a member's id links the application to that member, who must be one of the
 * application's matches (same name and date of birth). Nothing is ever linked without it.
 * A new member gets the plan from the application; a linked member who has no plan gets it
 * only with `givePlan: true` (staff saw what it sets: MemberMatches.plan), and one who has a
 * plan keeps it.
 */
export const memberChoiceSchema = z.object(
  {
    linkTo: z.union([z.null(), z.number().int().positive().max(2_147_483_647)], { error: MEMBERSHIP_MESSAGES.choose }),
    givePlan: z.boolean(MEMBERSHIP_MESSAGES.givePlan).default(false),
  },
  { error: MEMBERSHIP_MESSAGES.choose },
);
export type MemberChoice = z.output<typeof memberChoiceSchema>;

/**
 * A member who has the application's name and date of birth. Anyone who knows both can apply
 * in that member's name, so staff see where a welcome e-mail would go before they link:
 * the member's own stored address, compared with the application's.
 */
export interface MemberMatch {
  id: number;
  certificate: string;
  name: string;
  active: boolean;
  /** The member's stored e-mail against the application's: "missing" means no welcome e-mail can go out. */
  email: "same" | "different" | "missing";
  /** Whether the member has a plan on record (a link leaves it as it is). */
  hasPlan: boolean;
}

/** The plan an application gives its member: what staff see before giving it to a linked member. */
export interface PlanFromApplication {
  billing: "monthly";
  coverageCents: number | null;
  beneficiaryName: string | null;
  beneficiaryRelationship: string | null;
  approvedOn: string;
  /** The co-applicant, who becomes the plan's co-insured with it (by name; staff see the rest on the application). */
  coInsuredName: string | null;
}

/** GET /api/admin/applications/:id/member-matches. */
export interface MemberMatches {
  matches: MemberMatch[];
  plan: PlanFromApplication;
}

/** POST /api/admin/applications/:id/member. */
export interface ApplicationMembership {
  member: { id: number; certificate: string };
  /** True for a new member; false for a link to a member who already existed. */
  created: boolean;
  /** "no-address": a linked member has no e-mail address on record, so nothing was sent. */
  welcome: "sent" | "failed" | "already-sent" | "not-sent" | "mail-off" | "no-address";
  /** Whether this request gave the member the plan from the application. */
  planGiven: boolean;
}
