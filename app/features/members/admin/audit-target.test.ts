import { describe, expect, it } from "vitest";
import type { AuditEntry } from "~/domain/audit";
import { describeTarget } from "./AuditPanel";

const entry = (e: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  created_at: "2026-01-01T00:00:00.000Z",
  actor_id: 1,
  actor_label: "staff",
  action: "submissions.status",
  target_type: "submission",
  target_id: 7,
  target_label: "contact_7",
  row_count: null,
  details: null,
  ...e,
});

describe("the audit log's 'On' column", () => {
  it("shows a submission's status change from → to", () => {
    expect(describeTarget(entry({ details: { table: "contact_messages", from: "pending", to: "approved" } }))).toBe(
      "contact_7 · pending → approved",
    );
    // An entry written without both keeps its submission only.
    expect(describeTarget(entry({ details: { table: "contact_messages" } }))).toBe("contact_7");
  });
});

describe("a staff settings entry", () => {
  it("names the field changed and the permission granted or taken back, never the address", () => {
    const settings = (details: Record<string, unknown>) =>
      describeTarget(entry({ action: "staff.settings", target_type: "staff", target_label: "helper", details }));
    expect(settings({ fields: ["email"], announcements: "granted" })).toBe("helper · changed email · may now write and send announcements");
    expect(settings({ announcements: "revoked" })).toBe("helper · may no longer write and send announcements");
  });
});
