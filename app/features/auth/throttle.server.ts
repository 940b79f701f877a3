import type { Kysely } from "kysely";
import type { Database } from "~/platform/schema";

export const ACCOUNT_LIMIT = { failures: 5, windowMs: 15 * 60_000 };
export const IP_LIMIT = { failures: 20, windowMs: 60 * 60_000 };

export const TOO_MANY_ACCOUNT =
  "Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.";
export const TOO_MANY_IP = "Too many failed sign-in attempts from your network. Please wait an hour and try again.";

/**
 * Failed sign-ins, kept in the database so the limits hold across restarts and instances:
 * 5 failures per account in 15 minutes, 20 per IP address in an hour across all accounts.
 */
export class LoginThrottle {
  constructor(private db: Kysely<Database>) {}

  /** The message to answer with when the caller is over a limit, else null. */
  async blocked(accountKey: string, ip: string, now = Date.now()): Promise<{ message: string; retryAfter: number } | null> {
    const [account, byIp] = await Promise.all([
      this.failures(`account:${accountKey}`, now - ACCOUNT_LIMIT.windowMs),
      this.failures(`ip:${ip}`, now - IP_LIMIT.windowMs),
    ]);
    if (account >= ACCOUNT_LIMIT.failures) return { message: TOO_MANY_ACCOUNT, retryAfter: ACCOUNT_LIMIT.windowMs / 1000 };
    if (byIp >= IP_LIMIT.failures) return { message: TOO_MANY_IP, retryAfter: IP_LIMIT.windowMs / 1000 };
    return null;
  }

  async recordFailure(accountKey: string, ip: string, now = Date.now()) {
    const at = new Date(now).toISOString();
    await this.db
      .insertInto("login_attempts")
      .values([
        { key: `account:${accountKey}`, attempted_at: at },
        { key: `ip:${ip}`, attempted_at: at },
      ])
      .execute();
    // Keep the table small: rows older than the longest window no longer count.
    await this.db
      .deleteFrom("login_attempts")
      .where("attempted_at", "<", new Date(now - IP_LIMIT.windowMs).toISOString())
      .execute();
  }

  async clearAccount(accountKey: string) {
    await this.db.deleteFrom("login_attempts").where("key", "=", `account:${accountKey}`).execute();
  }

  private async failures(key: string, sinceMs: number): Promise<number> {
    const row = await this.db
      .selectFrom("login_attempts")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("key", "=", key)
      .where("attempted_at", ">", new Date(sinceMs).toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
