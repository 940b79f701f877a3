import crypto from "node:crypto";
import { parse, serialize } from "cookie";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; decision
 * 010). A browser that signed in to an account carries a signed token naming that account;
 * its sign-in attempts on that account are counted on the token's own counter instead of the
 * account's lockout for unknown browsers, so a stranger's failures cannot lock the owner out.
 *
 * One cookie holds the tokens of the last few accounts signed in from the browser, newest
 * first. A token is `account.nonce.issued.mac`:
 *   account  a keyed digest of the account's throttle key (never a birthdate or certificate)
 *   nonce    128 random bits: the token's own counter is keyed by it
 *   issued   seconds since 1970, base 36: a token older than DEVICE_COOKIE_DAYS is none
 *   mac      HMAC-SHA256 over the three, with a key derived from the auth secret
 * A token that is forged, altered, expired or names another account is simply not one.
 */
export const DEVICE_COOKIE_DAYS = 365;
/** Accounts remembered per browser (a family's computer, a staff member who is also a member). */
export const DEVICE_TOKENS_PER_BROWSER = 5;
/** Longer cookie values are not read at all. */
const MAX_COOKIE_LENGTH = 1024;
const DAY_SECONDS = 24 * 60 * 60;

export function deviceCookieName(secure: boolean) {
  return secure ? "__Host-aha_device" : "aha_device";
}

/** The raw cookie value of the request's scheme, or null. */
export function readDeviceCookie(cookieHeader: string | undefined | null, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const value = parse(cookieHeader)[deviceCookieName(secure)];
  return value && value.length <= MAX_COOKIE_LENGTH ? value : null;
}

export function deviceCookieHeader(value: string, secure: boolean): string {
  return serialize(deviceCookieName(secure), value, {
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
    maxAge: DEVICE_COOKIE_DAYS * DAY_SECONDS,
  });
}

export class DeviceCookies {
  private readonly key: Buffer;

  constructor(authSecret: Buffer) {
    // Its own key, so a device token's MAC is never a birthdate digest or anything else made with the secret.
    this.key = crypto.createHmac("sha256", authSecret).update("aha device cookies v1").digest();
  }

  private mac(text: string): string {
    return crypto.createHmac("sha256", this.key).update(`device:${text}`).digest("base64url");
  }

  /** The digest that names an account in a token (128 bits). */
  accountDigest(accountKey: string): string {
    return crypto.createHmac("sha256", this.key).update(`account:${accountKey}`).digest("base64url").slice(0, 22);
  }

  /**
   * The counter key of the request's valid token for this account, or null (no cookie, or no
   * token in it that is genuine, unexpired and names this account).
   */
  trustedKey(cookieValue: string | null | undefined, accountKey: string, now = Date.now()): string | null {
    if (!cookieValue) return null;
    const account = this.accountDigest(accountKey);
    for (const token of cookieValue.split("~").slice(0, DEVICE_TOKENS_PER_BROWSER)) {
      const parts = token.split(".");
      if (parts.length !== 4) continue;
      const [acct, nonce, issued, mac] = parts;
      if (acct !== account || !/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^[0-9a-z]{1,10}$/.test(issued)) continue;
      const expected = Buffer.from(this.mac(`${acct}.${nonce}.${issued}`));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) continue;
      const issuedMs = parseInt(issued, 36) * 1000;
      if (issuedMs > now + 5 * 60_000 || issuedMs + DEVICE_COOKIE_DAYS * DAY_SECONDS * 1000 <= now) continue;
      return `${acct}.${nonce}`;
    }
    return null;
  }

  /**
   * The cookie value after a successful sign-in to the account: a new token for it first, the
   * other accounts' tokens that were there kept after it (their validity is checked when used).
   */
  issue(cookieValue: string | null | undefined, accountKey: string, now = Date.now()): string {
    const account = this.accountDigest(accountKey);
    const nonce = crypto.randomBytes(16).toString("base64url");
    const issued = Math.floor(now / 1000).toString(36);
    const body = `${account}.${nonce}.${issued}`;
    const others = (cookieValue ?? "")
      .split("~")
      .filter((t) => /^[A-Za-z0-9_.-]{1,200}$/.test(t) && !t.startsWith(`${account}.`))
      .slice(0, DEVICE_TOKENS_PER_BROWSER - 1);
    return [`${body}.${this.mac(body)}`, ...others].join("~");
  }
}
