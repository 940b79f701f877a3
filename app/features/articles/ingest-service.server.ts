import type { Kysely } from "kysely";
import { fromBool, nowIso, toBool } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { AuditRecorder } from "~/domain/audit";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { ArticlesRepo } from "./articles-repo.server";
import type { FeedRetryResult, IngestResult } from "./contract";
import { DEFAULT_FEEDS } from "./default-feeds";
import { FeedsRepo, toFeedJson } from "./feeds-repo.server";
import { FEED_NOT_FOUND } from "./feeds.server";
import { DEFAULT_INGEST_SETTINGS, IngestCoordinator, type IngestSettings } from "./ingest.server";
import { IngestRunsRepo } from "./ingest-runs-repo.server";
import { DEFAULT_FETCH_LIMITS, SafeFetcher, type SafeFetchLimits } from "~/platform/safe-fetch.server";
import { IngestScheduler } from "./scheduler.server";

export interface IngestServiceOptions {
  /** Minutes between scheduled runs; 0 = no scheduler (RSS_INGEST_INTERVAL_MINUTES). */
  intervalMinutes: number;
  fetch?: Partial<SafeFetchLimits>;
  ingest?: Partial<IngestSettings>;
  /** Where a super_admin's "Retry now" is recorded. */
  audit?: AuditRecorder;
}

export const FEED_INACTIVE = "This feed is disabled: enable it to fetch it";

/**
 * Gathering articles: the ingest coordinator (one run at a time across instances), the
 * built-in scheduler, and the default feeds seeded on the first start.
 */
export class IngestService {
  private fetcher: SafeFetcher;
  private coordinator: IngestCoordinator;
  private scheduler: IngestScheduler | null = null;
  private runs: IngestRunsRepo;

  constructor(
    private db: Kysely<Database>,
    private logger: Logger,
    private options: IngestServiceOptions,
  ) {
    this.runs = new IngestRunsRepo(db);
    this.fetcher = new SafeFetcher({ ...DEFAULT_FETCH_LIMITS, ...options.fetch });
    this.coordinator = new IngestCoordinator({
      feeds: new FeedsRepo(db),
      articles: new ArticlesRepo(db),
      runs: this.runs,
      fetcher: this.fetcher,
      settings: { ...DEFAULT_INGEST_SETTINGS, ...options.ingest },
      logger,
    });
  }

  /**
   * Ingests every active feed; one run at a time across instances (see IngestCoordinator).
   * `coalesce` (members' Refresh only) lets a run finished moments ago answer instead.
   */
  async ingestAll(opts: { reason?: string; coalesce?: boolean } = {}): Promise<IngestResult> {
    return this.withNextAttempt(await this.coordinator.ingestAll({ reason: opts.reason ?? "manual", coalesce: opts.coalesce ?? false }));
  }

  /** A run that fetched nothing because every active feed waits after failures says when the first is tried again. */
  private async withNextAttempt(result: IngestResult): Promise<IngestResult> {
    if (result.inProgress || !result.success || result.counts.feeds > 0 || result.run.skipped === 0) return result;
    try {
      const next = await new FeedsRepo(this.db).earliestNextAttempt(nowIso());
      return next ? { ...result, nextAttemptAt: next } : result;
    } catch (err) {
      this.logger.warn({ err }, "could not read when the waiting feeds are tried again");
      return result;
    }
  }

  /**
   * "Retry now" on one feed (super_admin): fetched at once, its backoff ignored; the outcome is
   * stored on the feed like a run's, and the retry is recorded in the audit log. A disabled
   * feed is refused (409): it is not ingested at all.
   */
  async retryFeed(actorId: number, id: number): Promise<FeedRetryResult> {
    const feeds = new FeedsRepo(this.db);
    const feed = await feeds.find(id);
    if (!feed) throw DomainError.notFound(FEED_NOT_FOUND);
    if (!toBool(feed.is_active)) throw DomainError.conflict(FEED_INACTIVE);
    const outcome = await this.coordinator.retryFeed(feed);
    const after = await feeds.find(id);
    if (!after) throw DomainError.notFound(FEED_NOT_FOUND);
    const { feedId: _id, name: _name, ...result } = outcome;
    await this.options.audit?.record({
      actorId,
      action: "feeds.retry",
      target: { type: "feed", id, label: feed.name },
      details: { ...result },
    });
    return { feed: toFeedJson(after), outcome: result };
  }

  /** Where a run stands (see IngestCoordinator.status); null when there is no such run. */
  async status(runId: number | null): Promise<IngestResult | null> {
    const result = await this.coordinator.status(runId);
    return result && this.withNextAttempt(result);
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

  /**
   * Server start: marks runs a stopped server left running as interrupted, seeds the default
   * feeds once and starts the scheduler (0 minutes = off).
   */
  async start() {
    if (await this.runs.lease.freeIfHolderGone()) this.logger.warn("took back the ingest lease of a stopped server on this machine");
    const interrupted = await this.runs.markInterrupted();
    if (interrupted) this.logger.warn({ runs: interrupted }, "marked ingest runs of a stopped server as interrupted");
    const seeded = await this.seedDefaultFeeds();
    if (seeded) this.logger.info({ feeds: seeded }, "seeded the default RSS feeds (inactive)");
    const minutes = this.options.intervalMinutes;
    if (minutes > 0 && !this.scheduler) {
      this.scheduler = new IngestScheduler({
        intervalMs: minutes * 60_000,
        lastStartedAt: async () => (await this.runs.latest())?.started_at ?? null,
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
