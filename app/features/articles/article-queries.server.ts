import type { Kysely } from "kysely";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { ArticlesRepo, toArticleJson } from "./articles-repo.server";
import { ARTICLE_CATEGORIES, FEATURED_SLOTS, categoryLabel, isArticleCategory } from "~/domain/article-categories";
import type { ArticlesPage, CategoryCount, FeaturedAnswer, FeaturedArticle } from "./contract";
import { currentMonth, exportMonthError, formatDigest, monthRange } from "./digest";

export const ARTICLES_DEFAULT_LIMIT = 10;
export const ARTICLES_MAX_LIMIT = 1000;
export const EXPORT_MAX_ARTICLES = 5000;
export const FEATURED_ERROR = "Failed to load articles";

/** What members and visitors read: the knowledge center's pages, the home page's cards, the month's digest. */
export class ArticleQueries {
  readonly repo: ArticlesRepo;

  constructor(
    db: Kysely<Database>,
    private logger: Logger,
    private options: { orgName: string },
  ) {
    this.repo = new ArticlesRepo(db);
  }

  async listArticles(opts: { page?: number; limit?: number; category?: string | null } = {}): Promise<ArticlesPage> {
    const limit = clampInt(opts.limit, ARTICLES_DEFAULT_LIMIT, 1, ARTICLES_MAX_LIMIT);
    const page = clampInt(opts.page, 1, 1, Number.MAX_SAFE_INTEGER);
    const category = opts.category && opts.category !== "all" ? opts.category : undefined;
    const [counts, rows] = await Promise.all([this.repo.categoryCounts(), this.repo.page({ offset: (page - 1) * limit, limit, category })]);
    const all = counts.reduce((n, c) => n + c.count, 0);
    const total = category ? (counts.find((c) => c.category === category)?.count ?? 0) : all;
    return {
      articles: rows.map(toArticleJson),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
      categories: sortCategories(counts),
    };
  }

  /** The newest article of each featured slot; a slot without one gets a placeholder card. */
  async featured(): Promise<FeaturedAnswer> {
    let failed = false;
    const articles = await Promise.all(
      FEATURED_SLOTS.map(async (slot): Promise<FeaturedArticle> => {
        try {
          const row = await this.repo.newestIn(slot.categories);
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
    if (!range) throw DomainError.invalid(error ?? "Month must be in YYYY-MM format");
    const [rows, total] = await Promise.all([
      this.repo.between(range.from, range.to, EXPORT_MAX_ARTICLES),
      this.repo.countBetween(range.from, range.to),
    ]);
    return {
      month: m,
      count: total,
      text: formatDigest({ orgName: this.options.orgName, monthLabel: range.label, articles: rows, total }),
    };
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

function placeholderItem(slot: Slot): FeaturedArticle {
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

function errorItem(slot: Slot): FeaturedArticle {
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
