import { describe, expect, it } from "vitest";
import { signatureDataUrl } from "../../../tests/support/submission-fixtures";
import { FIELD_LABELS, LIMITS, MAX_COVERAGE, MESSAGES, applicationProblems, applicationSchema, signatureMessage } from "./contract";
import { GENDER_OPTIONS, MAX_AGE_YEARS, RELATIONSHIP_OPTIONS, localIsoDate, shiftIsoDay } from "~/domain/people";
import { SIGNATURE_MAX_CHARS } from "./signature-image";

/*
 * Every rule of the application's validation, one case each, with the exact message and the
 * field it is keyed by: a rule that is dropped, loosened or tightened turns a case red.
 */

const SIGNATURE = signatureDataUrl(1);
const today = localIsoDate();
const yearsAgo = (n: number, days = 0) => {
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - n);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const valid = {
  amountOfCoverage: "$250,000.00",
  applicantName: "Dana Reyes",
  dob: "1980-04-12",
  gender: "Female",
  email: "dana@example.com",
  phone: "2035550142",
  todaysDate: localIsoDate(),
  paymentMonthlyBilling: true,
  confirmAccuracy: true,
  applicantSignature: SIGNATURE,
};

const problemsOf = (changes: Record<string, unknown>) => {
  const result = applicationSchema.safeParse({ ...valid, ...changes });
  return result.success ? {} : applicationProblems(result.error).fields;
};
const parsed = (changes: Record<string, unknown>) => applicationSchema.parse({ ...valid, ...changes });

