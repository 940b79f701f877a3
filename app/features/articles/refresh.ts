import { formatDateTime, formatZonedDateTime } from "~/platform/dates";

/** Knowledge center Refresh messages (spec: public-side section 8). */
export const REFRESH_FAILED = "Failed to refresh RSS feeds. Please try again.";
export const LOAD_FAILED = "Failed to load articles. Please try again.";

export function refreshSuccessMessage(newArticles: number): string {
  return newArticles > 0
    ? `Successfully refreshed! Added ${newArticles} new articles.`
    : "RSS feeds refreshed successfully. No new articles found.";
}

/** What an ingest did, as the Refresh and 'Ingest all' buttons report it. */
export interface IngestOutcome {
  /** New articles. */
  articles: number;
  /** Feeds fetched, and of them failed. */
  feeds: number;
  failed: number;
  /** Active feeds not fetched: waiting to retry after failures. */
  skipped: number;
  /** The answer was a run that had finished moments before (a member's Refresh), not a new one. */
  coalesced: boolean;
  /** When no feed was due: the earliest time a waiting feed is tried again. */
  nextAttemptAt: string | null;
}

/** A member's Refresh answered with a run someone else started a moment before. */
export const REFRESHED_MOMENTS_AGO = "Articles were refreshed a moment ago; no new articles since.";

/**
 * A run that fetched nothing because every active feed waits after failures. With `timeZone`
 * (staff: the association's) the time names its zone; without, it is the reader's own.
 */
export function noFeedsDueMessage(nextAttemptAt: string | null, timeZone?: string): string {
  const when = timeZone ? formatZonedDateTime(nextAttemptAt, timeZone) : formatDateTime(nextAttemptAt);
  return `No feeds were due: every active feed is waiting to retry after failures${when ? ` (next at ${when})` : ""}.`;
}

/** The Refresh button's message: what happened, the spec's texts for the normal cases. */
export function refreshMessage(outcome: IngestOutcome, timeZone?: string): string {
  if (outcome.coalesced) return REFRESHED_MOMENTS_AGO;
  if (outcome.feeds === 0 && outcome.skipped > 0) return noFeedsDueMessage(outcome.nextAttemptAt, timeZone);
  return refreshSuccessMessage(outcome.articles);
}
