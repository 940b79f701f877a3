import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { makePng, pngDataUrl } from "../../../tests/support/png";
import { applicantFromAnswer, caseNumberFrom } from "./case-shapes";
import { parseAnswer } from "./case-source.server";
import { applicationSchema, MESSAGES } from "./contract";
import { formatCoverage, formatPhone, parseDollars } from "~/domain/formats";
import { birthDateProblem, localIsoDate } from "~/domain/people";
import { checkSignatureDataUrl } from "./signature-image";

function formData(entries: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return data;
}

describe("the application schema on a posted form (the page, through Conform)", () => {
  it("gives the spec's messages for an empty form, keyed by field", () => {
    const submission = parseWithZod(formData({ todaysDate: localIsoDate(), caseNumber: "" }), {
      schema: applicationSchema,
      disableAutoCoercion: true,
    });
    expect(submission.status).toBe("error");
    if (submission.status === "success") return;
    expect(submission.error).toEqual({
      amountOfCoverage: [MESSAGES.amountOfCoverage],
      applicantName: [MESSAGES.applicantName],
      dob: [MESSAGES.dob],
      gender: [MESSAGES.gender],
      email: [MESSAGES.email],
      phone: [MESSAGES.phone],
      paymentMonthlyBilling: [MESSAGES.paymentOptions],
      applicantSignature: [MESSAGES.applicantSignature],
      confirmAccuracy: [MESSAGES.confirmAccuracy],
    });
  });

  it("reads ticked boxes ('on') and normalizes what it stores", () => {
    const submission = parseWithZod(
      formData({
        caseNumber: "12345",
        amountOfCoverage: "$1,500.5",
        applicantName: " Lee ",
        dob: "1970-01-01",
        gender: "Male",
        email: "lee@example.com",
        phone: "203.555.0100",
        todaysDate: localIsoDate(),
        state: "ny",
        paymentUseCreditCard: "on",
        ccNameOnCard: "Lee",
        confirmAccuracy: "on",
        applicantSignature: pngDataUrl(),
        coApplicantSignature: "",
      }),
      { schema: applicationSchema, disableAutoCoercion: true },
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      amountOfCoverage: "1500.50",
      applicantName: "Lee",
      phone: "(203) 555-0100",
      state: "NY",
      paymentUseCreditCard: true,
      paymentMonthlyBilling: false,
      coApplicantSignature: null,
    });
  });
});

