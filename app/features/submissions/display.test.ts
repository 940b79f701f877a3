import { describe, expect, it } from "vitest";
import { displayFieldValue, emailBreakParts, formatCalendarDate, formatDateTime } from "./display";

describe("submission values as staff read them", () => {
  it("phones as (XXX) XXX-XXXX, coverage as USD, subject and relationship by their labels", () => {
    expect(displayFieldValue("contact_messages", { key: "phone", value: "2035551234" })).toBe("(203) 555-1234");
    expect(displayFieldValue("applications", { key: "beneficiary_phone", value: "203-555-1234" })).toBe("(203) 555-1234");
    expect(displayFieldValue("contact_messages", { key: "phone", value: "+44 20 7946 0958" })).toBe("+44 20 7946 0958");
    expect(displayFieldValue("applications", { key: "amount_of_coverage", value: "250000.00" })).toBe("$250,000.00");
    expect(displayFieldValue("applications", { key: "amount_of_coverage", value: "1234.5" })).toBe("$1,234.50");
    expect(displayFieldValue("contact_messages", { key: "subject", value: "billing" })).toBe("Billing Inquiry");
    expect(displayFieldValue("contact_messages", { key: "subject", value: "feedback" })).toBe("Feedback/Suggestions");
    expect(displayFieldValue("contact_messages", { key: "subject", value: "Something typed" })).toBe("Something typed");
    expect(displayFieldValue("applications", { key: "beneficiary_relationship", value: "child" })).toBe("Child");
    expect(displayFieldValue("applications", { key: "beneficiary_relationship", value: "Child" })).toBe("Child");
    expect(displayFieldValue("applications", { key: "payment_use_credit_card", value: true })).toBe("Yes");
    expect(displayFieldValue("applications", { key: "co_email", value: null })).toBe("—");
    expect(displayFieldValue("applications", { key: "city", value: "Stamford" })).toBe("Stamford");
  });

  it("times in the reader's zone, calendar dates never shifted to another day", () => {
    const at = { key: "submitted_at", value: "2026-11-23T19:29:12.466Z" };
    expect(displayFieldValue("applications", at, "America/New_York")).toBe("Nov 23, 2026, 2:29 PM");
    expect(displayFieldValue("applications", at, "Asia/Tokyo")).toBe("Nov 24, 2026, 4:29 AM");
    expect(formatDateTime("not-a-date")).toBe("not-a-date");
    // West of UTC, midnight UTC is still the day before: the date must not follow.
    const tz = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      expect(displayFieldValue("applications", { key: "dob", value: "1980-04-02" })).toBe("Apr 2, 1980");
      expect(displayFieldValue("applications", { key: "co_dob", value: "1980-01-01" })).toBe("Jan 1, 1980");
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(formatCalendarDate("1980-02-30")).toBe("1980-02-30");
  });

  it("an e-mail address breaks before @ and dots, never inside a name", () => {
    expect(emailBreakParts("marisol.quintero@mail.example.com")).toEqual(["marisol", ".quintero", "@mail", ".example", ".com"]);
    expect(emailBreakParts("x@y").join("")).toBe("x@y");
  });
});
