import type { Logger } from "~/platform/logger.server";
import { nowIso } from "~/platform/db.server";
import { newHolderId } from "~/platform/process-holder.server";
import type { ArticlesRepo } from "./articles-repo.server";
import type { FeedRow, FeedsRepo } from "./feeds-repo.server";
import { INTERRUPTED_RUN, type IngestRunRow, type IngestRunsRepo, type RunTotals } from "./ingest-runs-repo.server";
import { htmlToText } from "./normalize-item.server";
import { FeedParseError } from "./parse-feed.server";
import { feedReader, type FeedReader } from "./feed-reader.server";
import { FeedFetchError, type SafeFetcher } from "~/platform/safe-fetch.server";
import type { IngestResult } from "./contract";
export type { IngestResult };

/** Error text of a run that failed as a whole (spec: the knowledge center's refresh). */
export const RSS_REFRESH_FAILED = "RSS refresh failed";

export interface IngestSettings {
  /** Feeds fetched at the same time. */
  concurrency: number;
  /** Backoff after n consecutive failures: min(base * 2^(n-1), max). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A finished run this recent may answer a coalescing caller (a member's Refresh) instead of fetching every feed anew. */
  reuseWindowMs: number;
  /** Lease lifetime; a running ingest renews it at a third of this. */
  leaseTtlMs: number;
}

export const DEFAULT_INGEST_SETTINGS: IngestSettings = {
  concurrency: 4,
  backoffBaseMs: 5 * 60_000,
  backoffMaxMs: 24 * 60 * 60_000,
  reuseWindowMs: 60_000,
  // Short, and renewed every third of it while the run lives: a holder that died is noticed within seconds.
  leaseTtlMs: 20_000,
};

export type FeedOutcome =
  | { feedId: number; name: string; status: "ok"; added: number; updated: number; items: number }
  | { feedId: number; name: string; status: "not-modified" }
  | { feedId: number; name: string; status: "failed"; error: string };

export function backoffUntil(failures: number, settings: Pick<IngestSettings, "backoffBaseMs" | "backoffMaxMs">, now = Date.now()): string {
  const delay = Math.min(settings.backoffBaseMs * 2 ** Math.max(0, failures - 1), settings.backoffMaxMs);
  return new Date(now + delay).toISOString();
}

export interface IngestDeps {
  feeds: FeedsRepo;
  articles: ArticlesRepo;
  fetcher: SafeFetcher;
  settings: IngestSettings;
  logger: Logger;
  /** Where feeds are parsed: the process's feed reader thread unless given. */
  reader?: Pick<FeedReader, "read">;
}

/** Fetches, parses and stores one feed. Never throws: a failure is an outcome, stored on the feed. */
export async function ingestFeed(deps: IngestDeps, feed: FeedRow, signal?: AbortSignal): Promise<FeedOutcome> {
  const { feeds, articles, fetcher, settings, logger, reader = feedReader } = deps;
  const id = Number(feed.id);
  try {
    const res = await fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, signal);
    if (res.status === "not-modified") {
      await feeds.markFetched(id, res.validators);
      return { feedId: id, name: feed.name, status: "not-modified" };
    }
    const now = Date.now();
    const { items: prepared } = await reader.read(res.body, res.contentType, res.url, feed.name, now);
    const saved = await articles.saveFeedItems(id, feed.category, prepared, new Date(now).toISOString());
    await feeds.markFetched(id, res.validators);
    return { feedId: id, name: feed.name, status: "ok", added: saved.added, updated: saved.updated, items: prepared.length };
  } catch (err) {
    // A shutdown is not the feed's fault: no failure is recorded, no backoff.
    if (signal?.aborted) return { feedId: id, name: feed.name, status: "failed", error: "Ingest was stopped" };
    const message = feedErrorMessage(err);
    const failures = Number(feed.consecutive_failures) + 1;
    if (!(err instanceof FeedFetchError || err instanceof FeedParseError))
      logger.warn({ err, feedId: id }, "feed ingest failed unexpectedly");
    try {
      await feeds.markFailed(id, message, failures, backoffUntil(failures, settings));
    } catch (markErr) {
      logger.error({ err: markErr, feedId: id }, "could not record a feed failure");
    }
    return { feedId: id, name: feed.name, status: "failed", error: message };
  }
}

function feedErrorMessage(err: unknown): string {
  if (err instanceof FeedFetchError || err instanceof FeedParseError) return err.message;
  return `Could not store the feed: ${htmlToText(String((err as Error)?.message ?? err)).slice(0, 200)}`;
}

