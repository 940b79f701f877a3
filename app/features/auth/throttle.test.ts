import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { guardRows } from "../../../tests/support/row-guard";
import { describeEachDatabase, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { RateLimits } from "~/platform/rate-limit.server";
import { ACCOUNT_LIMIT, IP_LIMIT, TOO_MANY_ACCOUNT, TOO_MANY_IP } from "./throttle.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// A test here hashes a dozen passwords (scrypt, on the thread pool): on a busy machine that
// takes longer than the default 20 s, so give it room.
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const STAFF_PASSWORD = "the-right-staff-password";
const BIRTHDATE = "1985-03-07";
const RIGHT_BIRTHDATE = "030785";

/**
 * The sign-in throttle under concurrent load, over real HTTP. Two instances of the app share
 * one database (behind a proxy, so each test can speak from its own client address).
 */
describeEachDatabase("sign-in throttle", (dialect) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer(dialect, { TRUST_PROXY: "1" });
    b = await startSiblingServer(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  let ipCounter = 0;
  /** A client address no other test uses. */
  const freshIp = () => `203.0.113.${++ipCounter}`;

  function login(server: TestServer, body: Record<string, string>, ip: string) {
    return server.request("/api/auth/login", { method: "POST", json: body, headers: { "X-Forwarded-For": ip } });
  }

  /** Sends every body at once, alternating between the two instances, and collects the answers. */
  async function burst(bodies: Record<string, string>[], ip: string) {
    const answers = await Promise.all(
      bodies.map(async (body, i) => {
        const res = await login(i % 2 ? b : a, body, ip);
        return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
      }),
    );
    return answers;
  }
  const countOf = (answers: { status: number }[], status: number) => answers.filter((r) => r.status === status).length;

  /**
   * 60 wrong guesses at once, and right after the first 429 has come back (the limit is
   * reached, while the other guesses may still be comparing) the right credentials: they
   * must be refused too.
   */
  async function burstWithRightCredentialsAfterTheLimit(wrong: Record<string, string>, right: Record<string, string>, ip: string) {
    let firstRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
    const guesses = Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await login(i % 2 ? b : a, wrong, ip);
        if (res.status === 429) firstRefusal();
        return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
      }),
    );
    await Promise.race([refused, guesses]);
    const rightAnswer = await login(a, right, ip);
    return {
      guesses: await guesses,
      right: { status: rightAnswer.status, body: await rightAnswer.json(), cookies: rightAnswer.headers.getSetCookie() },
    };
  }

  it("lets exactly 5 of 60 concurrent wrong staff passwords be checked; the rest, and then the right password, get 429", async () => {
    await a.services.auth.createStaff("burst-staff", STAFF_PASSWORD, "super_admin");
    const { guesses, right } = await burstWithRightCredentialsAfterTheLimit(
      { username: "burst-staff", password: "a-wrong-password", kind: "staff" },
      { username: "burst-staff", password: STAFF_PASSWORD, kind: "staff" },
      freshIp(),
    );
    expect(countOf(guesses, 401)).toBe(ACCOUNT_LIMIT.failures);
    expect(countOf(guesses, 429)).toBe(60 - ACCOUNT_LIMIT.failures);
    for (const g of guesses.filter((r) => r.status === 429)) {
      expect(g.body).toEqual({ success: false, error: TOO_MANY_ACCOUNT });
      expect(g.retryAfter).toBe("900");
    }
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ success: false, error: TOO_MANY_ACCOUNT });
    expect(right.cookies).toEqual([]);
    // No session was started for the account.
    const user = await a.services.auth.users.findStaffByUsername("burst-staff");
    const sessions = await a.services.database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", user!.id).execute();
    expect(sessions).toEqual([]);
  });

  it("does the same for 60 concurrent wrong member birthdates", async () => {
    const { auth } = a.services;
    await auth.users.createMember({ certificate: "BURST100", birthdateDigest: auth.digestBirthdate(BIRTHDATE) });
    const { guesses, right } = await burstWithRightCredentialsAfterTheLimit(
      { username: "BURST100", password: "010101" },
      { username: "burst100", password: RIGHT_BIRTHDATE },
      freshIp(),
    );
    expect(countOf(guesses, 401)).toBe(ACCOUNT_LIMIT.failures);
    expect(countOf(guesses, 429)).toBe(60 - ACCOUNT_LIMIT.failures);
    expect(right.status).toBe(429);
    expect(right.body.error).toBe(TOO_MANY_ACCOUNT);
  });

  it("lets exactly 20 concurrent guesses from one address be checked across many accounts, then answers TOO_MANY_IP", async () => {
    const ip = freshIp();
    const answers = await burst(
      Array.from({ length: 45 }, (_, i) => ({ username: `NOBODY${i}`, password: "010101" })),
      ip,
    );
    expect(countOf(answers, 401)).toBe(IP_LIMIT.failures);
    expect(countOf(answers, 429)).toBe(45 - IP_LIMIT.failures);
    for (const r of answers.filter((x) => x.status === 429)) {
      expect(r.body.error).toBe(TOO_MANY_IP);
      expect(r.retryAfter).toBe("3600");
    }
    // Refused by the address limit before any comparison, those accounts were not charged:
    // from another address each still has its full 5 attempts.
    const refusedAccount = `NOBODY${answers.findIndex((r) => r.status === 429)}`;
    const other = freshIp();
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++)
      expect((await login(b, { username: refusedAccount, password: "010101" }, other)).status).toBe(401);
    expect((await login(a, { username: refusedAccount, password: "010101" }, other)).status).toBe(429);
  });

  it("starts the account's count again after a successful sign-in", async () => {
    await a.services.auth.createStaff("reset-staff", STAFF_PASSWORD, "limited_admin");
    const ip = freshIp();
    const wrong = { username: "reset-staff", password: "not-the-password", kind: "staff" };
    for (let i = 0; i < ACCOUNT_LIMIT.failures - 1; i++) expect((await login(a, wrong, ip)).status).toBe(401);
    expect((await login(b, { ...wrong, password: STAFF_PASSWORD }, ip)).status).toBe(200);
    // The full allowance again, counted on either instance.
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) expect((await login(i % 2 ? a : b, wrong, ip)).status, `failure ${i + 1}`).toBe(401);
    expect((await login(a, wrong, ip)).status).toBe(429);
  });

  it("does not count successful sign-ins against the address", async () => {
    const { auth } = a.services;
    await auth.users.createMember({ certificate: "IPOK100", birthdateDigest: auth.digestBirthdate(BIRTHDATE) });
    const ip = freshIp();
    for (let i = 0; i < IP_LIMIT.failures - 1; i++)
      expect((await login(a, { username: `GUESS${i}`, password: "010101" }, ip)).status).toBe(401);
    for (let i = 0; i < 5; i++)
      expect((await login(b, { username: "IPOK100", password: RIGHT_BIRTHDATE }, ip)).status, `success ${i + 1}`).toBe(200);
    expect((await login(a, { username: "GUESS-LAST", password: "010101" }, ip)).status).toBe(401);
    const refused = await login(b, { username: "GUESS-MORE", password: "010101" }, ip);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(TOO_MANY_IP);
  });

  it("counts an inactive account's correct sign-in as a failed attempt", async () => {
    const { auth } = a.services;
    const { id } = await auth.users.createMember({ certificate: "GONE100", birthdateDigest: auth.digestBirthdate(BIRTHDATE) });
    await auth.setActive(id, false);
    const ip = freshIp();
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++)
      expect((await login(a, { username: "GONE100", password: RIGHT_BIRTHDATE }, ip)).status).toBe(401);
    expect((await login(a, { username: "GONE100", password: RIGHT_BIRTHDATE }, ip)).status).toBe(429);
  });

  describe("the store", () => {
    it("keeps the count in the database: a new instance on it sees the same limit", async () => {
      const ip = freshIp();
      for (let i = 0; i < ACCOUNT_LIMIT.failures; i++)
        expect((await login(a, { username: "RESTART1", password: "010101" }, ip)).status).toBe(401);
      const fresh = await startSiblingServer(a);
      try {
        const res = await login(fresh, { username: "RESTART1", password: "010101" }, freshIp());
        expect(res.status).toBe(429);
      } finally {
        await fresh.close();
      }
    });

    it("pruning removes the windows that have ended, and no other", async () => {
      const { database } = a.services;
      const limits = new RateLimits(database);
      await limits.prune();
      const limiter = limits.limiter({ name: "prune_check", points: 5, windowMs: 60_000 });
      expect(await limiter.consume(freshIp())).toEqual({ allowed: true });
      await database.db
        .insertInto("rate_limits")
        .values({ key: "prune_check:ended", points: 1, expire: Date.now() - 1000 })
        .execute();
      const guard = await guardRows(database.db, ["rate_limits"]);
      await limits.prune();
      await guard.expectChanges({ rate_limits: { removed: ["prune_check:ended"] } });
    });
  });
});
