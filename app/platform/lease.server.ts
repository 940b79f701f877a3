import type { Kysely } from "kysely";
import { isGoneLocalHolder } from "./process-holder.server";
import type { Database } from "./schema";

/** A lease as it stands: who holds it, until when, and the run its holder named. */
export interface LeaseState {
  holder: string | null;
  expiresAt: string | null;
  runId: number | null;
}

/**
 * One holder at a time across every instance for a job named `name` (the RSS ingest, the
 * membership reminders): taken when free or run out, renewed by its holder while the job runs,
 * released at its end, taken over by another once its holder stops renewing it. Each step is
 * one statement that checks the holder, so the database decides between instances (a taker
 * that loses the race matches nothing). Times are the caller's clock, as milliseconds.
 */
export class Lease {
  constructor(
    private readonly db: Kysely<Database>,
    readonly name: string,
  ) {}

  /**
   * Takes the lease for `ttlMs` when nobody holds it or its holder's time has run out (its row
   * made on the first take); false while another holds it, or this holder already does.
   */
  async take(holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const nowText = new Date(now).toISOString();
    const held = { holder, expires_at: new Date(now + ttlMs).toISOString(), run_id: null };
    const taken = await this.db
      .insertInto("leases")
      .values({ name: this.name, ...held })
      .onConflict((oc) =>
        oc
          .column("name")
          .doUpdateSet(held)
          .where((eb) =>
            eb.or([eb("leases.holder", "is", null), eb("leases.expires_at", "is", null), eb("leases.expires_at", "<", nowText)]),
          ),
      )
      .returning("name")
      .executeTakeFirst();
    return taken !== undefined;
  }

  /**
   * Extends the lease to `ttlMs` from now, and names the holder's run when given; false when
   * `holder` no longer holds it (it ran out and another took it): the job must stop.
   */
  async renew(holder: string, ttlMs: number, { now = Date.now(), runId }: { now?: number; runId?: number } = {}): Promise<boolean> {
    const res = await this.db
      .updateTable("leases")
      .set({ expires_at: new Date(now + ttlMs).toISOString(), ...(runId !== undefined ? { run_id: runId } : {}) })
      .where("name", "=", this.name)
      .where("holder", "=", holder)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Lets go of the lease, if `holder` still holds it (the run it named stays, for those who follow it). */
  async release(holder: string): Promise<void> {
    await this.db
      .updateTable("leases")
      .set({ holder: null, expires_at: null })
      .where("name", "=", this.name)
      .where("holder", "=", holder)
      .execute();
  }

  /** The lease as it stands, or null when it was never taken. */
  async read(): Promise<LeaseState | null> {
    const row = await this.db
      .selectFrom("leases")
      .select(["holder", "expires_at", "run_id"])
      .where("name", "=", this.name)
      .executeTakeFirst();
    return row ? { holder: row.holder, expiresAt: row.expires_at, runId: row.run_id === null ? null : Number(row.run_id) } : null;
  }

  /**
   * Frees the lease when its holder was a process of this machine that died (see
   * isGoneLocalHolder): a server restarted on the same machine goes on at once instead of
   * waiting it out. The holder freed, or null.
   */
  async freeIfHolderGone(): Promise<string | null> {
    const holder = (await this.read())?.holder;
    if (!holder || !isGoneLocalHolder(holder)) return null;
    await this.db
      .updateTable("leases")
      .set({ holder: null, expires_at: null, run_id: null })
      .where("name", "=", this.name)
      .where("holder", "=", holder)
      .execute();
    return holder;
  }
}
