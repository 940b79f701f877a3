import type { ApplicationField } from "./contract";

/** The draft form's name (components/forms/draft: one draft per form and per signed-in user). */
export const APPLICATION_DRAFT_FORM = "application";

/**
 * The application's fields a draft keeps: what the applicant typed about themselves, the
 * co-applicant, the address and the beneficiary. Never the signatures, the payment choices or
 * anything of the card (name on card, cardholder signature, process date); today's date and the
 * confirmation are given afresh. A list of what is kept, so a field added later stays out until
 * it is named here.
 */
export const APPLICATION_DRAFT_FIELDS = [
  "caseNumber",
  "amountOfCoverage",
  "applicantName",
  "dob",
  "gender",
  "email",
  "phone",
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
] as const satisfies readonly ApplicationField[];

/** Whether the form holds anything that leaving the page would lose (today's date is filled in by the page). */
export function hasUnsentInput(value: Record<string, unknown> | undefined): boolean {
  return Object.entries(value ?? {}).some(
    ([name, v]) => name !== "todaysDate" && (typeof v === "string" ? v.trim() !== "" : Array.isArray(v) ? v.length > 0 : v != null),
  );
}
