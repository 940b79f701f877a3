import { describe, expect, it } from "vitest";
import {
  STATUS_COLORS,
  formatSubmissionDate,
  idsByTableOf,
  normalizeStatus,
  parseSubmissionId,
  shortDetails,
  sourceInfo,
  submissionQuerySchema,
} from "./contract";

describe("submissions contract", () => {
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
    expect(formatSubmissionDate("2024-03-05T12:00:00.000Z")).toBe("Mar 5, 2024");
  });

  it("treats a missing or unknown status as pending and colors the five", () => {
    expect(normalizeStatus(undefined)).toBe("pending");
    expect(normalizeStatus("new")).toBe("pending");
    expect(normalizeStatus("in-review")).toBe("in-review");
    expect(Object.fromEntries(Object.entries(STATUS_COLORS).map(([k, v]) => [k, v.name]))).toEqual({
      pending: "yellow",
      "in-review": "blue",
      approved: "green",
      rejected: "red",
      completed: "purple",
    });
  });

  it("maps prefixed ids to tables and refuses anything else", () => {
    expect(parseSubmissionId("contact_1")).toEqual({ table: "contact_messages", id: 1 });
    expect(parseSubmissionId("cpa_22")).toEqual({ table: "cpa_requests", id: 22 });
    expect(parseSubmissionId("homeowner_3")).toEqual({ table: "homeowner_material_requests", id: 3 });
    expect(parseSubmissionId("application_4")).toEqual({ table: "applications", id: 4 });
    for (const bad of ["contact_0", "contact_01", "contact_-1", "contact_1.5", "user_1", "contact_", "contact_9999999999", " contact_1"]) {
      expect(parseSubmissionId(bad), bad).toBeNull();
    }
    expect(idsByTableOf(["cpa_2", "application_9", "cpa_5", "junk"])).toEqual({
      contact_messages: [],
      cpa_requests: [2, 5],
      homeowner_material_requests: [],
      applications: [9],
    });
  });

  it("maps an unrecognized source to contact-form with formType Unknown", () => {
    expect(sourceInfo("mystery_table")).toEqual({ type: "contact-form", formType: "Unknown" });
    expect(sourceInfo("applications")).toEqual({ type: "membership-application", formType: "Membership Application" });
  });

  it("defaults the list query", () => {
    expect(submissionQuerySchema.parse({})).toEqual({ search: "", type: "all", status: "all", sort: "date_desc", page: 1, limit: 25 });
    expect(submissionQuerySchema.parse({ search: "  Ann  " }).search).toBe("Ann");
  });
});
