import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { formatZonedDateTime } from "~/platform/dates";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Mailer } from "~/platform/mailer.server";
import type { RateLimiter } from "~/platform/rate-limit.server";
import type { Dialect } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/domain/audit";
import { UsersRepo } from "~/features/auth/users.server";
import { EMAIL_CHANGE } from "./contract";

export interface EmailChangeDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  audit: AuditRecorder;
  /** Null or disabled: no link can be sent, so a member cannot change their address here. */
  mailer: Mailer | null;
  /** A member's requests: a few an hour, so the site mails no one again and again. */
  limiter: RateLimiter;
  /** Links to one address, whoever asks: a few a day, so members together cannot flood a stranger's mailbox. */
  addressLimiter?: RateLimiter;
  logger: Logger;
  orgName: string;
  contactEmail: string;
  /**
   * PUBLIC_URL: the links' origin. Without it no link is sent (the change is refused as when
   * the site sends no mail): the request's own Host is the asking member's to write, and would
   * let them send someone else's mailbox a link from the association to another site.
   */
  publicUrl: string | null;
  /** TIME_ZONE: the mail to the old address says when, in the association's zone, named. */
  timeZone: string;
  now?: () => Date;
}

/** What a link's token is, without using it. */
export type EmailChangeLink =
  { state: "valid"; newEmail: string } | { state: "expired" } | { state: "used"; newEmail: string } | { state: "invalid" };

const digestOf = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
/** 256 random bits, URL-safe: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A member's e-mail address changes only when a link sent to the new address is followed
 * (issue 39): random, stored as its digest, good for 24 hours and once. The old address is told
 * when the change takes effect, by the member or by staff. The mails say nothing of the member
 * (no name, no certificate number): whoever owns either address may not be them.
 */
export class EmailChanges {
  constructor(private deps: EmailChangeDeps) {}

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  get canSend(): boolean {
    return Boolean(this.deps.mailer?.enabled);
  }

  /** The address a link was sent to and is still waiting (the newest), or null. */
  async pending(userId: number): Promise<string | null> {
    const row = await this.deps.db
      .selectFrom("email_changes")
      .select("new_email")
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .where("expires_at", ">", this.now().toISOString())
      .orderBy("created_at", "desc")
      .executeTakeFirst();
    return row?.new_email ?? null;
  }

  /** Forgets the member's waiting links (the address was set another way, or put back). */
  async cancel(userId: number, db: Kysely<Database> = this.deps.db): Promise<void> {
    await db.deleteFrom("email_changes").where("user_id", "=", userId).where("used_at", "is", null).execute();
  }

