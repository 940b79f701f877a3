import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { isGoneLocalHolder, newHolderId } from "~/platform/process-holder.server";
import type { Database } from "~/platform/schema";

/**
 * A repeated post of the same upload (same staff member, same file content) within this long
 * after the first one answered gets the first answer instead of a second import. A double
 * click, a resent request or an impatient second click land within seconds; a deliberate
 * re-upload a minute later runs normally.
 */
export const REPEAT_WINDOW_MS = 30_000;

/**
 * A claim is renewed every RENEW_MS while its import runs; one not renewed for
 * ABANDONED_AFTER_MS belongs to a process that died (a crash, SIGKILL) and is given up, so a
 * retry of the same file imports it. Until then a repeat waits for the import's answer, unless
 * the claim names a process of this machine that is gone (newHolderId): then it is given up at once.
 */
export const RENEW_MS = 5_000;
export const ABANDONED_AFTER_MS = 30_000;

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

/** The SHA-256 of the file's UTF-8 bytes: the same for its text and for the buffers it arrived in. */
export function contentDigest(csv: string | Uint8Array[]): string {
  const hash = crypto.createHash("sha256");
  if (typeof csv === "string") hash.update(csv, "utf8");
  else for (const buffer of csv) hash.update(buffer);
  return hash.digest("hex");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Who imports a given upload, decided by the database: the first request inserts the row
 * keyed by (actor, file digest) and imports; any other request with the same key finds the
 * row and waits for its answer. One INSERT ... ON CONFLICT DO NOTHING, atomic on SQLite and
 * PostgreSQL alike, so two requests at the same moment, on one instance or two, never both
 * import.
 */
export class ImportClaims {
  private options: { windowMs: number; abandonedAfterMs: number; pollMs: number; renewMs: number; now: () => number };

  constructor(
    private db: Kysely<Database>,
    options: Partial<ImportClaims["options"]> = {},
  ) {
    this.options = {
      windowMs: REPEAT_WINDOW_MS,
      abandonedAfterMs: ABANDONED_AFTER_MS,
      pollMs: POLL_MS,
      renewMs: RENEW_MS,
      now: Date.now,
      ...options,
    };
  }

  /** Renews the claim while its import runs; call the returned function when it is done. */
  keepAlive(claim: HeldClaim): () => void {
    const timer = setInterval(() => void this.renew(claim).catch(() => undefined), this.options.renewMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /** Marks the claim as still being worked on. */
  async renew(claim: HeldClaim): Promise<void> {
    await this.db
      .updateTable("member_import_claims")
      .set({ claimed_at: new Date(this.options.now()).toISOString() })
      .where("actor_id", "=", claim.actorId)
      .where("content_digest", "=", claim.digest)
      .where("token", "=", claim.token)
      .where("finished_at", "is", null)
      .execute();
  }

  async claim(actorId: number, digest: string): Promise<Claim> {
    for (;;) {
      await this.forgetExpired(this.options.now());
      const token = newHolderId();
      const inserted = await this.db
        .insertInto("member_import_claims")
        .values({
          actor_id: actorId,
          content_digest: digest,
          token,
          claimed_at: new Date(this.options.now()).toISOString(),
          finished_at: null,
          answer: null,
        })
        .onConflict((oc) => oc.columns(["actor_id", "content_digest"]).doNothing())
        .returning("token")
        .executeTakeFirst();
      if (inserted) return { kind: "first", actorId, digest, token };

      const row = await this.db
        .selectFrom("member_import_claims")
        .select(["answer", "token"])
        .where("actor_id", "=", actorId)
        .where("content_digest", "=", digest)
        .executeTakeFirst();
      // Gone meanwhile (released after a failure, or expired): try to claim it again.
      if (!row) continue;
      if (row.answer !== null) return { kind: "repeat", answer: JSON.parse(row.answer) as StoredAnswer };
      // Its process died on this machine (a server restarted after a crash): give it up at once.
      if (isGoneLocalHolder(row.token)) {
        await this.db
          .deleteFrom("member_import_claims")
          .where("actor_id", "=", actorId)
          .where("content_digest", "=", digest)
          .where("token", "=", row.token)
          .where("finished_at", "is", null)
          .execute();
        continue;
      }
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
      .set({ answer: JSON.stringify(answer), finished_at: new Date(this.options.now()).toISOString() })
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
