import { DomainError } from "~/platform/errors";
import type { RateLimiter, RateLimits } from "~/platform/rate-limit.server";

export const ACCOUNT_LIMIT = { failures: 5, windowMs: 15 * 60_000 };
/** A device cookie's own allowance (decision 010): a stolen cookie gives no more guesses than the account's. */
export const DEVICE_LIMIT = { failures: 5, windowMs: 15 * 60_000 };
export const IP_LIMIT = { failures: 20, windowMs: 60 * 60_000 };

export const TOO_MANY_ACCOUNT = "Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.";
export const TOO_MANY_IP = "Too many failed sign-in attempts from your network. Please wait an hour and try again.";

/** How a sign-in attempt was counted: on the account's lockout for unknown browsers, or on a device cookie's own counter. */
export type AttemptPath = { kind: "account" } | { kind: "device"; key: string };

/**
 * Failed sign-ins, counted in the database so the limits hold across restarts and instances:
 * 5 failures per account in 15 minutes, 20 per IP address in an hour across all accounts.
 *
 * A browser with a valid device cookie for the account (decision 010) is counted on that
 * cookie's own counter (5 failures in 15 minutes) instead of the account's, so failures from
 * anywhere else never lock it out; once its counter is spent it is treated as any other
 * browser. The address limit counts every attempt, device cookie or not.
 *
 * Every attempt takes its point BEFORE the credentials are compared (one atomic upsert per
 * counter), so a burst of concurrent guesses cannot all pass a check made before any of them
 * failed. A success gives the IP its point back and starts the counter it used again; a
 * failure simply keeps the point.
 */
export class LoginThrottle {
  readonly account: RateLimiter;
  readonly device: RateLimiter;
  readonly ip: RateLimiter;

  constructor(limits: RateLimits) {
    this.account = limits.limiter({ name: "login_account", points: ACCOUNT_LIMIT.failures, windowMs: ACCOUNT_LIMIT.windowMs });
    this.device = limits.limiter({ name: "login_device", points: DEVICE_LIMIT.failures, windowMs: DEVICE_LIMIT.windowMs });
    this.ip = limits.limiter({ name: "login_ip", points: IP_LIMIT.failures, windowMs: IP_LIMIT.windowMs });
  }

  /**
   * Takes one attempt from the device cookie's allowance when `deviceKey` (a valid device
   * cookie for this account) is given and not spent, else from the account's; then from the
   * IP's. Throws 429 when the account's or the IP's is spent.
   */
  async begin(accountKey: string, ip: string, deviceKey: string | null = null): Promise<AttemptPath> {
    let path: AttemptPath = { kind: "account" };
    if (deviceKey && (await this.device.consume(deviceKey)).allowed) path = { kind: "device", key: deviceKey };
    else if (!(await this.account.consume(accountKey)).allowed) throw tooMany(TOO_MANY_ACCOUNT, ACCOUNT_LIMIT.windowMs);
    const byIp = await this.ip.consume(ip);
    if (!byIp.allowed) {
      // This attempt is refused before any comparison: it is not a failure of the account or the device.
      if (path.kind === "device") await this.device.reward(path.key);
      else await this.account.reward(accountKey);
      throw tooMany(TOO_MANY_IP, IP_LIMIT.windowMs);
    }
    return path;
  }

  /** The credentials were right: the counter used starts again and the IP's attempt is given back. */
  async succeeded(accountKey: string, ip: string, path: AttemptPath = { kind: "account" }): Promise<void> {
    if (path.kind === "device") await this.device.reset(path.key);
    else await this.account.reset(accountKey);
    await this.ip.reward(ip);
  }
}

/** The spec's messages promise the full window ("wait 15 minutes", "an hour"); Retry-After says the same. */
function tooMany(message: string, windowMs: number) {
  return DomainError.rateLimited(message, windowMs / 1000);
}
