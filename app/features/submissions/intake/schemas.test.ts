import { describe, expect, it } from "vitest";
import { isPhoneNumber } from "./fields";
import {
  CONTACT_SUBJECTS,
  contactSchema,
  isHoneypotFilled,
  requestFormSchema,
  splitFullName,
  toCpaRequest,
  toMaterialRequest,
} from "./schemas";

describe("splitFullName", () => {
  it("takes the first word as the first name and the rest as the last name", () => {
    expect(splitFullName("Mary Ann Smith")).toEqual({ first_name: "Mary", last_name: "Ann Smith" });
    expect(splitFullName("  Jo   van  Dyke ")).toEqual({ first_name: "Jo", last_name: "van Dyke" });
    expect(splitFullName("Cher")).toEqual({ first_name: "Cher", last_name: null });
  });
});

describe("contact subjects", () => {
  it("are the spec's six values and labels", () => {
    expect(CONTACT_SUBJECTS.map((s) => `${s.value}:${s.label}`)).toEqual([
      "membership:Membership Questions",
      "warranty:Home Warranty Claims",
      "billing:Billing Inquiry",
      "technical:Technical Support",
      "general:General Information",
      "feedback:Feedback/Suggestions",
    ]);
  });

  it("a form posted without JavaScript parses like JSON (blank strings are missing values)", () => {
    const fromForm = contactSchema.parse({ name: "A", email: "a@b.co", phone: "", subject: "general", message: "Hi" });
    expect(fromForm).toEqual({ name: "A", email: "a@b.co", phone: null, subject: "general", message: "Hi" });
  });
});

describe("phone numbers", () => {
  it.each(["(203) 555-0199", "203.555.0199", "+1 203 555 0199", "2035550199 ext. 12", "555-0199"])("accepts %s", (v) => {
    expect(isPhoneNumber(v)).toBe(true);
  });
  it.each(["call me", "12345", "203-555-0199-203-555-0199", "+1 (203) abc"])("refuses %s", (v) => {
    expect(isPhoneNumber(v)).toBe(false);
  });
});

describe("request form to API bodies", () => {
  const form = requestFormSchema.parse({
    fullName: "Lee Park",
    email: "lee@example.com",
    phone: "",
    memberId: "AHA-9",
    notes: "Thanks",
    materials_requested: "Guide",
  });

  it("CPA: the spec's fields, unknown values null", () => {
    expect(toCpaRequest(form)).toEqual({
      first_name: "Lee",
      last_name: "Park",
      email: "lee@example.com",
      phone: null,
      firm_name: null,
      city: null,
      state: null,
      zip: null,
      notes: "Thanks",
      member_id: "AHA-9",
    });
  });

  it("the membership ID is the certificate number, upper-cased", () => {
    expect(requestFormSchema.parse({ fullName: "Lee Park", email: "lee@example.com", memberId: " aha-9 " }).memberId).toBe("AHA-9");
  });

  it("material request: materials requested and notes kept apart", () => {
    expect(toMaterialRequest(form)).toMatchObject({ materials_requested: "Guide", notes: "Thanks", address1: null, member_id: "AHA-9" });
  });

  it("material request: the mailing address is passed on, normalized", () => {
    const withAddress = requestFormSchema.parse({
      fullName: "Lee",
      email: "lee@example.com",
      address1: "1 Main St",
      address2: "",
      city: "Hartford",
      state: "ct",
      zip: "061030001",
    });
    expect(toMaterialRequest(withAddress)).toMatchObject({
      address1: "1 Main St",
      address2: null,
      city: "Hartford",
      state: "CT",
      zip: "06103-0001",
    });
  });
});

describe("bot trap", () => {
  it("is filled only by a non-blank value", () => {
    expect(isHoneypotFilled({ website: "" })).toBe(false);
    expect(isHoneypotFilled({ website: "  " })).toBe(false);
    expect(isHoneypotFilled({})).toBe(false);
    expect(isHoneypotFilled(null)).toBe(false);
    expect(isHoneypotFilled({ website: "x" })).toBe(true);
  });
});
