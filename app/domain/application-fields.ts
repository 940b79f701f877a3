/**
 * The membership application's fields by the labels the form shows (public-side spec, section
 * 5): the form and its messages use them, and so does staff's view of a submitted application.
 */

export const FIELD_LABELS = {
  caseNumber: "Case Number",
  amountOfCoverage: "Amount of Coverage",
  applicantName: "Applicant Name",
  dob: "Applicant Date of Birth",
  gender: "Applicant Gender",
  email: "Applicant Email",
  phone: "Applicant Phone",
  coApplicantName: "Co-Applicant Name",
  coDob: "Co-Applicant Date of Birth",
  coGender: "Co-Applicant Gender",
  coEmail: "Co-Applicant Email",
  coPhone: "Co-Applicant Phone",
  todaysDate: "Today's Date",
  address1: "Address Line 1",
  address2: "Address Line 2",
  city: "City",
  state: "State",
  zip: "ZIP Code",
  beneficiaryName: "Beneficiary Name",
  beneficiaryRelationship: "Relationship",
  beneficiaryPhone: "Beneficiary Phone",
  beneficiaryEmail: "Beneficiary Email",
  paymentMonthlyBilling: "Monthly Billing",
  paymentAutomaticChecking: "Automatic Checking",
  paymentUseCreditCard: "Use Credit Card",
  ccNameOnCard: "Name on Card",
  ccCardholderSignature: "Cardholder Signature (type your full name)",
  ccProcessDate: "Process Date",
  applicantSignature: "Applicant Signature",
  coApplicantSignature: "Co-Applicant Signature",
  achApplicantSignature: "ACH Applicant Signature",
  achCoApplicantSignature: "ACH Co-Applicant Signature",
  confirmAccuracy: "I confirm that the information provided is true and correct.",
} as const;
export type ApplicationField = keyof typeof FIELD_LABELS;
