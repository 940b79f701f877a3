import type { Kysely, Selectable } from "kysely";
import { nowIso } from "~/platform/db.server";
import { isGoneLocalHolder } from "~/platform/process-holder.server";
import type { Database, IngestRunsTable } from "~/platform/schema";

export type IngestRunRow = Selectable<IngestRunsTable>;

/** `interrupted`: the process running it died (a crash, SIGKILL) before it could finish. */
export type RunStatus = "running" | "success" | "failed" | "interrupted";

export const INTERRUPTED_RUN = "The server running this ingest stopped before it finished.";

export interface RunTotals {
  articlesAdded: number;
  articlesUpdated: number;
  feedsTotal: number;
  feedsFailed: number;
  feedsNotModified: number;
  feedsSkipped: number;
}

export const LEASE_NAME = "rss_ingest";

/** The record of ingest runs, and the lease row that lets one run at a time across instances. */
export class IngestRunsRepo {
  constructor(private db: Kysely<Database>) {}

  async start(reason: string, at = nowIso()): Promise<number> {
    const row = await this.db
      .insertInto("ingest_runs")
      .values({ started_at: at, status: "running", reason })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /**
   * Runs still marked running that no live lease names: their process is gone. Marked
   * interrupted (at start, and by the next holder of the lease), so none stays running forever.
   */
  async markInterrupted(at = nowIso()): Promise<number> {
    const res = await this.db
      .updateTable("ingest_runs")
      .set({ status: "interrupted", finished_at: at, error: INTERRUPTED_RUN })
      .where("status", "=", "running")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("ingest_leases")
              .select("name")
              .whereRef("ingest_leases.run_id", "=", "ingest_runs.id")
              .where("ingest_leases.holder", "is not", null)
              .where("ingest_leases.expires_at", ">", at),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  async finish(id: number, status: Exclude<RunStatus, "running" | "interrupted">, totals: RunTotals, error: string | null, at = nowIso()) {
    await this.db
      .updateTable("ingest_runs")
      .set({
        finished_at: at,
        status,
        articles_added: totals.articlesAdded,
        articles_updated: totals.articlesUpdated,
        feeds_total: totals.feedsTotal,
        feeds_failed: totals.feedsFailed,
        feeds_not_modified: totals.feedsNotModified,
        feeds_skipped: totals.feedsSkipped,
        error,
      })
      .where("id", "=", id)
      .execute();
  }

  find(id: number) {
    return this.db.selectFrom("ingest_runs").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The most recently finished run. */
  lastFinished() {
    return this.db
      .selectFrom("ingest_runs")
      .selectAll()
      .where("finished_at", "is not", null)
      .orderBy("finished_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** The most recent run, finished or not. */
  latest() {
    return this.db.selectFrom("ingest_runs").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
  }

  /**
   * Takes the lease when it is free or expired: one conditional UPDATE, atomic on SQLite and
   * PostgreSQL alike (a concurrent taker re-reads the row and matches nothing).
   */
  async acquireLease(holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const nowText = new Date(now).toISOString();
    const res = await this.db
      .updateTable("ingest_leases")
      .set({ holder, run_id: null, expires_at: new Date(now + ttlMs).toISOString() })
      .where("name", "=", LEASE_NAME)
      .where((eb) => eb.or([eb("holder", "is", null), eb("expires_at", "is", null), eb("expires_at", "<", nowText)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Extends a held lease; false when it was lost (expired and taken by another instance). */
  async renewLease(holder: string, ttlMs: number, runId: number | null, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable("ingest_leases")
      .set({ expires_at: new Date(now + ttlMs).toISOString(), ...(runId !== null ? { run_id: runId } : {}) })
      .where("name", "=", LEASE_NAME)
      .where("holder", "=", holder)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async releaseLease(holder: string) {
    await this.db
      .updateTable("ingest_leases")
      .set({ holder: null, expires_at: null })
      .where("name", "=", LEASE_NAME)
      .where("holder", "=", holder)
      .execute();
  }

  lease() {
    return this.db.selectFrom("ingest_leases").selectAll().where("name", "=", LEASE_NAME).executeTakeFirst();
  }

  /**
   * Frees the lease when its holder was a process of this machine that died (see
   * isGoneLocalHolder): a server restarted on the same machine takes it back at once instead of
   * waiting it out.
   */
  async freeLeaseOfDeadLocalHolder(): Promise<boolean> {
    const lease = await this.lease();
    if (!lease?.holder || !isGoneLocalHolder(lease.holder)) return false;
    await this.db
      .updateTable("ingest_leases")
      .set({ holder: null, run_id: null, expires_at: null })
      .where("name", "=", LEASE_NAME)
      .where("holder", "=", lease.holder)
      .execute();
    return true;
  }
}
