import { describe, expect, it } from "vitest";
import {
  idsByTableOf,
  listSearchParams,
  normalizeStatus,
  parseSubmissionId,
  sourceInfo,
  submissionQueryFromAddress,
  submissionQuerySchema,
} from "./contract";

describe("submissions contract", () => {
  it("treats a missing or unknown status as pending", () => {
    expect(normalizeStatus(undefined)).toBe("pending");
    expect(normalizeStatus("new")).toBe("pending");
    expect(normalizeStatus("in-review")).toBe("in-review");
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
    expect(submissionQuerySchema.parse({})).toEqual({
      search: "",
      type: "all",
      status: "all",
      sort: "date_desc",
      assigned: "all",
      page: 1,
      limit: 25,
    });
    expect(submissionQuerySchema.parse({ search: "  Ann  " }).search).toBe("Ann");
  });

  it("spells out every parameter of the list call, and the export's without page and limit", () => {
    const q = submissionQuerySchema.parse({ search: "Ann", status: "approved", page: "3" });
    expect(listSearchParams(q).toString()).toBe("search=Ann&type=all&status=approved&sort=date_desc&page=3&limit=25");
    expect(listSearchParams(q, { paged: false }).toString()).toBe("search=Ann&type=all&status=approved&sort=date_desc");
    const mine = submissionQuerySchema.parse({ assigned: "me" });
    expect(listSearchParams(mine, { paged: false }).toString()).toBe("search=&type=all&status=all&sort=date_desc&assigned=me");
    expect(submissionQuerySchema.parse(Object.fromEntries(listSearchParams(q)))).toEqual(q);
  });

  it("reads the list's query from the page address, a bad value falling back to its default on its own", () => {
    const read = (query: string) => submissionQueryFromAddress(new URLSearchParams(query));
    expect(read("")).toEqual(submissionQuerySchema.parse({}));
    expect(read("status=approved&type=form-request&page=0&sort=nonsense&limit=7&search=%20roof%20&assigned=me")).toEqual({
      search: "roof",
      type: "form-request",
      status: "approved",
      sort: "date_desc",
      assigned: "me",
      page: 1,
      limit: 25,
    });
    expect(read("status=bogus&page=3&search=" + "x".repeat(101))).toMatchObject({ status: "all", page: 3, search: "" });
    // The address's other parameters (the dashboard's tab, an open submission) are not the list's.
    expect(read("tab=submissions&view=contact_1&status=pending")).toEqual({ ...submissionQuerySchema.parse({}), status: "pending" });
  });
});
