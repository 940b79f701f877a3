import { describe, expect, it } from "vitest";
import {
  STATUS_COLORS,
  displayFieldValue,
  emailBreakParts,
  formatCalendarDate,
  formatStoredDateTime,
  formatSubmissionDate,
  shortDetails,
} from "./display";

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

  it("times in the zone given, named; calendar dates never shifted to another day", () => {
    const at = { key: "submitted_at", value: "2026-11-23T19:29:12.466Z" };
    expect(displayFieldValue("applications", at, "America/New_York")).toBe("Nov 23, 2026, 2:29 PM EST");
    expect(displayFieldValue("applications", at, "Asia/Tokyo")).toBe("Nov 24, 2026, 4:29 AM GMT+9");
    expect(formatStoredDateTime("not-a-date")).toBe("not-a-date");
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

  it("cuts details to 77 characters plus '...' only when over 80", () => {
    const eighty = "x".repeat(80);
    expect(shortDetails(eighty)).toBe(eighty);
    expect(shortDetails(`${eighty}y`)).toBe(`${"x".repeat(77)}...`);
    expect(shortDetails(`${eighty}y`)).toHaveLength(80);
    // Counted in characters, not UTF-16 units: an emoji is never split in half.
    expect(shortDetails(`${"é".repeat(76)}😀😀😀😀😀`)).toBe(`${"é".repeat(76)}😀...`);
  });

  it("shortens street and unit words and collapses whitespace before cutting", () => {
    expect(shortDetails("Ship to: 12 Harbor Boulevard,\n Apartment 4, Main Street")).toBe("Ship to: 12 Harbor Blvd, Apt 4, Main St");
    expect(shortDetails("Streetwise Avenues")).toBe("Streetwise Avenues");
  });

  it("shows 'Recent' for an invalid date", () => {
    expect(formatSubmissionDate("not-a-date")).toBe("Recent");
    expect(formatSubmissionDate("")).toBe("Recent");
    expect(formatSubmissionDate(null)).toBe("Recent");
    expect(formatSubmissionDate("2024-03-05T12:00:00.000Z", "UTC")).toBe("Mar 5, 2024");
    expect(formatSubmissionDate("2024-03-05T02:00:00.000Z", "America/New_York")).toBe("Mar 4, 2024");
  });

  it("colors the five statuses as the spec says", () => {
    expect(Object.fromEntries(Object.entries(STATUS_COLORS).map(([k, v]) => [k, v.name]))).toEqual({
      pending: "yellow",
      "in-review": "blue",
      approved: "green",
      rejected: "red",
      completed: "purple",
    });
  });
});
