import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { nowIso } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { RateLimiter } from "~/platform/rate-limit.server";
import type { Database } from "~/platform/schema";
import { coverageProof, firstNameAndInitial, type CoverageProof } from "./proof";
import type { CoverageService } from "./service.server";

export const VERIFY_MESSAGES = {
  notFound: "This proof of coverage is not valid. It may have been replaced by a newer card.",
  tooMany: "Too many verifications from your network. Please try again later.",
} as const;

/** What a scanned card shows, and nothing else about the member or their co-insured. */
export interface VerifiedCoverage extends CoverageProof {
  firstName: string;
  lastInitial: string;
  /** The household's second person, when the plan has one: first name and last initial only. */
  coInsured: { firstName: string; lastInitial: string } | null;
  /** The association's calendar day the answer is for. */
  checkedOn: string;
}

/** Tokens are 32 bytes of HMAC, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const digestOf = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/**
 * The proof-of-coverage card's QR code opens /verify/<token>. The token is derived from a
 * random nonce with the server's key (so the card can be shown again, and a copy of the
 * database alone cannot make one); the database keeps only its digest. A new nonce replaces the
 * old token when the member asks or staff cancel. Every lookup costs its address a point, so
 * guessing is slow and a guessed token is a 404 like any other.
 */
export class VerifyService {
  constructor(
    private db: Kysely<Database>,
    private secret: Buffer,
    private limiter: RateLimiter,
    private coverage: CoverageService,
  ) {}

  private token(userId: number, nonce: string): string {
    return crypto.createHmac("sha256", this.secret).update(`verify:${userId}:${nonce}`).digest("base64url");
  }

  /** The member's current token, made on first use. */
  async tokenFor(userId: number): Promise<string> {
    const row = await this.db.selectFrom("membership_verify_tokens").select("nonce").where("user_id", "=", userId).executeTakeFirst();
    if (row) return this.token(userId, row.nonce);
    const nonce = crypto.randomBytes(16).toString("hex");
    await this.db
      .insertInto("membership_verify_tokens")
      .values({ user_id: userId, nonce, token_digest: digestOf(this.token(userId, nonce)), created_at: nowIso() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    // Whoever inserted first won a race: read back what is stored.
    const stored = await this.db
      .selectFrom("membership_verify_tokens")
      .select("nonce")
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return this.token(userId, stored.nonce);
  }

  /** A new token; the old one stops working. */
  async renew(userId: number): Promise<string> {
    const nonce = crypto.randomBytes(16).toString("hex");
    const values = { nonce, token_digest: digestOf(this.token(userId, nonce)), created_at: nowIso() };
    await this.db
      .insertInto("membership_verify_tokens")
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .execute();
    return this.token(userId, nonce);
  }

  async verify(token: string, ip: string): Promise<VerifiedCoverage> {
    const consumed = await this.limiter.consume(ip);
    if (!consumed.allowed) throw DomainError.rateLimited(VERIFY_MESSAGES.tooMany, consumed.retryAfterSeconds);
    if (!TOKEN.test(token)) throw DomainError.notFound(VERIFY_MESSAGES.notFound);
    const row = await this.db
      .selectFrom("membership_verify_tokens")
      .innerJoin("users", "users.id", "membership_verify_tokens.user_id")
      .select(["users.id", "users.first_name", "users.last_name", "users.is_active"])
      .where("membership_verify_tokens.token_digest", "=", digestOf(token))
      .where("users.role", "=", "user")
      .executeTakeFirst();
    if (!row) throw DomainError.notFound(VERIFY_MESSAGES.notFound);
    const view = await this.coverage.view(Number(row.id));
    const member = firstNameAndInitial(row.first_name, row.last_name);
    const coInsured = view.coInsured && firstNameAndInitial(view.coInsured.firstName, view.coInsured.lastName);
    return {
      ...coverageProof(view.coverage, view.events, Number(row.is_active) === 1),
      firstName: member.firstName || "Member",
      lastInitial: member.lastInitial,
      coInsured: coInsured?.firstName ? coInsured : null,
      checkedOn: view.today,
    };
  }
}
