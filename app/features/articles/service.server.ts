import type { Kysely } from "kysely";
import type { Config } from "~/platform/config.server";
import { fromBool, nowIso, UniqueViolationError } from "~/platform/db.server";
import { HttpError, notFound } from "~/platform/http.server";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { ArticlesRepo, toArticleJson, type ArticleJson } from "./articles-repo.server";
import { ARTICLE_CATEGORIES, FEATURED_SLOTS, categoryLabel, isArticleCategory } from "./categories";
import { DEFAULT_FEEDS } from "./default-feeds";
import { currentMonth, exportMonthError, formatDigest, monthRange } from "./digest";
import { feedInputSchema, parseHttpUrl, type FeedInputData, type FeedUpdateData } from "./feed-input";
import { FeedsRepo, toFeedJson, type FeedJson } from "./feeds-repo.server";
import { DEFAULT_INGEST_SETTINGS, IngestCoordinator, type IngestResult, type IngestSettings } from "./ingest.server";
import { IngestRunsRepo } from "./ingest-runs-repo.server";
import { classifyAddress, literalHostAddress } from "./ip-policy.server";
import { DEFAULT_FETCH_LIMITS, SafeFetcher, type SafeFetchLimits } from "./safe-fetch.server";
import { IngestScheduler } from "./scheduler.server";

export const ARTICLES_DEFAULT_LIMIT = 10;
export const ARTICLES_MAX_LIMIT = 1000;
export const EXPORT_MAX_ARTICLES = 5000;
export const FEED_EXISTS = "A feed with this URL already exists";
export const FEED_NOT_FOUND = "Feed not found";
export const FEED_PRIVATE_HOST = "URL must point to a public internet address";
export const FEATURED_ERROR = "Failed to load articles";

export interface CategoryCount {
  value: string;
  label: string;
  count: number;
}

export interface ArticlesPage {
  articles: ArticleJson[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
  categories: CategoryCount[];
}

/** A home-page card (spec: public-side section 3, "Home card item / featured article"). */
export interface FeaturedItem {
  id: number | string;
  /** The slot: home_improvement, decor or green_living (FEATURED_SLOTS). */
  category: string;
  title: string;
  excerpt: string | null;
  image_url: string | null;
  external_url: string;
  published_at: string | null;
  is_placeholder: boolean;
  is_error: boolean;
}

export interface FeedsHealth {
  success: true;
  feeds: { total: number; active: number; failing: number };
  failing: Array<{ id: number; name: string; url: string; last_error: string | null; consecutive_failures: number; next_attempt_at: string | null }>;
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

export interface ArticlesServiceOptions {
  fetch?: Partial<SafeFetchLimits>;
  ingest?: Partial<IngestSettings>;
}

/**
 * The knowledge center's data: feeds (admin), articles (members), featured cards (home page),
 * ingest (engine, lease, runs, scheduler), the month's export and the feeds' health.
 */
export class ArticlesService {
  readonly feedsRepo: FeedsRepo;
  readonly articlesRepo: ArticlesRepo;
  readonly runsRepo: IngestRunsRepo;
  private fetcher!: SafeFetcher;
  private coordinator!: IngestCoordinator;
  private scheduler: IngestScheduler | null = null;
  private fetchLimits: SafeFetchLimits;
  private ingestSettings: IngestSettings;

  constructor(
    private db: Kysely<Database>,
    private config: Config,
    private logger: Logger,
    options: ArticlesServiceOptions = {},
  ) {
    this.feedsRepo = new FeedsRepo(db);
    this.articlesRepo = new ArticlesRepo(db);
    this.runsRepo = new IngestRunsRepo(db);
    this.fetchLimits = { ...DEFAULT_FETCH_LIMITS, allowPrivateHosts: config.RSS_ALLOW_PRIVATE_HOSTS, ...options.fetch };
    this.ingestSettings = { ...DEFAULT_INGEST_SETTINGS, ...options.ingest };
    this.rebuildEngine();
  }

  /** Changes fetch limits or ingest settings (tests: short timeouts, small bodies, no reuse window). */
  configure(options: ArticlesServiceOptions) {
    this.fetcher.close();
    this.fetchLimits = { ...this.fetchLimits, ...options.fetch };
    this.ingestSettings = { ...this.ingestSettings, ...options.ingest };
    this.rebuildEngine();
  }

  private rebuildEngine() {
    this.fetcher = new SafeFetcher(this.fetchLimits);
    this.coordinator = new IngestCoordinator({
      feeds: this.feedsRepo,
      articles: this.articlesRepo,
      runs: this.runsRepo,
      fetcher: this.fetcher,
      settings: this.ingestSettings,
      logger: this.logger,
    });
  }

  // ---- Articles -------------------------------------------------------------------------

