/**
 * Browser calls to the articles API. Every call reads the JSON answer and throws an Error whose
 * message is the reason to show: the server's `error`, else 'HTTP error! status: N' for a
 * non-ok status (spec: admin-side section 7), else 'Unknown error'.
 */
import type { ArticlesPage, FeaturedArticle, FeedInput, IngestCounts, RssFeed } from "./contract";

export const UNKNOWN_ERROR = "Unknown error";

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public body: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

async function call<T extends Record<string, unknown>>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: { Accept: "application/json", ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    credentials: "same-origin",
  });
  let body: Record<string, unknown> | null = null;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = null;
  }
  const serverError = typeof body?.error === "string" && body.error ? body.error : null;
  if (!res.ok) throw new ApiError(serverError ?? `HTTP error! status: ${res.status}`, res.status, body);
  if (!body || body.success === false) throw new ApiError(serverError ?? UNKNOWN_ERROR, res.status, body);
  return body as T;
}

/** The reason of a failure, for the spec's 'Failed to ...: {reason}' messages. */
export function errorReason(err: unknown): string {
  return err instanceof Error && err.message ? err.message : UNKNOWN_ERROR;
}

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
  deleteFeed: (id: number) => call("/api/rss/feeds", { method: "DELETE", json: { id } }).then(() => undefined),
  ingest: () =>
    call<{ counts?: Partial<IngestCounts> }>("/api/rss/ingest", { method: "POST", json: {} }).then((b) => ({
      articles: Number(b.counts?.articles ?? 0),
      feeds: Number(b.counts?.feeds ?? 0),
      failed: Number(b.counts?.failed ?? 0),
    })),
};

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
