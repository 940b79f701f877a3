import type { Kysely, Selectable } from "kysely";
import { nowIso } from "~/platform/db.server";
import { Lease } from "~/platform/lease.server";
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

/** The record of ingest runs, and the lease that lets one run at a time across instances (naming its run). */
export class IngestRunsRepo {
  readonly lease: Lease;

  constructor(private db: Kysely<Database>) {
    this.lease = new Lease(db, LEASE_NAME);
  }

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
            selectFrom("leases")
              .select("name")
              .where("leases.name", "=", LEASE_NAME)
              .whereRef("leases.run_id", "=", "ingest_runs.id")
              .where("leases.holder", "is not", null)
              .where("leases.expires_at", ">", at),
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
}
