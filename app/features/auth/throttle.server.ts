import { DomainError } from "~/platform/errors";
import type { RateLimiter, RateLimits } from "~/platform/rate-limit.server";

export const ACCOUNT_LIMIT = { failures: 5, windowMs: 15 * 60_000 };
export const IP_LIMIT = { failures: 20, windowMs: 60 * 60_000 };

export const TOO_MANY_ACCOUNT = "Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.";
export const TOO_MANY_IP = "Too many failed sign-in attempts from your network. Please wait an hour and try again.";

/**
 * Failed sign-ins, counted in the database so the limits hold across restarts and instances:
 * 5 failures per account in 15 minutes, 20 per IP address in an hour across all accounts.
 *
 * Every attempt takes its point BEFORE the credentials are compared (one atomic upsert per
 * counter), so a burst of concurrent guesses cannot all pass a check made before any of them
 * failed. A success gives the IP its point back and starts the account's count again; a
 * failure simply keeps the point.
 */
export class LoginThrottle {
  readonly account: RateLimiter;
  readonly ip: RateLimiter;

  constructor(limits: RateLimits) {
    this.account = limits.limiter({ name: "login_account", points: ACCOUNT_LIMIT.failures, windowMs: ACCOUNT_LIMIT.windowMs });
    this.ip = limits.limiter({ name: "login_ip", points: IP_LIMIT.failures, windowMs: IP_LIMIT.windowMs });
  }

  /** Takes one attempt from the account's and the IP's allowance; throws 429 when either is spent. */
  async begin(accountKey: string, ip: string): Promise<void> {
    const account = await this.account.consume(accountKey);
    if (!account.allowed) throw tooMany(TOO_MANY_ACCOUNT, ACCOUNT_LIMIT.windowMs);
    const byIp = await this.ip.consume(ip);
    if (!byIp.allowed) {
      // This attempt is refused before any comparison: it is not a failure of the account.
      await this.account.reward(accountKey);
      throw tooMany(TOO_MANY_IP, IP_LIMIT.windowMs);
    }
  }

  /** The credentials were right: the account's count starts again and the IP's attempt is given back. */
  async succeeded(accountKey: string, ip: string): Promise<void> {
    await this.account.reset(accountKey);
    await this.ip.reward(ip);
  }
}

/** The spec's messages promise the full window ("wait 15 minutes", "an hour"); Retry-After says the same. */
function tooMany(message: string, windowMs: number) {
  return DomainError.rateLimited(message, windowMs / 1000);
}