describe("application validation, rule by rule", () => {
  it("accepts the least complete application", () => {
    expect(problemsOf({})).toEqual({});
  });

  const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
    ["coverage of 0", { amountOfCoverage: "0" }, { amountOfCoverage: "Amount of Coverage must be a dollar amount, like $250,000.00." }],
    [
      "coverage not an amount",
      { amountOfCoverage: "lots" },
      { amountOfCoverage: "Amount of Coverage must be a dollar amount, like $250,000.00." },
    ],
    [
      "coverage over the maximum",
      { amountOfCoverage: String(MAX_COVERAGE + 0.01) },
      { amountOfCoverage: "Amount of Coverage must be a dollar amount, like $250,000.00." },
    ],
    ["a birthdate in the future", { dob: yearsAgo(0, 1) }, { dob: "Applicant Date of Birth cannot be in the future." }],
    [
      "a birthdate too long ago",
      { dob: yearsAgo(MAX_AGE_YEARS, -1) },
      { dob: `Applicant Date of Birth must be within the last ${MAX_AGE_YEARS} years.` },
    ],
    ["a birthdate that does not exist", { dob: "1980-02-30" }, { dob: "Applicant Date of Birth must be a real date." }],
    ["a co-applicant birthdate in the future", { coDob: yearsAgo(0, 1) }, { coDob: "Co-Applicant Date of Birth cannot be in the future." }],
    ["a gender not offered", { gender: "Unknown" }, { gender: `Applicant Gender must be one of: ${GENDER_OPTIONS.join(", ")}.` }],
    [
      "a co-applicant gender not offered",
      { coGender: "x" },
      { coGender: `Co-Applicant Gender must be one of: ${GENDER_OPTIONS.join(", ")}.` },
    ],
    ["an e-mail without a domain", { email: "dana@" }, { email: "Applicant Email must be a valid email address, like name@example.com." }],
    ["a co-applicant e-mail", { coEmail: "sam" }, { coEmail: "Co-Applicant Email must be a valid email address, like name@example.com." }],
    [
      "a beneficiary e-mail",
      { beneficiaryEmail: "alex" },
      { beneficiaryEmail: "Beneficiary Email must be a valid email address, like name@example.com." },
    ],
    ["a phone of 9 digits", { phone: "203555014" }, { phone: "Applicant Phone must be a phone number, like (555) 123-4567." }],
    ["a phone of 16 digits", { phone: "1234567890123456" }, { phone: "Applicant Phone must be a phone number, like (555) 123-4567." }],
    ["a phone with letters", { phone: "203-555-CALL" }, { phone: "Applicant Phone must be a phone number, like (555) 123-4567." }],
    ["a co-applicant phone", { coPhone: "12" }, { coPhone: "Co-Applicant Phone must be a phone number, like (555) 123-4567." }],
    [
      "a beneficiary phone",
      { beneficiaryPhone: "12" },
      { beneficiaryPhone: "Beneficiary Phone must be a phone number, like (555) 123-4567." },
    ],
    ["today's date that does not exist", { todaysDate: "2025-13-01" }, { todaysDate: "Today's Date must be a real date." }],
    ["today's date far in the future", { todaysDate: "2999-01-01" }, { todaysDate: "Today's Date must be today." }],
    ["today's date two days ahead", { todaysDate: shiftIsoDay(today, 2) }, { todaysDate: "Today's Date must be today." }],
    ["today's date two days behind", { todaysDate: shiftIsoDay(today, -2) }, { todaysDate: "Today's Date must be today." }],
    ["today's date years ago", { todaysDate: "2001-06-01" }, { todaysDate: "Today's Date must be today." }],
    ["a card process date that does not exist", { ccProcessDate: "2025-02-29" }, { ccProcessDate: "Process Date must be a real date." }],
    ["a state of one letter", { state: "C" }, { state: "State must be 2 letters, like CT." }],
    ["a state with a digit", { state: "C1" }, { state: "State must be 2 letters, like CT." }],
    ["a ZIP of 4 digits", { zip: "0690" }, { zip: "ZIP Code must be 5 digits, or 5+4 like 06905-1234." }],
    ["a ZIP+4 cut short", { zip: "06905-12" }, { zip: "ZIP Code must be 5 digits, or 5+4 like 06905-1234." }],
    [
      "a relationship not offered",
      { beneficiaryRelationship: "neighbour" },
      { beneficiaryRelationship: `Relationship must be one of: ${RELATIONSHIP_OPTIONS.map((r) => r.label).join(", ")}.` },
    ],
    [
      "automatic checking without its signature",
      { paymentAutomaticChecking: true },
      { achApplicantSignature: MESSAGES.achApplicantSignature },
    ],
    [
      "automatic checking with a co-applicant and no co-applicant ACH signature",
      { paymentAutomaticChecking: true, achApplicantSignature: SIGNATURE, coApplicantName: "Sam Reyes", coApplicantSignature: SIGNATURE },
      { achCoApplicantSignature: MESSAGES.achCoApplicantSignature },
    ],
    ["a credit card without the name on it", { paymentUseCreditCard: true }, { ccNameOnCard: MESSAGES.ccNameOnCard }],
    ["no payment option", { paymentMonthlyBilling: false }, { paymentMonthlyBilling: MESSAGES.paymentOptions }],
    ["a co-applicant without a signature", { coApplicantName: "Sam Reyes" }, { coApplicantSignature: MESSAGES.coApplicantSignature }],
    ["no applicant signature", { applicantSignature: "" }, { applicantSignature: MESSAGES.applicantSignature }],
    ["not confirmed", { confirmAccuracy: false }, { confirmAccuracy: MESSAGES.confirmAccuracy }],
    [
      "a signature that is not an image",
      { applicantSignature: "data:image/png;base64,@@@@" },
      { applicantSignature: "Applicant signature is not a valid image." },
    ],
    [
      "a signature that is not a PNG",
      { applicantSignature: "data:image/gif;base64,R0lGODlhAQABAAAAACw=" },
      { applicantSignature: "Applicant signature must be a PNG image." },
    ],
    [
      "a signature over 500 KB",
      { applicantSignature: "x".repeat(SIGNATURE_MAX_CHARS + 1) },
      { applicantSignature: "Applicant signature is too large (at most 500 KB)." },
    ],
    ["a signature that is not text", { applicantSignature: 42 }, { applicantSignature: "Applicant signature is not a valid image." }],
    [
      "a name over its limit",
      { applicantName: "x".repeat(LIMITS.name + 1) },
      { applicantName: `Applicant Name must be at most ${LIMITS.name} characters.` },
    ],
    ["a name that is not text", { applicantName: 7 }, { applicantName: "Applicant Name must be text." }],
    [
      "a name with a control character",
      { applicantName: "Dana\u0007" },
      { applicantName: "Applicant Name contains characters that are not allowed." },
    ],
    [
      "a case number over its limit",
      { caseNumber: "1".repeat(LIMITS.caseNumber + 1) },
      { caseNumber: `Case Number must be at most ${LIMITS.caseNumber} digits.` },
    ],
    ["a case number that is not text", { caseNumber: { n: 1 } }, { caseNumber: "Case Number must be digits." }],
    ["a box that is neither ticked nor not", { confirmAccuracy: "yes" }, { confirmAccuracy: "Confirmation must be ticked or not." }],
    [
      "web and e-mail addresses in name fields (issue 39)",
      {
        applicantName: "Pay now at http://evil.example/pay - urgent",
        coApplicantName: "www.evil.example",
        coApplicantSignature: SIGNATURE,
        beneficiaryName: "pay@evil.example",
        ccNameOnCard: "evil.example/pay",
        ccCardholderSignature: "Visit evil.com",
      },
      {
        applicantName: "Applicant Name must be a name, not a web or e-mail address.",
        coApplicantName: "Co-Applicant Name must be a name, not a web or e-mail address.",
        beneficiaryName: "Beneficiary Name must be a name, not a web or e-mail address.",
        ccNameOnCard: "Name on Card must be a name, not a web or e-mail address.",
        ccCardholderSignature: "Cardholder Signature must be a name, not a web or e-mail address.",
      },
    ],
  ];
  it.each(cases)("refuses %s", (_name, changes, expected) => {
    expect(problemsOf(changes)).toEqual(expected);
  });

  it("takes the boundaries themselves", () => {
    expect(problemsOf({ amountOfCoverage: String(MAX_COVERAGE) })).toEqual({});
    expect(problemsOf({ amountOfCoverage: "0.01" })).toEqual({});
    expect(problemsOf({ dob: today })).toEqual({});
    // Today's Date: today, a day either side for the visitor's time zone.
    for (const days of [-1, 0, 1]) expect(problemsOf({ todaysDate: shiftIsoDay(today, days) })).toEqual({});
    expect(problemsOf({ dob: yearsAgo(MAX_AGE_YEARS) })).toEqual({});
    expect(problemsOf({ phone: "123456789012345", zip: "06905-1234", state: "ct" })).toEqual({});
    expect(problemsOf({ applicantName: "x".repeat(LIMITS.name) })).toEqual({});
    expect(problemsOf({ caseNumber: "1".repeat(LIMITS.caseNumber) })).toEqual({});
    expect(problemsOf({ paymentMonthlyBilling: false, paymentUseCreditCard: true, ccNameOnCard: "Dana Reyes" })).toEqual({});
    expect(problemsOf({ paymentMonthlyBilling: false, paymentAutomaticChecking: true, achApplicantSignature: SIGNATURE })).toEqual({});
  });

  it("reads ticked boxes however a form or a client sends them", () => {
    for (const on of [true, "on", "true"]) expect(parsed({ confirmAccuracy: on }).confirmAccuracy, String(on)).toBe(true);
    for (const off of [false, "false", "off", "", null, undefined])
      expect(problemsOf({ confirmAccuracy: off }), String(off)).toEqual({ confirmAccuracy: MESSAGES.confirmAccuracy });
  });

  it("stores trimmed text, the coverage in cents, formatted phones, the state in capitals and blanks as null", () => {
    const stored = parsed({
      applicantName: "  Dana Reyes  ",
      amountOfCoverage: "$1,500.5",
      phone: "203.555.0142",
      coPhone: "+44 20 7946 0958",
      state: "ct",
      caseNumber: "12-34 5",
      address2: "   ",
      coApplicantName: "",
    });
    expect(stored).toMatchObject({
      applicantName: "Dana Reyes",
      amountOfCoverage: "1500.50",
      phone: "(203) 555-0142",
      coPhone: "+44 20 7946 0958",
      state: "CT",
      caseNumber: "12345",
      address2: null,
      coApplicantName: null,
      coApplicantSignature: null,
      beneficiaryRelationship: null,
      paymentAutomaticChecking: false,
      paymentUseCreditCard: false,
    });
    expect(parsed({ caseNumber: 12345 }).caseNumber).toBe("12345");
    expect(parsed({ caseNumber: "" }).caseNumber).toBeNull();
  });

  it("lists problems in the spec's order, one per field, then any other", () => {
    const result = applicationSchema.safeParse({ confirmAccuracy: false, phone: "1", unknownExtra: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    const { fields, messages } = applicationProblems(result.error);
    expect(Object.keys(fields)).toEqual([
      "amountOfCoverage",
      "applicantName",
      "dob",
      "gender",
      "email",
      "phone",
      "todaysDate",
      "paymentMonthlyBilling",
      "applicantSignature",
      "confirmAccuracy",
    ]);
    expect(fields.phone).toBe("Applicant Phone must be a phone number, like (555) 123-4567.");
    expect(messages).toEqual(Object.values(fields));
  });

  it("names each signature in its messages", () => {
    expect(signatureMessage("coApplicantSignature", "too-large")).toBe("Co-Applicant signature is too large (at most 500 KB).");
    expect(signatureMessage("achApplicantSignature", "not-png")).toBe("Applicant ACH signature must be a PNG image.");
    expect(signatureMessage("achCoApplicantSignature", "invalid")).toBe("Co-Applicant ACH signature is not a valid image.");
    expect(FIELD_LABELS.ccProcessDate).toBe("Process Date");
  });
});
