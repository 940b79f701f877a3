import crypto from "node:crypto";

/**
 * The token of a member's one-click unsubscribe link: the member's id and an HMAC of it with
 * the server's key, so nobody can make one for a member from the id alone. It does not expire:
 * a link in a mail of last year still works. It does one thing (stop announcements), which the
 * member can undo on My account.
 */
export class UnsubscribeTokens {
  constructor(private secret: Buffer) {}

  private mac(userId: number): string {
    return crypto.createHmac("sha256", this.secret).update(`announcements-unsubscribe:${userId}`).digest("base64url").slice(0, 32);
  }

  make(userId: number): string {
    return `${userId.toString(36)}.${this.mac(userId)}`;
  }

  /**
   * The member a token names, or null when it is not one this server made. One form only: the
   * id as `make` writes it (no leading zeros) and the whole MAC.
   */
  read(token: unknown): number | null {
    if (typeof token !== "string" || token.length > 64) return null;
    const m = /^([1-9a-z][0-9a-z]{0,7})\.([A-Za-z0-9_-]{32})$/.exec(token);
    if (!m) return null;
    const userId = parseInt(m[1], 36);
    if (!Number.isSafeInteger(userId) || userId <= 0 || userId > 2_147_483_647 || userId.toString(36) !== m[1]) return null;
    const expected = Buffer.from(this.mac(userId));
    const given = Buffer.from(m[2]);
    return crypto.timingSafeEqual(expected, given) ? userId : null;
  }
}
