import type { Kysely } from "kysely";
import { DomainError } from "~/platform/errors";
import type { RateLimits } from "~/platform/rate-limit.server";
import type { Database, UserRow } from "~/platform/schema";
import { UsersRepo, toPublicUser } from "./users.server";
import { MIN_PASSWORD_LENGTH, birthdateDigest, dummyPasswordHash, hashPassword, safeEqual, verifyPassword } from "./credentials.server";
import type { LoginInput } from "./contract";
import { isNormalizedBirthdate, normalizeBirthdate, normalizeCertificate } from "./normalize";
import { DeviceCookies } from "./device-cookie.server";
import { SessionStore } from "./sessions.server";
import { LoginThrottle } from "./throttle.server";
import type { PublicUser } from "./user";

/** The one failure message: it never says which half was wrong or whether the account exists. */
export const INVALID_CREDENTIALS = "Invalid certificate number or birthdate";
/** A staff account switched off (a member's is answered as a wrong birthdate). */
export const INACTIVE_ACCOUNT = "This account is inactive. Please contact us for help.";
export const INVALID_STAFF_CREDENTIALS = "Invalid username or password";

export interface LoginResult {
  user: PublicUser;
  token: string;
  expiresAt: Date;
  /** The browser's device cookie value after this sign-in (decision 010): a new token for this account first. */
  deviceCookie: string;
}

export class AuthService {
  readonly users: UsersRepo;
  readonly sessions: SessionStore;
  readonly throttle: LoginThrottle;
  readonly devices: DeviceCookies;
  /** Refused sign-ins since the start (GET /metrics): wrong credentials or inactive account, and throttled attempts. */
  readonly refusals = { failed: 0, throttled: 0 };

  constructor(
    db: Kysely<Database>,
    private secret: Buffer,
    limits: RateLimits,
  ) {
    this.users = new UsersRepo(db);
    this.sessions = new SessionStore(db);
    this.throttle = new LoginThrottle(limits);
    this.devices = new DeviceCookies(secret);
  }

  /**
   * Checks credentials under the throttle; throws DomainError unauthenticated/forbidden/rate_limited on failure. The
   * attempt is counted before the comparison, so concurrent guesses cannot outrun the limit.
   * `secure`: the request came over HTTPS; the session is bound to that scheme. `deviceCookie`:
   * the browser's device cookie, if any; a valid one for this account is counted on its own.
   */
  async login(input: LoginInput, ip: string, secure: boolean, deviceCookie: string | null = null): Promise<LoginResult> {
    try {
      return await this.checkAndStart(input, ip, secure, deviceCookie);
    } catch (err) {
      if (err instanceof DomainError) {
        if (err.kind === "rate_limited") this.refusals.throttled++;
        else if (err.kind === "unauthenticated" || err.kind === "forbidden") this.refusals.failed++;
      }
      throw err;
    }
  }

  private async checkAndStart(input: LoginInput, ip: string, secure: boolean, deviceCookie: string | null): Promise<LoginResult> {
    const identifier = input.kind === "staff" ? input.username.trim().toLowerCase() : normalizeCertificate(input.username);
    const accountKey = `${input.kind}:${identifier}`;
    const path = await this.throttle.begin(accountKey, ip, this.devices.trustedKey(deviceCookie, accountKey));

    const user =
      input.kind === "staff" ? await this.checkStaff(identifier, input.password) : await this.checkMember(identifier, input.password);
    if (!user) throw DomainError.unauthenticated(input.kind === "staff" ? INVALID_STAFF_CREDENTIALS : INVALID_CREDENTIALS);
    // An inactive account keeps the attempt counted, as a failure. A member's answer is the one
    // a wrong birthdate gets, so the right birthdate of a deactivated member cannot be confirmed
    // by trying (issue 39).
    if (user.is_active !== 1) {
      if (input.kind !== "staff") throw DomainError.unauthenticated(INVALID_CREDENTIALS);
      throw DomainError.forbidden(INACTIVE_ACCOUNT);
    }
    await this.throttle.succeeded(accountKey, ip, path);
    await this.users.recordLogin(user.id);
    const { token, expiresAt } = await this.sessions.create(user, secure);
    return { user: toPublicUser(user), token, expiresAt, deviceCookie: this.devices.issue(deviceCookie, accountKey) };
  }

  private async checkMember(certificate: string, password: string): Promise<UserRow | null> {
    const normalized = normalizeBirthdate(password);
    const digest = birthdateDigest(this.secret, normalized);
    const user = await this.users.findMemberByCertificate(certificate);
    // Same comparison whether or not the account exists.
    const ok = safeEqual(digest, user?.birthdate_digest ?? "0".repeat(64));
    return ok && user && isNormalizedBirthdate(normalized) ? user : null;
  }

  private async checkStaff(username: string, password: string): Promise<UserRow | null> {
    const user = await this.users.findStaffByUsername(username);
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
    return ok && user ? user : null;
  }

  /** `secure`: the request came over HTTPS; a session issued on the other scheme is not accepted. */
  async userForSession(token: string | undefined, secure: boolean): Promise<UserRow | null> {
    return token ? this.sessions.resolve(token, secure) : null;
  }

  async logout(token: string | undefined) {
    if (token) await this.sessions.revoke(token);
  }

  /**
   * Re-checks a signed-in staff member's password (the optional 'Admin Password' of the
   * upload pages), under the same throttle as sign-in, device cookie included.
   */
  async confirmStaffPassword(userId: number, password: string, ip: string, wrongMessage: string, deviceCookie: string | null = null) {
    const user = await this.users.findById(userId);
    if (!user?.username || user.role === "user") throw DomainError.forbidden(wrongMessage);
    const accountKey = `staff:${user.username}`;
    // Counted before the comparison, as at sign-in, so concurrent guesses cannot outrun the limit.
    const path = await this.throttle.begin(accountKey, ip, this.devices.trustedKey(deviceCookie, accountKey));
    if (!user.password_hash || !(await verifyPassword(password, user.password_hash))) throw DomainError.forbidden(wrongMessage);
    await this.throttle.succeeded(accountKey, ip, path);
  }

  digestBirthdate(birthdate: string) {
    return birthdateDigest(this.secret, normalizeBirthdate(birthdate));
  }

  async createStaff(username: string, password: string, role: "limited_admin" | "super_admin", isCoreAdmin = false) {
    assertPassword(password);
    if (!/^[a-z0-9._@-]{3,64}$/i.test(username.trim())) {
      throw DomainError.invalid("Username must be 3-64 letters, digits, dots, dashes, underscores or @");
    }
    return this.users.createStaff({ username, passwordHash: await hashPassword(password), role, isCoreAdmin });
  }

  /** Sets a staff password and ends every session of that account. */
  async setPassword(username: string, password: string) {
    assertPassword(password);
    const user = await this.users.findStaffByUsername(username);
    if (!user) throw DomainError.notFound(`No staff account named ${username}`);
    await this.users.setStaffPassword(user.id, await hashPassword(password));
  }

  /** Deactivating an account ends its sessions. */
  async setActive(userId: number, active: boolean) {
    await this.users.setActive(userId, active);
  }
}

function assertPassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw DomainError.invalid(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}
