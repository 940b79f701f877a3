/**
 * Browser calls to the articles API. Every call reads the JSON answer and throws an Error whose
 * message is the reason to show: the server's `error`, else 'HTTP error! status: N' for a
 * non-ok status (spec: admin-side section 7), else 'Unknown error'.
 */
import { jsonClient } from "~/platform/json-client";
import type { IngestOutcome } from "./refresh";
import type { ArticlesPage, FeaturedArticle, FeedInput, FeedRetryResult, IngestResult, RssFeed } from "./contract";

export { errorReason } from "~/platform/json-client";

const call = jsonClient();

export const rssApi = {
  listArticles: ({ page, limit, category }: { page: number; limit: number; category: string | null }) => {
    const query = new URLSearchParams({ limit: String(limit), page: String(page) });
    if (category) query.set("category", category);
    return call<Partial<ArticlesPage>>(`/api/rss/articles?${query}`).then((b): ArticlesPage => ({
      articles: b.articles ?? [],
      pagination: b.pagination ?? { page, limit, total: 0, totalPages: 0 },
      categories: b.categories ?? [],
    }));
  },
  listFeeds: () => call<{ feeds: RssFeed[] }>("/api/rss/feeds").then((b) => b.feeds ?? []),
  addFeed: (feed: FeedInput) => call<{ feed: RssFeed }>("/api/rss/feeds", { method: "POST", json: feed }).then((b) => b.feed),
  updateFeed: (id: number, feed: FeedInput) =>
    call<{ feed: RssFeed }>("/api/rss/feeds", { method: "PUT", json: { id, ...feed } }).then((b) => b.feed),
  retryFeed: (id: number) =>
    call<FeedRetryResult & { success: true }>("/api/rss/feeds/retry", { method: "POST", json: { id } }).then(
      ({ feed, outcome }): FeedRetryResult => ({ feed, outcome }),
    ),
  deleteFeed: (id: number) => call("/api/rss/feeds", { method: "DELETE", json: { id } }).then(() => undefined),
  /** Runs an ingest; when another server is running one, follows that run to its end. */
  ingest: async (): Promise<IngestOutcome> => {
    // The run answers when it is done, which may take minutes: no deadline (the page says it is refreshing).
    let answer = await call<Partial<IngestResult>>("/api/rss/ingest", { method: "POST", json: {}, timeoutMs: null });
    for (let runId = answer.run?.id ?? null; answer.inProgress; runId ??= answer.run?.id ?? null) {
      await new Promise((resolve) => setTimeout(resolve, INGEST_FOLLOW_MS));
      answer = await call<Partial<IngestResult>>(`/api/rss/ingest/status${runId === null ? "" : `?run=${runId}`}`);
    }
    return {
      articles: Number(answer.counts?.articles ?? 0),
      feeds: Number(answer.counts?.feeds ?? 0),
      failed: Number(answer.counts?.failed ?? 0),
      skipped: Number(answer.run?.skipped ?? 0),
      coalesced: answer.coalesced === true,
      nextAttemptAt: typeof answer.nextAttemptAt === "string" ? answer.nextAttemptAt : null,
    };
  },
};

/** How often a run another server is running is looked at again. */
const INGEST_FOLLOW_MS = 1000;

/**
 * GET /api/featured-articles, answered as the home block reads it: a server error still
 * hands over the articles it returned (spec: public-side section 8). Only a network failure or
 * an unreadable answer throws.
 */
export async function fetchFeaturedArticles(): Promise<{ success: boolean; articles: FeaturedArticle[]; error: string | null }> {
  const res = await fetch("/api/featured-articles", { headers: { Accept: "application/json" } });
  const body = (await res.json()) as { success?: boolean; articles?: unknown; error?: unknown };
  if (!body || typeof body !== "object") throw new Error("Unreadable answer");
  const articles = Array.isArray(body.articles) ? (body.articles as FeaturedArticle[]) : [];
  const success = res.ok && body.success !== false;
  return { success, articles, error: success ? null : typeof body.error === "string" && body.error ? body.error : null };
}
