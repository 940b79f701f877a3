import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/platform/schema";

/**
 * A repeated post of the same upload (same staff member, same file content) within this long
 * after the first one answered gets the first answer instead of a second import. A double
 * click, a resent request or an impatient second click land within seconds; a deliberate
 * re-upload a minute later runs normally.
 */
export const REPEAT_WINDOW_MS = 30_000;

/**
 * A claim whose import never answered (its process died) is given up after this long: the
 * spec's processing limit of 15 minutes and a margin. Until then a repeat waits for it.
 */
export const ABANDONED_AFTER_MS = 16 * 60_000;

/** How often a repeat looks whether the first import has answered. */
export const POLL_MS = 150;

export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** The first request holds the claim: it imports, then stores its answer or releases the claim. */
export interface HeldClaim {
  kind: "first";
  actorId: number;
  digest: string;
  token: string;
}

export type Claim = HeldClaim | { kind: "repeat"; answer: StoredAnswer };

export const contentDigest = (csv: string) => crypto.createHash("sha256").update(csv, "utf8").digest("hex");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Who imports a given upload, decided by the database: the first request inserts the row
 * keyed by (actor, file digest) and imports; any other request with the same key finds the
 * row and waits for its answer. One INSERT ... ON CONFLICT DO NOTHING, atomic on SQLite and
 * PostgreSQL alike, so two requests at the same moment, on one instance or two, never both
 * import.
 */
export class ImportClaims {
  constructor(
    private db: Kysely<Database>,
    private options: { windowMs: number; abandonedAfterMs: number; pollMs: number } = {
      windowMs: REPEAT_WINDOW_MS,
      abandonedAfterMs: ABANDONED_AFTER_MS,
      pollMs: POLL_MS,
    },
  ) {}

  async claim(actorId: number, digest: string): Promise<Claim> {
    for (;;) {
      await this.forgetExpired(Date.now());
      const token = crypto.randomUUID();
      const inserted = await this.db
        .insertInto("member_import_claims")
        .values({ actor_id: actorId, content_digest: digest, token, claimed_at: new Date().toISOString(), finished_at: null, answer: null })
        .onConflict((oc) => oc.columns(["actor_id", "content_digest"]).doNothing())
        .returning("token")
        .executeTakeFirst();
      if (inserted) return { kind: "first", actorId, digest, token };

      const row = await this.db
        .selectFrom("member_import_claims")
        .select(["answer"])
        .where("actor_id", "=", actorId)
        .where("content_digest", "=", digest)
        .executeTakeFirst();
      // Gone meanwhile (released after a failure, or expired): try to claim it again.
      if (!row) continue;
      if (row.answer !== null) return { kind: "repeat", answer: JSON.parse(row.answer) as StoredAnswer };
      await sleep(this.options.pollMs);
    }
  }

  /**
   * Stores the first request's answer for its repeats. A server failure (5xx) is not kept:
   * nothing was imported, so the claim is released and a retry runs again.
   */
  async finish(claim: HeldClaim, answer: StoredAnswer): Promise<void> {
    if (answer.status >= 500) return this.release(claim);
    await this.db
      .updateTable("member_import_claims")
      .set({ answer: JSON.stringify(answer), finished_at: new Date().toISOString() })
      .where("actor_id", "=", claim.actorId)
      .where("content_digest", "=", claim.digest)
      .where("token", "=", claim.token)
      .execute();
  }

  async release(claim: HeldClaim): Promise<void> {
    await this.db
      .deleteFrom("member_import_claims")
      .where("actor_id", "=", claim.actorId)
      .where("content_digest", "=", claim.digest)
      .where("token", "=", claim.token)
      .execute();
  }

  /** Answers older than the window, and claims abandoned by a process that died. */
  private async forgetExpired(now: number) {
    const answeredBefore = new Date(now - this.options.windowMs).toISOString();
    const claimedBefore = new Date(now - this.options.abandonedAfterMs).toISOString();
    await this.db
      .deleteFrom("member_import_claims")
      .where((eb) =>
        eb.or([
          eb.and([eb("finished_at", "is not", null), eb("finished_at", "<", answeredBefore)]),
          eb.and([eb("finished_at", "is", null), eb("claimed_at", "<", claimedBefore)]),
        ]),
      )
      .execute();
  }
}
