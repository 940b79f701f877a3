import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest, openDatabase, type DatabaseHandle } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import { RateLimits } from "~/platform/rate-limit.server";
import { AuthService, INVALID_CREDENTIALS, INVALID_STAFF_CREDENTIALS } from "./auth.server";
import { birthdateDigest, verifyPassword } from "./credentials.server";
import { ACCOUNT_LIMIT, TOO_MANY_ACCOUNT } from "./throttle.server";
import type { LoginInput } from "./contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// A test here hashes a dozen passwords (scrypt, on the thread pool): on a busy machine that
// takes longer than the default 20 s, so give it room.
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * AuthService on a real (SQLite) database: which credentials open which account, what every
 * refusal says, what a sign-in records, and what ending a password or an account ends. The
 * same rules over HTTP, on both databases, are in api.test.ts and throttle.test.ts.
 */

const SECRET = Buffer.from("auth-service-test-secret");
const PASSWORD = "correct horse battery";
let dir: string;
let database: DatabaseHandle;
let auth: AuthService;
let ipCounter = 0;
const ip = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-auth-service-"));
  database = openDatabase({ sqliteFile: path.join(dir, "app.db") });
  await migrateToLatest(database);
  auth = new AuthService(database.db, SECRET, new RateLimits(database));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The DomainError a call throws, as kind and message. */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    if (err instanceof DomainError) return { kind: err.kind, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

const member = (username: string, password: string): LoginInput => ({ kind: "member", username, password }) as LoginInput;
const staff = (username: string, password: string): LoginInput => ({ kind: "staff", username, password }) as LoginInput;
const row = (id: number) => database.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("member sign-in", () => {
  it("opens with the certificate number in any case and spacing and the birthdate as MMDDYY", async () => {
    const { id } = await auth.users.createMember({ certificate: "AS-100", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    expect(auth.digestBirthdate("1980-01-15")).toBe(birthdateDigest(SECRET, "011580"));
    const result = await auth.login(member(" as-100 ", "011580"), ip(), false);
    expect(result.user).toMatchObject({ id, role: "user", certificate_number: "AS-100", admin: false, is_active: true });
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect((await row(id)).last_login_at).not.toBeNull();
    // The session works on the scheme it was made on only.
    expect((await auth.userForSession(result.token, false))?.id).toBe(id);
    expect(await auth.userForSession(result.token, true)).toBeNull();
    const secure = await auth.login(member("AS-100", "011580"), ip(), true);
    expect((await auth.userForSession(secure.token, true))?.id).toBe(id);
  });

  it("refuses a wrong birthdate, an unknown certificate and a staff account's, all alike", async () => {
    await auth.users.createMember({ certificate: "AS-101", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    const { id: staffId } = await auth.createStaff("as-staff-1", PASSWORD, "limited_admin");
    await database.db
      .updateTable("users")
      .set({ certificate_number: "AS-STAFF", birthdate_digest: auth.digestBirthdate("1980-01-15") })
      .where("id", "=", staffId)
      .execute();
    for (const [certificate, birthdate] of [
      ["AS-101", "011680"],
      ["AS-999", "011580"],
      ["AS-STAFF", "011580"],
    ])
      expect(await refusal(auth.login(member(certificate, birthdate), ip(), false))).toEqual({
        kind: "unauthenticated",
        message: INVALID_CREDENTIALS,
      });
  });

  it("never opens with a password that is not a birthdate, even one whose digest was stored", async () => {
    await auth.users.createMember({ certificate: "AS-102", birthdateDigest: birthdateDigest(SECRET, "hello") });
    expect(await refusal(auth.login(member("AS-102", "hello"), ip(), false))).toEqual({
      kind: "unauthenticated",
      message: INVALID_CREDENTIALS,
    });
  });

  it("an inactive member gets the wrong birthdate's answer, records no sign-in, and the attempt counts against the account", async () => {
    const { id } = await auth.users.createMember({ certificate: "AS-103", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    await auth.setActive(id, false);
    const from = ip();
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++)
      expect(await refusal(auth.login(member("AS-103", "011580"), from, false))).toEqual({
        kind: "unauthenticated",
        message: INVALID_CREDENTIALS,
      });
    expect((await row(id)).last_login_at).toBeNull();
    expect(await refusal(auth.login(member("AS-103", "011580"), ip(), false))).toEqual({ kind: "rate_limited", message: TOO_MANY_ACCOUNT });
  });

  it("a success starts the account's count again", async () => {
    await auth.users.createMember({ certificate: "AS-104", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < ACCOUNT_LIMIT.failures - 1; i++) await refusal(auth.login(member("AS-104", "000000"), ip(), false));
      await auth.login(member("AS-104", "011580"), ip(), false);
    }
    await auth.login(member("AS-104", "011580"), ip(), false);
  });
});

describe("staff sign-in and passwords", () => {
  it("opens with the username in any case and spacing and the password; refuses others with the staff message", async () => {
    const { id } = await auth.createStaff("As.Staff_2@x-y", PASSWORD, "super_admin");
    expect((await row(id)).username).toBe("as.staff_2@x-y");
    expect(await verifyPassword(PASSWORD, (await row(id)).password_hash!)).toBe(true);
    const result = await auth.login(staff("  AS.STAFF_2@X-Y ", PASSWORD), ip(), false);
    expect(result.user).toMatchObject({ id, role: "super_admin", admin: true, username: "as.staff_2@x-y" });
    for (const [username, password] of [
      ["as.staff_2@x-y", "correct horse batterY"],
      ["nobody-here", PASSWORD],
    ])
      expect(await refusal(auth.login(staff(username, password), ip(), false))).toEqual({
        kind: "unauthenticated",
        message: INVALID_STAFF_CREDENTIALS,
      });
    // A member's certificate is not a staff username.
    await auth.users.createMember({ certificate: "as-member-3", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    expect((await refusal(auth.login(staff("as-member-3", PASSWORD), ip(), false))).message).toBe(INVALID_STAFF_CREDENTIALS);
  });

  it("creates staff only with a password of 12 or more characters and a username of 3-64 allowed characters", async () => {
    const passwordRule = { kind: "invalid", message: "Password must be at least 12 characters" };
    const usernameRule = { kind: "invalid", message: "Username must be 3-64 letters, digits, dots, dashes, underscores or @" };
    expect(await refusal(auth.createStaff("as-short", "x".repeat(11), "limited_admin"))).toEqual(passwordRule);
    await auth.createStaff("as-exact", "x".repeat(12), "limited_admin");
    for (const username of ["ab", "a".repeat(65), "has space", "semi;colon", ""])
      expect(await refusal(auth.createStaff(username, PASSWORD, "limited_admin")), username).toEqual(usernameRule);
    await auth.createStaff("abc", PASSWORD, "limited_admin");
    const spaced = await auth.createStaff(` ${"A".repeat(64)} `, PASSWORD, "limited_admin");
    expect((await row(spaced.id)).username).toBe("a".repeat(64));
    const core = await auth.createStaff("as-core", PASSWORD, "super_admin", true);
    expect((await row(core.id)).is_core_admin).toBe(1);
    expect((await row((await auth.createStaff("as-not-core", PASSWORD, "super_admin")).id)).is_core_admin).toBe(0);
  });

  it("a new password works at once, the old one no more, and every session of the account ends", async () => {
    const { id } = await auth.createStaff("as-reset", PASSWORD, "limited_admin");
    const one = await auth.login(staff("as-reset", PASSWORD), ip(), false);
    const two = await auth.login(staff("as-reset", PASSWORD), ip(), true);
    const other = await auth.login(staff("as-exact", "x".repeat(12)), ip(), false);
    expect(await refusal(auth.setPassword("as-reset", "short"))).toEqual({
      kind: "invalid",
      message: "Password must be at least 12 characters",
    });
    expect(await refusal(auth.setPassword("as-nobody", "a new long password"))).toEqual({
      kind: "not_found",
      message: "No staff account named as-nobody",
    });
    await auth.setPassword("AS-Reset", "a new long password");
    expect(await auth.userForSession(one.token, false)).toBeNull();
    expect(await auth.userForSession(two.token, true)).toBeNull();
    expect((await auth.userForSession(other.token, false))?.username).toBe("as-exact");
    expect((await refusal(auth.login(staff("as-reset", PASSWORD), ip(), false))).kind).toBe("unauthenticated");
    expect((await auth.login(staff("as-reset", "a new long password"), ip(), false)).user.id).toBe(id);
  });

  it("confirms a signed-in staff member's password under the sign-in throttle; never a member's", async () => {
    const wrong = "Admin password is incorrect";
    const { id } = await auth.createStaff("as-confirm", PASSWORD, "limited_admin");
    await auth.confirmStaffPassword(id, PASSWORD, ip(), wrong);
    const from = ip();
    for (let i = 0; i < ACCOUNT_LIMIT.failures - 1; i++)
      expect(await refusal(auth.confirmStaffPassword(id, "nope", from, wrong))).toEqual({ kind: "forbidden", message: wrong });
    // A success starts the count again; the same account's failures then reach the limit.
    await auth.confirmStaffPassword(id, PASSWORD, from, wrong);
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) await refusal(auth.confirmStaffPassword(id, "nope", ip(), wrong));
    expect(await refusal(auth.confirmStaffPassword(id, PASSWORD, ip(), wrong))).toEqual({
      kind: "rate_limited",
      message: TOO_MANY_ACCOUNT,
    });
    // Sign-in shares the count.
    expect((await refusal(auth.login(staff("as-confirm", PASSWORD), ip(), false))).kind).toBe("rate_limited");

    const { id: memberId } = await auth.users.createMember({ certificate: "AS-105", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    expect(await refusal(auth.confirmStaffPassword(memberId, "011580", ip(), wrong))).toEqual({ kind: "forbidden", message: wrong });
    expect(await refusal(auth.confirmStaffPassword(999_999, PASSWORD, ip(), wrong))).toEqual({ kind: "forbidden", message: wrong });
    // A member row that somehow holds a username and a password hash is still no staff member.
    await database.db
      .updateTable("users")
      .set({ username: "as-member-user", password_hash: (await row(id)).password_hash })
      .where("id", "=", memberId)
      .execute();
    expect(await refusal(auth.confirmStaffPassword(memberId, PASSWORD, ip(), wrong))).toEqual({ kind: "forbidden", message: wrong });
    const { id: noHash } = await auth.createStaff("as-no-hash", PASSWORD, "limited_admin");
    await database.db.updateTable("users").set({ password_hash: null }).where("id", "=", noHash).execute();
    expect(await refusal(auth.confirmStaffPassword(noHash, PASSWORD, ip(), wrong))).toEqual({ kind: "forbidden", message: wrong });
  });
});

describe("sessions and accounts", () => {
  it("no token is no user; logout ends that one session only, and a missing token is no error", async () => {
    expect(await auth.userForSession(undefined, false)).toBeNull();
    expect(await auth.userForSession("", false)).toBeNull();
    await auth.createStaff("as-logout", PASSWORD, "limited_admin");
    const a = await auth.login(staff("as-logout", PASSWORD), ip(), false);
    const b = await auth.login(staff("as-logout", PASSWORD), ip(), false);
    await auth.logout(undefined);
    await auth.logout(a.token);
    expect(await auth.userForSession(a.token, false)).toBeNull();
    expect((await auth.userForSession(b.token, false))?.username).toBe("as-logout");
  });

  it("deactivating an account ends its sessions; activating it again does not bring them back but allows sign-in", async () => {
    const { id } = await auth.createStaff("as-active", PASSWORD, "limited_admin");
    const session = await auth.login(staff("as-active", PASSWORD), ip(), false);
    await auth.setActive(id, true);
    expect((await auth.userForSession(session.token, false))?.id).toBe(id);
    await auth.setActive(id, false);
    expect((await row(id)).is_active).toBe(0);
    expect(await database.db.selectFrom("sessions").select("user_id").where("user_id", "=", id).execute()).toEqual([]);
    expect(await auth.userForSession(session.token, false)).toBeNull();
    await auth.setActive(id, true);
    expect(await auth.userForSession(session.token, false)).toBeNull();
    expect((await auth.login(staff("as-active", PASSWORD), ip(), false)).user.is_active).toBe(true);
  });
});

describe("accounts in the users table", () => {
  it("counts staff accounts only", async () => {
    const before = await auth.users.countStaff();
    await auth.createStaff("as-count-1", PASSWORD, "limited_admin");
    await auth.createStaff("as-count-2", PASSWORD, "super_admin");
    await auth.users.createMember({ certificate: "AS-COUNT", birthdateDigest: "d" });
    expect(await auth.users.countStaff()).toBe(before + 2);
  });

  it("stores a member with every detail given, and nulls for the rest", async () => {
    const full = await auth.users.createMember({
      certificate: "AS-FULL",
      birthdateDigest: "digest",
      firstName: "Ann",
      lastName: "Lee",
      email: "ann@example.com",
    });
    expect(await row(full.id)).toMatchObject({
      certificate_number: "AS-FULL",
      birthdate_digest: "digest",
      first_name: "Ann",
      last_name: "Lee",
      email: "ann@example.com",
      role: "user",
      is_active: 1,
      is_core_admin: 0,
      username: null,
      password_hash: null,
    });
    const bare = await auth.users.createMember({ certificate: "AS-BARE", birthdateDigest: "digest" });
    expect(await row(bare.id)).toMatchObject({ first_name: null, last_name: null, email: null });
  });
});
