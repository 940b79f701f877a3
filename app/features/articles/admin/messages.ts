import { noFeedsDueMessage } from "../refresh";

/** The admin feed messages (spec: admin-side sections 4, 8, 9). */
export const FEED_ADMIN_MESSAGES = {
  loadFailed: (reason: string) => `Failed to load RSS feeds: ${reason}`,
  ingestFailed: (reason: string) => `Ingestion failed: ${reason}`,
  addFailed: (reason: string) => `Failed to add feed: ${reason}`,
  updateFailed: (reason: string) => `Failed to update feed: ${reason}`,
  deleteFailed: (reason: string) => `Failed to delete feed: ${reason}`,
  ingested: "Ingestion completed! Processed feeds successfully.",
  /** A run in which some feeds failed: how many, as a warning (each feed's row shows its error). */
  ingestedWithFailures: (failed: number, feeds: number) =>
    `Ingestion completed, but ${failed} of ${feeds} ${feeds === 1 ? "feed" : "feeds"} failed. Each failed feed shows its last error in the list.`,
  /** 'Ingest all' when every active feed waits to retry after failures: nothing was fetched (not in the spec). */
  noFeedsDue: noFeedsDueMessage,
  /** 'Ingest all' with no active feed (not in the spec). */
  noActiveFeeds: "Nothing was ingested: no feed is active. Enable a feed to ingest it.",
  added: "Feed added successfully!",
  updated: "Feed updated successfully!",
  deleted: "Feed deleted successfully!",
  confirmDelete: "Are you sure you want to delete this feed?",
  /** Feed health: "Retry now" on a failing feed (not in the spec; same tone). */
  retried: (name: string, added: number) => `${name} fetched: ${added} new ${added === 1 ? "article" : "articles"}.`,
  retriedUnchanged: (name: string) => `${name} fetched: nothing new since the last fetch.`,
  retriedStillFailing: (name: string, error: string) => `${name} still fails: ${error}`,
  retryFailed: (reason: string) => `Failed to retry feed: ${reason}`,
} as const;