  async listArticles(opts: { page?: number; limit?: number; category?: string | null } = {}): Promise<ArticlesPage> {
    const limit = clampInt(opts.limit, ARTICLES_DEFAULT_LIMIT, 1, ARTICLES_MAX_LIMIT);
    const page = clampInt(opts.page, 1, 1, Number.MAX_SAFE_INTEGER);
    const category = opts.category && opts.category !== "all" ? opts.category : undefined;
    const [counts, rows] = await Promise.all([
      this.articlesRepo.categoryCounts(),
      this.articlesRepo.page({ offset: (page - 1) * limit, limit, category }),
    ]);
    const all = counts.reduce((n, c) => n + c.count, 0);
    const total = category ? (counts.find((c) => c.category === category)?.count ?? 0) : all;
    return {
      articles: rows.map(toArticleJson),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
      categories: sortCategories(counts),
    };
  }

  /** The newest article of each featured slot; a slot without one gets a placeholder card. */
  async featured(): Promise<{ success: boolean; articles: FeaturedItem[]; error?: string }> {
    let failed = false;
    const articles = await Promise.all(
      FEATURED_SLOTS.map(async (slot): Promise<FeaturedItem> => {
        try {
          const row = await this.articlesRepo.newestIn(slot.categories);
          if (!row) return placeholderItem(slot);
          return {
            id: Number(row.id),
            category: slot.key,
            title: row.title,
            excerpt: row.summary,
            image_url: row.image_url,
            external_url: row.link,
            published_at: row.published_at,
            is_placeholder: false,
            is_error: false,
          };
        } catch (err) {
          failed = true;
          this.logger.error({ err, slot: slot.key }, "featured article query failed");
          return errorItem(slot);
        }
      }),
    );
    return failed ? { success: false, articles, error: FEATURED_ERROR } : { success: true, articles };
  }

  /** The month's digest as plain text (default: the current month, UTC). */
  async exportMonth(month?: string | null): Promise<{ month: string; text: string; count: number }> {
    const m = month || currentMonth();
    const error = exportMonthError(m);
    const range = error ? null : monthRange(m);
    if (!range) throw new HttpError(400, error ?? "Month must be in YYYY-MM format");
    const [rows, total] = await Promise.all([
      this.articlesRepo.between(range.from, range.to, EXPORT_MAX_ARTICLES),
      this.articlesRepo.countBetween(range.from, range.to),
    ]);
    return { month: m, count: total, text: formatDigest({ orgName: this.config.ORG_NAME, monthLabel: range.label, articles: rows, total }) };
  }

  // ---- Feeds ----------------------------------------------------------------------------

  async listFeeds(): Promise<FeedJson[]> {
    return (await this.feedsRepo.list()).map(toFeedJson);
  }

  async createFeed(input: unknown): Promise<FeedJson> {
    const data = this.checkFeedInput(input);
    try {
      return toFeedJson(await this.feedsRepo.create(data));
    } catch (err) {
      if (err instanceof UniqueViolationError) throw new HttpError(409, FEED_EXISTS);
      throw err;
    }
  }

  async updateFeed(input: FeedUpdateData | (Record<string, unknown> & { id: number })): Promise<FeedJson> {
    const id = Number(input.id);
    const data = this.checkFeedInput(input);
    const previous = await this.feedsRepo.find(id);
    if (!previous) throw notFound(FEED_NOT_FOUND);
    let row;
    try {
      row = await this.feedsRepo.update(id, data, previous);
    } catch (err) {
      if (err instanceof UniqueViolationError) throw new HttpError(409, FEED_EXISTS);
      throw err;
    }
    if (!row) throw notFound(FEED_NOT_FOUND);
    // Articles carry their feed's category (it keeps the page queries on one index).
    if (previous.category !== data.category) await this.articlesRepo.setCategoryForFeed(id, data.category);
    return toFeedJson(row);
  }

  /** Deletes a feed and the articles gathered from it. */
  async deleteFeed(id: number): Promise<void> {
    if (!(await this.feedsRepo.delete(id))) throw notFound(FEED_NOT_FOUND);
  }

  private checkFeedInput(input: unknown): FeedInputData {
    const result = feedInputSchema.safeParse(input);
    if (!result.success) {
      const issue = result.error.issues[0];
      const details: Record<string, string> = {};
      for (const i of result.error.issues) details[i.path.join(".") || "_"] ??= i.message;
      throw new HttpError(400, issue?.message ?? "Invalid feed", details);
    }
    const data = result.data;
    // An address that can never be fetched is refused now, not at the next ingest.
    if (!this.fetchLimits.allowPrivateHosts) {
      const url = parseHttpUrl(data.url)!;
      const literal = literalHostAddress(url);
      if ((literal && !classifyAddress(literal).allowed) || /^localhost\.?$|\.localhost\.?$/i.test(url.hostname)) {
        throw new HttpError(400, FEED_PRIVATE_HOST, { url: FEED_PRIVATE_HOST });
      }
    }
    return data;
  }

