import type { Logger } from "~/platform/logger.server";
import { nowIso } from "~/platform/db.server";
import type { ArticlesRepo } from "./articles-repo.server";
import { decodeFeedBody } from "./decode-feed.server";
import type { FeedRow, FeedsRepo } from "./feeds-repo.server";
import { newLeaseHolder, type IngestRunRow, type IngestRunsRepo, type RunTotals } from "./ingest-runs-repo.server";
import { htmlToText, normalizeItem, plainTitle, prepareItems, type NormalizedItem } from "./normalize-item.server";
import { FeedParseError, parseFeedDocument } from "./parse-feed.server";
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
  /** How often a caller waiting on another instance's run looks again. */
  waitPollMs: number;
  /** The longest a caller waits for another instance's run. */
  maxWaitMs: number;
}

export const DEFAULT_INGEST_SETTINGS: IngestSettings = {
  concurrency: 4,
  backoffBaseMs: 5 * 60_000,
  backoffMaxMs: 24 * 60 * 60_000,
  reuseWindowMs: 60_000,
  // Short, and renewed every third of it while the run lives: a holder that died is noticed within seconds.
  leaseTtlMs: 20_000,
  waitPollMs: 500,
  maxWaitMs: 10 * 60_000,
};

export type FeedOutcome =
  | { feedId: number; name: string; status: "ok"; added: number; updated: number; items: number }
  | { feedId: number; name: string; status: "not-modified" }
  | { feedId: number; name: string; status: "failed"; error: string };

export function backoffUntil(failures: number, settings: Pick<IngestSettings, "backoffBaseMs" | "backoffMaxMs">, now = Date.now()): string {
  const delay = Math.min(settings.backoffBaseMs * 2 ** Math.max(0, failures - 1), settings.backoffMaxMs);
  return new Date(now + delay).toISOString();
}

/** Fetches, parses and stores one feed. Never throws: a failure is an outcome, stored on the feed. */
export async function ingestFeed(
  deps: { feeds: FeedsRepo; articles: ArticlesRepo; fetcher: SafeFetcher; settings: IngestSettings; logger: Logger },
  feed: FeedRow,
  signal?: AbortSignal,
): Promise<FeedOutcome> {
  const { feeds, articles, fetcher, settings, logger } = deps;
  const id = Number(feed.id);
  try {
    const res = await fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, signal);
    if (res.status === "not-modified") {
      await feeds.markFetched(id, res.validators);
      return { feedId: id, name: feed.name, status: "not-modified" };
    }
    const now = Date.now();
    const { items: prepared } = readFeedItems(res.body, res.contentType, res.url, feed.name, now);
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

/**
 * Bytes of a feed to articles ready to store: decode, parse, normalize, dedupe. The source name
 * is the feed document's title, else the name the admin gave the feed.
 */
export function readFeedItems(body: Buffer, contentType: string | null, url: string, feedName: string, now = Date.now()) {
  const { text } = decodeFeedBody(body, contentType);
  const parsed = parseFeedDocument(text, url);
  const items = parsed.items.map((raw) => normalizeItem(raw, now)).filter((it): it is NormalizedItem => !!it);
  const sourceName = (parsed.title && plainTitle(parsed.title, parsed.titleIsText)) || feedName;
  return { format: parsed.format, sourceName, items: prepareItems(items, sourceName) };
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
 * in the same process joins the run in flight, a caller on another instance waits for that
 * run and answers its result, and a coalescing caller may be answered with a run finished
 * within reuseWindowMs.
 */
export class IngestCoordinator {
  /** The call in flight in this process; `coalesced` once it is known to answer with a finished run. */
  private inFlight: { promise: Promise<IngestResult>; coalesce: boolean } | null = null;
  private stopping = new AbortController();

  constructor(
    private deps: {
      feeds: FeedsRepo;
      articles: ArticlesRepo;
      runs: IngestRunsRepo;
      fetcher: SafeFetcher;
      settings: IngestSettings;
      logger: Logger;
    },
  ) {}

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
      const holder = newLeaseHolder();
      const deadline = Date.now() + settings.maxWaitMs;
      let awaitedRun: number | null = null;
      // The last run finished when we first found the lease held by someone else. The holder
      // names its run only once it has started it, so a run that finishes while we wait is
      // recognised by finishing after that one (one run at a time: they finish in order).
      let finishedBeforeWaiting: number | null = null;
      for (;;) {
        if (await runs.acquireLease(holder, settings.leaseTtlMs)) {
          // Someone else's run may have finished between our look and our lease: reuse it.
          const justFinished =
            awaitedRun !== null ? await runs.find(awaitedRun) : finishedBeforeWaiting !== null ? await runs.lastFinished() : null;
          if (justFinished?.finished_at && (awaitedRun !== null || justFinished.id > (finishedBeforeWaiting ?? Infinity))) {
            await runs.releaseLease(holder);
            return resultFromRun(justFinished, true);
          }
          return await this.runHoldingLease(holder, reason);
        }
        finishedBeforeWaiting ??= (await runs.lastFinished())?.id ?? 0;
        const lease = await runs.lease();
        if (lease?.run_id) awaitedRun = Number(lease.run_id);
        if (awaitedRun !== null) {
          const run = await runs.find(awaitedRun);
          if (run?.finished_at) return resultFromRun(run, true);
        }
        if (Date.now() > deadline) throw new Error("timed out waiting for another instance's ingest");
        await sleep(settings.waitPollMs, this.stopping.signal);
        if (this.stopping.signal.aborted) throw new Error("stopped");
      }
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
        runs.renewLease(holder, settings.leaseTtlMs, runId).then(
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
      await runs.renewLease(holder, settings.leaseTtlMs, runId);
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
      await runs.releaseLease(holder).catch((err) => logger.warn({ err }, "could not release the ingest lease"));
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}
