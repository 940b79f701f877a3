import type { Kysely } from "kysely";
import type { Database, Role, UserRow } from "~/platform/schema";
import { newSessionToken, sessionIdHash } from "./credentials.server";
import { isAdminRole } from "./user";

const MINUTE = 60_000;
/** Staff: 30 minutes idle, 12 hours in all. Members: 7 days idle, 30 days in all. */
export function sessionLifetime(role: Role) {
  return isAdminRole(role)
    ? { idleMinutes: 30, absoluteMs: 12 * 60 * MINUTE }
    : { idleMinutes: 7 * 24 * 60, absoluteMs: 30 * 24 * 60 * MINUTE };
}

/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = MINUTE;

export class SessionStore {
  constructor(private db: Kysely<Database>) {}

  /**
   * Starts a session and returns its token (only its hash is stored). `secure`: issued over
   * HTTPS in the __Host- cookie; the token is then accepted over HTTPS only, and a plain-HTTP
   * session over plain HTTP only.
   */
  async create(user: Pick<UserRow, "id" | "role">, secure: boolean, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const token = newSessionToken();
    const { idleMinutes, absoluteMs } = sessionLifetime(user.role);
    const expiresAt = new Date(now + absoluteMs);
    const at = new Date(now).toISOString();
    await this.db
      .insertInto("sessions")
      .values({
        id_hash: sessionIdHash(token),
        user_id: user.id,
        created_at: at,
        last_seen_at: at,
        expires_at: expiresAt.toISOString(),
        idle_minutes: idleMinutes,
        secure: secure ? 1 : 0,
      })
      .execute();
    // Sessions nobody comes back to are only found here: clear those past their absolute limit.
    await this.pruneExpired(now);
    return { token, expiresAt };
  }

  /**
   * The active user behind a token, or null when the session is unknown, expired, idle, the
   * account inactive, or the session was issued on the other scheme (HTTPS vs plain HTTP).
   */
  async resolve(token: string, secure: boolean, now = Date.now()): Promise<UserRow | null> {
    if (!token || token.length > 200) return null;
    const idHash = sessionIdHash(token);
    const row = await this.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .selectAll("users")
      .select(["sessions.last_seen_at", "sessions.expires_at", "sessions.idle_minutes", "sessions.secure"])
      .where("sessions.id_hash", "=", idHash)
      .executeTakeFirst();
    if (!row) return null;
    if (row.secure !== (secure ? 1 : 0)) {
      // An HTTPS session's token sent over plain HTTP has crossed the network in the clear: end it.
      // A plain-HTTP token sent over HTTPS is only refused.
      if (row.secure === 1) await this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
      return null;
    }
    const lastSeen = Date.parse(row.last_seen_at);
    const expired = Date.parse(row.expires_at) <= now || lastSeen + row.idle_minutes * MINUTE <= now;
    if (expired || row.is_active !== 1) {
      await this.db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
      return null;
    }
    if (now - lastSeen > TOUCH_EVERY_MS) {
      await this.db
        .updateTable("sessions")
        .set({ last_seen_at: new Date(now).toISOString() })
        .where("id_hash", "=", idHash)
        .execute();
    }
    const { last_seen_at: _a, expires_at: _b, idle_minutes: _c, secure: _d, ...user } = row;
    return user as UserRow;
  }

  async revoke(token: string) {
    await this.db.deleteFrom("sessions").where("id_hash", "=", sessionIdHash(token)).execute();
  }

  async pruneExpired(now = Date.now()) {
    await this.db.deleteFrom("sessions").where("expires_at", "<=", new Date(now).toISOString()).execute();
  }
}