describe("display formats (spec section 9)", () => {
  it("shows 10-digit phones as (XXX) XXX-XXXX and leaves others as typed", () => {
    expect(formatPhone("2035550142")).toBe("(203) 555-0142");
    expect(formatPhone("203-555-0142")).toBe("(203) 555-0142");
    expect(formatPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
  });
  it("shows coverage as USD with 2 decimals", () => {
    expect(formatCoverage("250000")).toBe("$250,000.00");
    expect(formatCoverage("$1,234.5")).toBe("$1,234.50");
    expect(formatCoverage("lots")).toBe("lots");
    expect(parseDollars("1.234")).toBeNull();
  });
});

describe("signature images", () => {
  it("accepts a real PNG and names what is wrong otherwise", () => {
    expect(checkSignatureDataUrl(pngDataUrl())).toBeNull();
    expect(checkSignatureDataUrl("data:image/png;base64,iVBORw0KGgo=")).toBe("not-png");
    expect(checkSignatureDataUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe("not-png");
    expect(checkSignatureDataUrl("javascript:alert(1)")).toBe("invalid");
    expect(checkSignatureDataUrl(pngDataUrl(makePng(20000, 10)))).toBe("not-png");
  });
});

describe("case lookup answers (spec section 7)", () => {
  it("accepts the three shapes and nothing else", () => {
    expect(applicantFromAnswer({ success: true, applicant: { firstName: "A", lastName: "B" } })).toEqual({ applicantName: "A B" });
    expect(applicantFromAnswer({ ok: 1, data: { applicantFirst: "C" } })).toEqual({ applicantName: "C" });
    expect(applicantFromAnswer({ applicantFirst: "D", state: "nj" })).toEqual({ applicantName: "D", state: "NJ" });
    for (const other of [
      null,
      [],
      "x",
      { success: true },
      { ok: true, data: [] },
      { applicantName: "E" },
      { success: false, applicant: {} },
    ]) {
      expect(applicantFromAnswer(other)).toBeNull();
    }
  });
  it("reads JSON and JSONP bodies; anything else is not an answer", () => {
    expect(parseAnswer('cb({"a":1});')).toEqual({ a: 1 });
    expect(parseAnswer('\uFEFF {"a":2} ')).toEqual({ a: 2 });
    expect(parseAnswer("<html>")).toBeNull();
    // Only ever parsed as JSON, never run: a script body is at most a value, and not an answer.
    expect(applicantFromAnswer(parseAnswer("alert(1)"))).toBeNull();
  });
  it("takes case numbers of 5 to 20 ASCII digits only", () => {
    expect(caseNumberFrom("12345")).toBe("12345");
    expect(caseNumberFrom("1234")).toBeNull();
    expect(caseNumberFrom("١٢٣٤٥")).toBeNull();
    expect(caseNumberFrom(" 12345")).toBeNull();
  });
});

describe("dates of birth", () => {
  it("are refused in the future and more than 120 years back", () => {
    expect(birthDateProblem("2026-11-24", "2026-11-23")).toBe("cannot be in the future.");
    expect(birthDateProblem("2099-01-01", "2026-11-23")).toBe("cannot be in the future.");
    expect(birthDateProblem("2026-11-23", "2026-11-23")).toBeNull();
    expect(birthDateProblem("1980-05-17", "2026-11-23")).toBeNull();
    expect(birthDateProblem("1906-11-23", "2026-11-23")).toBeNull();
    expect(birthDateProblem("1906-11-22", "2026-11-23")).toBe("must be within the last 120 years.");
    expect(birthDateProblem("1908-02-29", "2028-02-29")).toBeNull();
    expect(birthDateProblem("1908-02-28", "2028-02-29")).toBe("must be within the last 120 years.");
  });
});

describe("amount of coverage", () => {
  const COVERAGE_FORMAT = "Amount of Coverage must be a dollar amount, like $250,000.00.";
  /** The problem with the amount in an otherwise complete application, or null when it is accepted. */
  function coverageProblem(amountOfCoverage: string): string | null {
    const result = applicationSchema.safeParse({
      amountOfCoverage,
      applicantName: "Lee Park",
      dob: "1975-01-31",
      gender: "Female",
      email: "lee@example.com",
      phone: "2035550100",
      todaysDate: localIsoDate(),
      paymentMonthlyBilling: true,
      confirmAccuracy: true,
      applicantSignature: pngDataUrl(),
    });
    if (result.success) return null;
    const issues = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(
      issues.every((i) => i.startsWith("amountOfCoverage: ")),
      issues.join("; "),
    ).toBe(true);
    return result.error.issues[0].message;
  }

  it("is more than $0 and at most $100,000,000", () => {
    for (const zero of ["0", "0.00", "$0", "$0.00", "00", "0.0", "-0"]) expect(coverageProblem(zero), zero).toBe(COVERAGE_FORMAT);
    for (const fine of ["0.01", "$1", "250000", "$100,000,000.00"]) expect(coverageProblem(fine), fine).toBeNull();
    for (const bad of ["100000000.01", "-5", "1e5"]) expect(coverageProblem(bad), bad).toBe(COVERAGE_FORMAT);
  });
});

describe("signature image size", () => {
  it("takes up to 10,000 pixels on each side and refuses an image wider or taller than that", () => {
    expect(checkSignatureDataUrl(pngDataUrl(makePng(10_000, 1)))).toBeNull();
    expect(checkSignatureDataUrl(pngDataUrl(makePng(1, 10_000)))).toBeNull();
    expect(checkSignatureDataUrl(pngDataUrl(makePng(10_001, 1)))).toBe("not-png");
    expect(checkSignatureDataUrl(pngDataUrl(makePng(1, 10_001)))).toBe("not-png");
  });
});