  /**
   * Sends a link to the new address; the address on record stays until it is followed. A
   * newer request replaces the links before it. Refused when the site sends no mail (or has no
   * PUBLIC_URL to link to) or the member asked too often; a link the mail server refused is forgotten.
   */
  async request(userId: number, newEmail: string): Promise<void> {
    const { db, mailer, limiter } = this.deps;
    const site = this.deps.publicUrl?.trim();
    if (!mailer?.enabled || !site) throw DomainError.invalid(EMAIL_CHANGE.mailOff, { email: EMAIL_CHANGE.mailOff });
    const allowed = await limiter.consume(String(userId));
    if (!allowed.allowed) throw DomainError.rateLimited(EMAIL_CHANGE.tooMany, allowed.retryAfterSeconds);
    const toAddress = await this.deps.addressLimiter?.consume(newEmail.toLowerCase());
    if (toAddress && !toAddress.allowed) throw DomainError.rateLimited(EMAIL_CHANGE.tooMany, toAddress.retryAfterSeconds);
    const token = crypto.randomBytes(32).toString("base64url");
    const now = this.now();
    const digest = digestOf(token);
    await db.transaction().execute(async (trx) => {
      // Two requests at once run one after the other, so the later forgets the earlier's link
      // (PostgreSQL: the member's row, held until commit; SQLite: one writer).
      if (this.deps.dialect === "postgres") await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
      await this.cancel(userId, trx);
      await trx
        .insertInto("email_changes")
        .values({
          token_digest: digest,
          user_id: userId,
          new_email: newEmail,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + EMAIL_CHANGE.validHours * 3600_000).toISOString(),
          used_at: null,
        })
        .execute();
    });
    const link = new URL(`/account/email/${token}`, site).toString();
    try {
      await mailer.send(newEmail, `Confirm your new e-mail address with ${this.deps.orgName}`, confirmText(this.deps.orgName, link));
    } catch (err) {
      this.deps.logger.error({ user: userId, error: (err as Error)?.message }, "e-mail change link could not be sent");
      await db.deleteFrom("email_changes").where("token_digest", "=", digest).execute();
      throw DomainError.unavailable(EMAIL_CHANGE.notSent);
    }
  }

  /** What a link is (waiting, used, run out, unknown), without using it. */
  async inspect(token: string): Promise<EmailChangeLink> {
    if (!TOKEN_PATTERN.test(token)) return { state: "invalid" };
    const row = await this.deps.db
      .selectFrom("email_changes")
      .select(["new_email", "expires_at", "used_at"])
      .where("token_digest", "=", digestOf(token))
      .executeTakeFirst();
    if (!row) return { state: "invalid" };
    if (row.used_at) return { state: "used", newEmail: row.new_email };
    if (row.expires_at <= this.now().toISOString()) return { state: "expired" };
    return { state: "valid", newEmail: row.new_email };
  }

  /**
   * Follows a link: once, before it runs out, the new address replaces the old one (audited),
   * the member's other waiting links are forgotten and the old address is told.
   */
  async confirm(token: string): Promise<EmailChangeLink> {
    const seen = await this.inspect(token);
    if (seen.state !== "valid") return seen;
    const at = this.now().toISOString();
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      // One statement decides: of two clicks at once, one uses the link.
      const taken = await trx
        .updateTable("email_changes")
        .set({ used_at: at })
        .where("token_digest", "=", digestOf(token))
        .where("used_at", "is", null)
        .where("expires_at", ">", at)
        .returning(["user_id", "new_email"])
        .executeTakeFirst();
      if (!taken) return null;
      const user = await trx
        .selectFrom("users")
        .select(["email", "certificate_number"])
        .where("id", "=", taken.user_id)
        .where("role", "=", "user")
        .executeTakeFirst();
      if (!user) return null;
      await new UsersRepo(trx).setEmail(taken.user_id, taken.new_email, at);
      await this.cancel(taken.user_id, trx);
      await this.deps.audit.record(
        {
          actorId: taken.user_id,
          action: "account.email_change",
          target: { type: "member", id: taken.user_id, label: user.certificate_number },
          details: { fields: ["email"] },
        },
        trx,
      );
      return { oldEmail: user.email, newEmail: taken.new_email, userId: taken.user_id };
    });
    if (!outcome) return this.inspect(token);
    if (outcome.oldEmail && outcome.oldEmail.toLowerCase() !== outcome.newEmail.toLowerCase())
      await this.tellOldAddress(outcome.userId, outcome.oldEmail);
    return { state: "valid", newEmail: outcome.newEmail };
  }

  /**
   * Tells an address that it is no longer the member's (a change by the member or by staff).
   * Says when and whom to ask, not the new address: the old one may be a stranger's.
   * A refusal by the mail server is logged; the change stands.
   */
  async tellOldAddress(userId: number, oldEmail: string): Promise<void> {
    const { mailer, logger, orgName, contactEmail, timeZone } = this.deps;
    if (!mailer?.enabled) return;
    const when = formatZonedDateTime(this.now().toISOString(), timeZone) ?? this.now().toISOString();
    try {
      await mailer.send(oldEmail, `Your e-mail address with ${orgName} was changed`, changedText(orgName, contactEmail, when));
    } catch (err) {
      logger.error({ user: userId, error: (err as Error)?.message }, "the old e-mail address could not be told of its change");
    }
  }
}

export function confirmText(orgName: string, link: string): string {
  return [
    "Hello,",
    "",
    `Someone asked to use this e-mail address for a membership account with ${orgName}.`,
    `If it was you, follow this link within ${EMAIL_CHANGE.validHours} hours to confirm it:`,
    "",
    link,
    "",
    "If it was not you, ignore this message: nothing changes.",
    "",
    orgName,
  ].join("\n");
}

export function changedText(orgName: string, contactEmail: string, when: string): string {
  return [
    "Hello,",
    "",
    `The e-mail address of your membership account with ${orgName} was changed on ${when}.`,
    "Mail about your membership no longer comes to this address.",
    "",
    `If you did not ask for this, please contact us at ${contactEmail}.`,
    "",
    orgName,
  ].join("\n");
}
