/**
 * The co-insured of a household plan (issue 39): the application's co-applicant, covered by
 * the member's certificate. Staff enter, change or remove them (PUT/DELETE
 * /api/admin/members/:id/membership/co-insured); a member made from an application gets its
 * co-applicant with the plan. Their details are seen by staff; the member sees their name (the
 * card lists both people); the public check, their first name and last initial only.
 */
import { z } from "~/platform/zod";
import { holdsWebOrMailAddress, isOneLine, notANameMessage } from "~/platform/text-fields";
import { formatPhone } from "~/domain/formats";
import { GENDER_OPTIONS, birthDateProblem, isRealDate, localIsoDate, type Gender } from "~/domain/people";

export const CO_INSURED_LABELS = {
  firstName: "First name",
  lastName: "Last name",
  birthdate: "Date of birth",
  gender: "Gender",
  email: "E-mail",
  phone: "Phone",
} as const;
type Field = keyof typeof CO_INSURED_LABELS;

export const CO_INSURED_MESSAGES = {
  firstName: "First name is required.",
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  notAllowed: (label: string) => `${label} contains characters that are not allowed.`,
  notAName: notANameMessage,
  birthdate: "Date of birth must be a real date.",
  gender: `Gender must be one of: ${GENDER_OPTIONS.join(", ")}.`,
  email: "E-mail must be a valid email address, like name@example.com.",
  phone: "Phone must be a phone number, like (555) 123-4567.",
  none: "This member has no co-insured on record.",
} as const;

/** A name's length, as the members' own names. */
const NAME_MAX = 100;

const blankToNull = (v: unknown) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : v);
const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);

const line = (field: Field, max: number) =>
  z
    .string(`${CO_INSURED_LABELS[field]} must be text.`)
    .max(max, CO_INSURED_MESSAGES.tooLong(CO_INSURED_LABELS[field], max))
    .refine(isOneLine, CO_INSURED_MESSAGES.notAllowed(CO_INSURED_LABELS[field]));

const name = (field: "firstName" | "lastName") =>
  line(field, NAME_MAX).refine((v) => !holdsWebOrMailAddress(v), CO_INSURED_MESSAGES.notAName(CO_INSURED_LABELS[field]));

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => trimmed(blankToNull(v)), schema.nullable());

const digits = (v: string) => v.replace(/\D/g, "");

/** What staff type; the same checks as the application's applicant fields. */
export const coInsuredSchema = z.object({
  firstName: z.preprocess((v) => trimmed(v ?? ""), name("firstName").min(1, CO_INSURED_MESSAGES.firstName)),
  lastName: optional(name("lastName")),
  birthdate: optional(
    z.string(CO_INSURED_MESSAGES.birthdate).superRefine((value, ctx) => {
      if (!isRealDate(value)) return void ctx.addIssue({ code: "custom", message: CO_INSURED_MESSAGES.birthdate });
      const problem = birthDateProblem(value, localIsoDate());
      if (problem) ctx.addIssue({ code: "custom", message: `${CO_INSURED_LABELS.birthdate} ${problem}` });
    }),
  ),
  gender: optional(z.enum(GENDER_OPTIONS, CO_INSURED_MESSAGES.gender)),
  email: optional(line("email", 254).refine((v) => z.email().safeParse(v).success, CO_INSURED_MESSAGES.email)),
  phone: optional(
    line("phone", 30)
      .refine((v) => /^\+?[\d\s().-]+$/.test(v) && digits(v).length >= 10 && digits(v).length <= 15, CO_INSURED_MESSAGES.phone)
      // Kept as the application keeps it: 10 digits as (XXX) XXX-XXXX.
      .transform(formatPhone),
  ),
});
export type CoInsuredInput = z.output<typeof coInsuredSchema>;

/** The co-insured as staff see them. */
export interface CoInsuredView {
  firstName: string;
  lastName: string | null;
  birthdate: string | null;
  gender: Gender | null;
  email: string | null;
  phone: string | null;
}

/** "Sam Rivera" */
export const coInsuredName = (person: Pick<CoInsuredView, "firstName" | "lastName">) =>
  [person.firstName, person.lastName].filter(Boolean).join(" ");

/** The fields whose values differ, by name (the audit log names them, never their values). */
export function changedFields(before: CoInsuredView | null, after: CoInsuredView): Field[] {
  return (Object.keys(CO_INSURED_LABELS) as Field[]).filter((f) => (before?.[f] ?? null) !== after[f]);
}

/**
 * An application's co-applicant as the plan's co-insured, their name split as the applicant's
 * is; null when it names none.
 */
export function coInsuredOfApplication(
  name: { first: string | null; last: string | null },
  app: {
    co_dob: string | null;
    co_gender: string | null;
    co_email: string | null;
    co_phone: string | null;
  },
): CoInsuredView | null {
  if (!name.first) return null;
  return {
    firstName: name.first,
    lastName: name.last,
    birthdate: app.co_dob || null,
    gender: (GENDER_OPTIONS as readonly string[]).includes(app.co_gender ?? "") ? (app.co_gender as Gender) : null,
    email: app.co_email || null,
    phone: app.co_phone || null,
  };
}