/** Runs tasks with at most `limit` in flight. */
export async function mapPool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface IngestRequest {
  reason: string;
  /**
   * May a run finished within reuseWindowMs answer this call? Only for the members' Refresh:
   * a super_admin's ingest and the scheduler's always run (or join the run in flight), so a
   * feed just added is fetched.
   */
  coalesce?: boolean;
}

/**
 * One ingest at a time across every instance: a caller takes the lease row and runs, a caller
 * in the same process joins the run in flight, a caller that finds another process holding
 * the lease is answered at once that its run is in progress (and follows it with `status`),
 * and a coalescing caller may be answered with a run finished within reuseWindowMs. No caller
 * ever waits on another process: a holder that died cannot hold anyone up.
 */
export class IngestCoordinator {
  /** The call in flight in this process; `coalesced` once it is known to answer with a finished run. */
  private inFlight: { promise: Promise<IngestResult>; coalesce: boolean } | null = null;
  private stopping = new AbortController();

  constructor(private deps: IngestDeps & { runs: IngestRunsRepo }) {}

  ingestAll({ reason, coalesce = false }: IngestRequest): Promise<IngestResult> {
    const current = this.inFlight;
    if (current) {
      const joined = current.promise.then((r) => ({ ...r, run: { ...r.run, reused: true } }));
      if (coalesce || !current.coalesce) return joined;
      // A coalescing call in flight may end in an old run's answer: wait for it, then run anew
      // unless it did run (or joined a run) after all.
      return current.promise.then((r) => (r.coalesced ? this.ingestAll({ reason, coalesce }) : joined));
    }
    if (this.stopping.signal.aborted) return Promise.resolve(failedResult(reason));
    const promise = this.coordinate(reason, coalesce).finally(() => {
      if (this.inFlight?.promise === promise) this.inFlight = null;
    });
    this.inFlight = { promise, coalesce };
    return promise;
  }

  /**
   * Where a run stands, for a caller following one it was told is in progress: its result once
   * finished; in progress while a live lease names it; interrupted when it is still marked
   * running but no live lease names it (its process died). Without a run id: the run of the
   * live lease, else the latest run. Null when there is no such run.
   */
  async status(runId: number | null): Promise<IngestResult | null> {
    const { runs } = this.deps;
    const lease = await runs.lease.read();
    const liveRunOf = lease?.holder && lease.expiresAt && lease.expiresAt > nowIso() ? lease : null;
    if (runId === null) {
      if (liveRunOf) {
        const named = liveRunOf.runId === null ? null : await runs.find(liveRunOf.runId);
        return named?.finished_at ? resultFromRun(named, true) : inProgressResult(named ?? null, "manual");
      }
      const latest = await runs.latest();
      return latest ? settledResult(latest) : null;
    }
    const run = await runs.find(runId);
    if (!run) return null;
    if (run.finished_at) return resultFromRun(run, true);
    if (liveRunOf && liveRunOf.runId === runId) return inProgressResult(run, run.reason);
    return settledResult(run);
  }

  /** Fetches one feed now, whatever its backoff (a super_admin's "Retry now"); records the outcome on the feed. */
  retryFeed(feed: FeedRow): Promise<FeedOutcome> {
    return ingestFeed(this.deps, feed, this.stopping.signal);
  }

  /** Aborts the fetches of a run in flight and waits for it to record itself. */
  async stop() {
    this.stopping.abort();
    await this.inFlight?.promise.catch(() => undefined);
  }

  private async coordinate(reason: string, coalesce: boolean): Promise<IngestResult> {
    const { runs, settings, logger } = this.deps;
    try {
      const recent = coalesce ? await this.recentResult() : null;
      if (recent) return recent;
      const holder = newHolderId();
      if (await runs.lease.take(holder, settings.leaseTtlMs)) return await this.runHoldingLease(holder, reason);
      // Another process runs: its run's answer if it has just finished, else "in progress".
      const lease = await runs.lease.read();
      const run = lease?.runId != null ? await runs.find(lease.runId) : null;
      if (run?.finished_at) return resultFromRun(run, true);
      return inProgressResult(run ?? null, reason);
    } catch (err) {
      logger.error({ err }, "RSS ingest failed");
      return failedResult(reason);
    }
  }

  private async recentResult(): Promise<IngestResult | null> {
    const { runs, settings } = this.deps;
    if (settings.reuseWindowMs <= 0) return null;
    const last = await runs.lastFinished();
    if (!last?.finished_at) return null;
    const age = Date.now() - Date.parse(last.finished_at);
    return age >= 0 && age < settings.reuseWindowMs ? { ...resultFromRun(last, true), coalesced: true } : null;
  }

