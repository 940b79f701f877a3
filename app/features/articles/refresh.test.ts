import { describe, expect, it } from "vitest";
import { FEED_ADMIN_MESSAGES } from "./admin/messages";
import { REFRESHED_MOMENTS_AGO, refreshMessage, type IngestOutcome } from "./refresh";

const outcome = (o: Partial<IngestOutcome>): IngestOutcome => ({
  articles: 0,
  feeds: 1,
  failed: 0,
  skipped: 0,
  coalesced: false,
  nextAttemptAt: null,
  ...o,
});

describe("the Refresh button's message", () => {
  it("keeps the spec's texts for a run of its own", () => {
    expect(refreshMessage(outcome({ articles: 35 }))).toBe("Successfully refreshed! Added 35 new articles.");
    expect(refreshMessage(outcome({}))).toBe("RSS feeds refreshed successfully. No new articles found.");
  });

  it("does not count another person's run from a moment ago as new articles of this Refresh", () => {
    expect(refreshMessage(outcome({ articles: 35, coalesced: true }))).toBe(REFRESHED_MOMENTS_AGO);
    expect(REFRESHED_MOMENTS_AGO).toBe("Articles were refreshed a moment ago; no new articles since.");
  });

  it("says that no feed was due when every active feed waits after failures, and when the first is tried again", () => {
    expect(refreshMessage(outcome({ feeds: 0, skipped: 3, nextAttemptAt: "2026-11-26T14:05:00.000Z" }), "UTC")).toBe(
      "No feeds were due: every active feed is waiting to retry after failures (next at Nov 26, 2026, 2:05 PM UTC).",
    );
    expect(refreshMessage(outcome({ feeds: 0, skipped: 3 }))).toBe(
      "No feeds were due: every active feed is waiting to retry after failures.",
    );
    // Staff read it in the association's zone, named (issue 48).
    expect(FEED_ADMIN_MESSAGES.noFeedsDue("2026-11-26T14:05:00.000Z", "America/New_York")).toBe(
      "No feeds were due: every active feed is waiting to retry after failures (next at Nov 26, 2026, 9:05 AM EST).",
    );
  });
});