  async health(): Promise<FeedsHealth> {
    const [feeds, run] = await Promise.all([this.feedsRepo.list(), this.runsRepo.latest()]);
    const active = feeds.filter((f) => f.is_active === 1);
    const failing = active.filter((f) => Number(f.consecutive_failures) > 0);
    return {
      success: true,
      feeds: { total: feeds.length, active: active.length, failing: failing.length },
      failing: failing.map((f) => ({
        id: Number(f.id),
        name: f.name,
        url: f.url,
        last_error: f.last_error,
        consecutive_failures: Number(f.consecutive_failures),
        next_attempt_at: f.next_attempt_at,
      })),
      lastRun: run
        ? {
            id: Number(run.id),
            status: run.status,
            reason: run.reason,
            started_at: run.started_at,
            finished_at: run.finished_at,
            counts: {
              articles: Number(run.articles_added),
              updated: Number(run.articles_updated),
              feeds: Number(run.feeds_total),
              failed: Number(run.feeds_failed),
              not_modified: Number(run.feeds_not_modified),
              skipped: Number(run.feeds_skipped),
            },
            error: run.error,
          }
        : null,
    };
  }

  // ---- Ingest ---------------------------------------------------------------------------

  /**
   * Ingests every active feed; one run at a time across instances (see IngestCoordinator).
   * `coalesce` (members' Refresh only) lets a run finished moments ago answer instead.
   */
  ingestAll(opts: { reason?: string; coalesce?: boolean } = {}): Promise<IngestResult> {
    return this.coordinator.ingestAll({ reason: opts.reason ?? "manual", coalesce: opts.coalesce ?? false });
  }

  /**
   * On the first start ever, adds the default feeds (inactive). Recorded in rss_meta, so feeds
   * an admin deleted never come back.
   */
  async seedDefaultFeeds(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const feeds = new FeedsRepo(trx);
      if (!(await feeds.claimFlag("default_feeds_seeded"))) return 0;
      if ((await feeds.count()) > 0) return 0;
      const now = nowIso();
      await trx
        .insertInto("rss_feeds")
        .values(
          DEFAULT_FEEDS.map((f) => ({
            name: f.name,
            url: f.url,
            category: f.category,
            is_active: fromBool(false),
            consecutive_failures: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      return DEFAULT_FEEDS.length;
    });
  }

  /** Server start: seeds the default feeds once and starts the scheduler (RSS_INGEST_INTERVAL_MINUTES; 0 = off). */
  async start() {
    const seeded = await this.seedDefaultFeeds();
    if (seeded) this.logger.info({ feeds: seeded }, "seeded the default RSS feeds (inactive)");
    const minutes = this.config.RSS_INGEST_INTERVAL_MINUTES;
    if (minutes > 0 && !this.scheduler) {
      this.scheduler = new IngestScheduler({
        intervalMs: minutes * 60_000,
        lastStartedAt: async () => (await this.runsRepo.latest())?.started_at ?? null,
        run: async () => {
          await this.ingestAll({ reason: "schedule" });
        },
        logger: this.logger,
      });
      this.scheduler.start();
    }
  }

  /** Shutdown: stops the scheduler, aborts a run in flight (it records itself) and closes connections. */
  async stop() {
    this.scheduler?.stop();
    this.scheduler = null;
    await this.coordinator.stop();
    this.fetcher.close();
  }
}

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || value === null || value === undefined || value === "") return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}

/** Categories that have articles, in the admin's category order, with their labels. */
function sortCategories(counts: Array<{ category: string; count: number }>): CategoryCount[] {
  const order = new Map<string, number>(ARTICLE_CATEGORIES.map((c, i) => [c, i]));
  return counts
    .filter((c) => c.count > 0)
    .sort((a, b) => (order.get(a.category) ?? 999) - (order.get(b.category) ?? 999) || a.category.localeCompare(b.category))
    .map((c) => ({ value: c.category, label: isArticleCategory(c.category) ? categoryLabel(c.category) : c.category, count: c.count }));
}

type Slot = (typeof FEATURED_SLOTS)[number];

function placeholderItem(slot: Slot): FeaturedItem {
  return {
    id: `placeholder-${slot.key}`,
    category: slot.key,
    title: `${slot.title} articles are coming soon`,
    excerpt: `New ${slot.title.toLowerCase()} articles will appear here as soon as they are published.`,
    image_url: null,
    external_url: "#",
    published_at: null,
    is_placeholder: true,
    is_error: false,
  };
}

function errorItem(slot: Slot): FeaturedItem {
  return {
    id: `error-${slot.key}`,
    category: slot.key,
    title: `${slot.title} Temporarily Unavailable`,
    excerpt: "We're experiencing technical difficulties. Please try again later.",
    image_url: null,
    external_url: "#",
    published_at: null,
    is_placeholder: false,
    is_error: true,
  };
}