  private async runHoldingLease(holder: string, reason: string): Promise<IngestResult> {
    const { feeds, runs, settings, logger } = this.deps;
    const startedAt = nowIso();
    let runId: number | null = null;
    const heartbeat = setInterval(
      () => {
        runs.lease.renew(holder, settings.leaseTtlMs, { runId: runId ?? undefined }).then(
          (held) => !held && logger.warn({ runId }, "ingest lease lost while running"),
          (err) => logger.warn({ err }, "could not renew the ingest lease"),
        );
      },
      Math.max(1000, Math.floor(settings.leaseTtlMs / 3)),
    );
    heartbeat.unref?.();
    try {
      // Holding the lease, no other run is alive: any still marked running died with its process.
      const interrupted = await runs.markInterrupted();
      if (interrupted) logger.warn({ runs: interrupted }, "marked ingest runs of a stopped server as interrupted");
      runId = await runs.start(reason, startedAt);
      await runs.lease.renew(holder, settings.leaseTtlMs, { runId });
      const totals: RunTotals = {
        articlesAdded: 0,
        articlesUpdated: 0,
        feedsTotal: 0,
        feedsFailed: 0,
        feedsNotModified: 0,
        feedsSkipped: 0,
      };
      let outcomes: FeedOutcome[] = [];
      try {
        const { due, waiting } = await feeds.activeFeeds(startedAt);
        totals.feedsSkipped = waiting.length;
        outcomes = await mapPool(due, settings.concurrency, (feed) => ingestFeed(this.deps, feed, this.stopping.signal));
      } catch (err) {
        await runs.finish(runId, "failed", totals, errorText(err));
        throw err;
      }
      for (const o of outcomes) {
        totals.feedsTotal++;
        if (o.status === "ok") {
          totals.articlesAdded += o.added;
          totals.articlesUpdated += o.updated;
        } else if (o.status === "not-modified") totals.feedsNotModified++;
        else totals.feedsFailed++;
      }
      // Every feed tried and none could be read: the refresh as a whole did not work.
      const allFailed = totals.feedsTotal > 0 && totals.feedsFailed === totals.feedsTotal;
      const failures = outcomes.flatMap((o) => (o.status === "failed" ? [{ id: o.feedId, name: o.name, error: o.error }] : []));
      await runs.finish(runId, allFailed ? "failed" : "success", totals, allFailed ? "Every feed failed" : null);
      logger.info({ runId, reason, ...totals }, "RSS ingest finished");
      const row = await runs.find(runId);
      return { ...resultFromRun(row!, false), failures };
    } finally {
      clearInterval(heartbeat);
      await runs.lease.release(holder).catch((err) => logger.warn({ err }, "could not release the ingest lease"));
    }
  }
}

function errorText(err: unknown): string {
  return String((err as Error)?.message ?? err).slice(0, 500);
}

export function resultFromRun(run: IngestRunRow, reused: boolean): IngestResult {
  const success = run.status === "success";
  return {
    success,
    counts: { articles: Number(run.articles_added), feeds: Number(run.feeds_total), failed: Number(run.feeds_failed) },
    ...(success ? {} : { error: RSS_REFRESH_FAILED }),
    run: {
      id: Number(run.id),
      status: run.status,
      reason: run.reason,
      started_at: run.started_at,
      finished_at: run.finished_at,
      updated: Number(run.articles_updated),
      not_modified: Number(run.feeds_not_modified),
      skipped: Number(run.feeds_skipped),
      reused,
    },
  };
}

/** Another process's run, not finished yet: the caller follows it (GET /api/rss/ingest/status). */
function inProgressResult(run: IngestRunRow | null, reason: string): IngestResult {
  return {
    success: true,
    inProgress: true,
    counts: { articles: 0, feeds: 0, failed: 0 },
    run: {
      id: run ? Number(run.id) : null,
      status: "running",
      reason: run?.reason ?? reason,
      started_at: run?.started_at ?? null,
      finished_at: null,
      updated: 0,
      not_modified: 0,
      skipped: 0,
      reused: true,
    },
  };
}

/** A run no live lease names: its result, or (still marked running) interrupted, as the next holder will mark it. */
function settledResult(run: IngestRunRow): IngestResult {
  if (run.finished_at) return resultFromRun(run, true);
  return resultFromRun({ ...run, status: "interrupted", error: INTERRUPTED_RUN }, true);
}

function failedResult(reason: string): IngestResult {
  return {
    success: false,
    counts: { articles: 0, feeds: 0, failed: 0 },
    error: RSS_REFRESH_FAILED,
    run: {
      id: null,
      status: "failed",
      reason,
      started_at: null,
      finished_at: null,
      updated: 0,
      not_modified: 0,
      skipped: 0,
      reused: false,
    },
  };
}
