import { describe, expect, it } from "vitest";
import { EVERYONE } from "../contract";
import { audienceSummary, donePercent, members, sentOf } from "./display";

describe("the Announcements tab's words", () => {
  it("sums an audience up in words", () => {
    expect(audienceSummary(EVERYONE)).toBe("All active members");
    expect(
      audienceSummary({
        statuses: ["covered", "past-due"],
        plans: ["monthly", "annual"],
        states: ["FL", "GA"],
        joinedAfter: "2024-01-01",
        joinedBefore: "2025-06-30",
      }),
    ).toBe("Covered, Past due · Monthly or Annual plan · in FL, GA · joined after 2024-01-01 · joined before 2025-06-30");
  });

  it("counts members and progress", () => {
    expect(members(1)).toBe("1 member");
    expect(members(1234)).toBe("1,234 members");
    const progress = { recipients: 4, sent: 2, waiting: 1, failed: 0, skipped: { "No e-mail address on file": 1 } };
    expect(sentOf(progress)).toBe("sent 2 of 4");
    expect(donePercent(progress)).toBe(75);
    expect(donePercent({ ...progress, recipients: 0, sent: 0, skipped: {} })).toBe(100);
  });
});
