import type { Kysely } from "kysely";
import { UniqueViolationError } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import { ArticlesRepo } from "./articles-repo.server";
import { feedInputSchema, parseHttpUrl, type FeedInputData, type FeedUpdateData, type FeedsHealth, type RssFeed } from "./contract";
import { FeedsRepo, toFeedJson } from "./feeds-repo.server";
import { IngestRunsRepo } from "./ingest-runs-repo.server";
import { classifyAddress, literalHostAddress } from "~/platform/ip-policy.server";

export const FEED_EXISTS = "A feed with this URL already exists";
export const FEED_NOT_FOUND = "Feed not found";
export const FEED_PRIVATE_HOST = "URL must point to a public internet address";

/** Feed administration (super_admin): list, add, edit, delete, and the feeds' health. */
export class FeedAdmin {
  private feeds: FeedsRepo;
  private articles: ArticlesRepo;
  private runs: IngestRunsRepo;

  constructor(
    db: Kysely<Database>,
    private options: { allowPrivateHosts: boolean },
  ) {
    this.feeds = new FeedsRepo(db);
    this.articles = new ArticlesRepo(db);
    this.runs = new IngestRunsRepo(db);
  }

  async listFeeds(): Promise<RssFeed[]> {
    return (await this.feeds.list()).map(toFeedJson);
  }

  async createFeed(input: unknown): Promise<RssFeed> {
    const data = this.checkFeedInput(input);
    try {
      return toFeedJson(await this.feeds.create(data));
    } catch (err) {
      if (err instanceof UniqueViolationError) throw DomainError.conflict(FEED_EXISTS);
      throw err;
    }
  }

  async updateFeed(input: FeedUpdateData | (Record<string, unknown> & { id: number })): Promise<RssFeed> {
    const id = Number(input.id);
    const data = this.checkFeedInput(input);
    const previous = await this.feeds.find(id);
    if (!previous) throw DomainError.notFound(FEED_NOT_FOUND);
    let row;
    try {
      row = await this.feeds.update(id, data, previous);
    } catch (err) {
      if (err instanceof UniqueViolationError) throw DomainError.conflict(FEED_EXISTS);
      throw err;
    }
    if (!row) throw DomainError.notFound(FEED_NOT_FOUND);
    // Articles carry their feed's category (it keeps the page queries on one index).
    if (previous.category !== data.category) await this.articles.setCategoryForFeed(id, data.category);
    return toFeedJson(row);
  }

  /** Deletes a feed and the articles gathered from it. */
  async deleteFeed(id: number): Promise<void> {
    if (!(await this.feeds.delete(id))) throw DomainError.notFound(FEED_NOT_FOUND);
  }

  private checkFeedInput(input: unknown): FeedInputData {
    const result = feedInputSchema.safeParse(input);
    if (!result.success) {
      const issue = result.error.issues[0];
      const details: Record<string, string> = {};
      for (const i of result.error.issues) details[i.path.join(".") || "_"] ??= i.message;
      throw DomainError.invalid(issue?.message ?? "Invalid feed", details);
    }
    const data = result.data;
    // An address that can never be fetched is refused now, not at the next ingest.
    if (!this.options.allowPrivateHosts) {
      const url = parseHttpUrl(data.url)!;
      const literal = literalHostAddress(url);
      if ((literal && !classifyAddress(literal).allowed) || /^localhost\.?$|\.localhost\.?$/i.test(url.hostname)) {
        throw DomainError.invalid(FEED_PRIVATE_HOST, { url: FEED_PRIVATE_HOST });
      }
    }
    return data;
  }

  async health(): Promise<FeedsHealth> {
    const [feeds, run] = await Promise.all([this.feeds.list(), this.runs.latest()]);
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
        last_error_at: f.last_error_at ?? null,
        last_ingested_at: f.last_ingested_at,
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
}
