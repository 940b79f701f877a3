/**
 * What crosses the wire in the articles feature (public-side section 3, admin-side section 7):
 * the feed form's schema, checked the same way by the admin dialog and by the API, and the
 * JSON the API and the page loaders answer with. Server mappers and browser code both use
 * these types; nothing else describes them.
 */
import { recordIdSchema } from "~/platform/ids";
import { z } from "~/platform/zod";
import { oneLineString } from "~/platform/text-fields";
import { ARTICLE_CATEGORIES, DEFAULT_CATEGORY, type ArticleCategory } from "~/domain/article-categories";

export const FEED_NAME_MAX = 200;
export const FEED_URL_MAX = 2000;

export const FEED_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${FEED_NAME_MAX} characters`,
  urlRequired: "URL is required",
  urlInvalid: "URL must be an http or https address",
  urlTooLong: `URL must be at most ${FEED_URL_MAX} characters`,
  categoryInvalid: "Category must be one of the article categories",
  activeInvalid: "is_active must be true or false",
} as const;

/** An absolute http(s) URL, or null. Credentials in the URL are refused (they would end up in logs). */
export function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname || url.username || url.password) return null;
  return url;
}

const boolish = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal("true"), z.literal("false")], { error: FEED_MESSAGES.activeInvalid })
  .transform((v) => v === true || v === 1 || v === "true");

export const feedInputSchema = z.object({
  name: oneLineString("Name", FEED_MESSAGES.nameRequired)
    .trim()
    .min(1, FEED_MESSAGES.nameRequired)
    .max(FEED_NAME_MAX, FEED_MESSAGES.nameTooLong),
  // Checked before URL parsing, which would quietly drop a tab or newline inside the address.
  url: oneLineString("URL", FEED_MESSAGES.urlRequired)
    .trim()
    .min(1, FEED_MESSAGES.urlRequired)
    .max(FEED_URL_MAX, FEED_MESSAGES.urlTooLong)
    .refine((v) => parseHttpUrl(v) !== null, FEED_MESSAGES.urlInvalid)
    .transform((v) => parseHttpUrl(v)!.href),
  category: z
    .enum(ARTICLE_CATEGORIES as [ArticleCategory, ...ArticleCategory[]], { error: FEED_MESSAGES.categoryInvalid })
    .default(DEFAULT_CATEGORY),
  is_active: boolish.default(true),
});

export type FeedInputData = z.infer<typeof feedInputSchema>;

/** The add/edit dialog's form: the same fields; the 'Enabled' checkbox posts "on" when ticked, nothing when not. */
export const feedFormSchema = feedInputSchema.extend({
  is_active: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
});

export const feedUpdateSchema = feedInputSchema.extend({
  id: recordIdSchema("Feed id is required"),
});
export type FeedUpdateData = z.infer<typeof feedUpdateSchema>;

/** What the admin dialog sends for a feed (the schema trims, checks and defaults it). */
export interface FeedInput {
  name: string;
  url: string;
  category: string;
  is_active: boolean;
}

/**
 * An article as the API and the pages see it. The spec names two fields twice (published_at /
 * publishDate, source_name / feedTitle); both names are sent.
 */
export interface ArticleJson {
  id: number;
  title: string;
  summary: string | null;
  content: string | null;
  link: string;
  category: string;
  image_url: string | null;
  published_at: string;
  publishDate: string;
  source_name: string | null;
  feedTitle: string | null;
  guid?: string;
}

/** A category that has articles, with its label and count. */
export interface CategoryCount {
  value: string;
  label: string;
  count: number;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** GET /api/rss/articles (less `success`) and the knowledge center's loader. */
export interface ArticlesPage {
  articles: ArticleJson[];
  pagination: Pagination;
  categories: CategoryCount[];
}

/** A home-page card (spec: public-side section 3, "Home card item / featured article"). */
export interface FeaturedArticle {
  id: number | string;
  /** The slot: home_improvement, decor or green_living (FEATURED_SLOTS). */
  category: string;
  title: string;
  excerpt: string | null;
  image_url: string | null;
  /** The article's address; "#" for a placeholder or error card. */
  external_url: string;
  published_at: string | null;
  is_placeholder: boolean;
  is_error: boolean;
}

/** GET /api/featured-articles. */
export interface FeaturedAnswer {
  success: boolean;
  articles: FeaturedArticle[];
  error?: string;
}

/** A feed as the API and the admin panel see it. */
export interface RssFeed {
  id: number;
  name: string;
  url: string;
  category: string;
  is_active: boolean;
  last_ingested_at: string | null;
  last_error: string | null;
  /** When last_error happened; null while the feed is healthy. */
  last_error_at: string | null;
  consecutive_failures: number;
  /** While failing: the next scheduled attempt (capped exponential backoff). */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * POST /api/rss/ingest, and GET /api/rss/ingest/status (where a run stands). `inProgress`
 * (answered 202): another server is running an ingest; follow `run.id` with the status call.
 */
export interface IngestResult {
  success: boolean;
  inProgress?: true;
  counts: IngestCounts;
  error?: string;
  run: {
    id: number | null;
    status: string;
    reason: string;
    started_at: string | null;
    finished_at: string | null;
    updated: number;
    not_modified: number;
    skipped: number;
    /** True when this answer is an earlier (or another caller's) run, not a new one. */
    reused: boolean;
  };
  /**
   * Present (true) when a member's Refresh was answered with a run that finished moments ago
   * (within reuseWindowMs) instead of a new one; the counts are that run's.
   */
  coalesced?: true;
  /**
   * When the run fetched no feed because every active feed was waiting to retry after
   * failures: the earliest time one of them will be tried again.
   */
  nextAttemptAt?: string;
  /** Per-feed failures of this run (absent on a reused answer: see each feed's last_error). */
  failures?: Array<{ id: number; name: string; error: string }>;
}

export interface IngestCounts {
  articles: number;
  feeds: number;
  failed: number;
}

/** POST /api/rss/feeds/retry: the feed as stored after its fetch, and how the fetch went. */
export interface FeedRetryResult {
  feed: RssFeed;
  outcome:
    { status: "ok"; added: number; updated: number; items: number } | { status: "not-modified" } | { status: "failed"; error: string };
}

/** GET /api/rss/health. */
export interface FeedsHealth {
  success: true;
  feeds: { total: number; active: number; failing: number };
  failing: Array<{
    id: number;
    name: string;
    url: string;
    last_error: string | null;
    last_error_at: string | null;
    last_ingested_at: string | null;
    consecutive_failures: number;
    next_attempt_at: string | null;
  }>;
  lastRun: {
    id: number;
    status: string;
    reason: string;
    started_at: string;
    finished_at: string | null;
    counts: { articles: number; updated: number; feeds: number; failed: number; not_modified: number; skipped: number };
    error: string | null;
  } | null;
}
