import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { startPageTestServer, type PageTestServer } from "../../../tests/support/page-app";
import { MESSAGES as UPLOAD_MESSAGES } from "~/features/member-import/contract";
import { DeviceCookies, deviceCookieName } from "./device-cookie.server";
import { ACCOUNT_LIMIT, DEVICE_LIMIT, IP_LIMIT, TOO_MANY_ACCOUNT, TOO_MANY_IP } from "./throttle.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const STAFF_PASSWORD = "the-right-staff-password";
const BIRTHDATE = "1985-03-07";
const RIGHT_BIRTHDATE = "030785";
const WRONG_BIRTHDATE = "010101";

type Body = Record<string, string>;
interface Answer {
  status: number;
  error?: string;
  retryAfter: string | null;
  /** "name=value" of the cookies the answer set. */
  session: string | null;
  device: string | null;
  setCookies: string[];
}

/**
 * Device cookies (decision 010) over real HTTP, on two instances sharing one database: a
 * browser that signed in to an account before is not locked out by anyone else's failures;
 * everyone else still is, and the address limit counts every attempt.
 */
describeEachDatabase("device cookies", (dialect) => {
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
  const freshIp = () => `198.51.100.${++ipCounter}`;
  let accountCounter = 0;
  const tag = () => `${++accountCounter}`;

  async function signIn(server: TestServer, body: Body, ip: string, cookie?: string | null): Promise<Answer> {
    const res = await server.request("/api/auth/login", {
      method: "POST",
      json: body,
      headers: { "X-Forwarded-For": ip },
      ...(cookie ? { cookie } : {}),
    });
    const setCookies = res.headers.getSetCookie();
    const pick = (name: string) => setCookies.find((c) => c.startsWith(`${name}=`))?.split(";")[0] ?? null;
    const json = (await res.json()) as { error?: string };
    return {
      status: res.status,
      error: json.error,
      retryAfter: res.headers.get("retry-after"),
      session: pick("aha_session"),
      device: pick("aha_device"),
      setCookies,
    };
  }

  /** Sends every body at once, alternating between the two instances. */
  const burst = (bodies: Body[], ip: string, cookie?: string | null) =>
    Promise.all(bodies.map((body, i) => signIn(i % 2 ? b : a, body, ip, cookie)));
  const countOf = (answers: Answer[], status: number) => answers.filter((r) => r.status === status).length;

  async function member(): Promise<{ right: Body; wrong: Body }> {
    const { auth } = a.services;
    const certificate = `DEV${tag()}`;
    await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate(BIRTHDATE) });
    return { right: { username: certificate, password: RIGHT_BIRTHDATE }, wrong: { username: certificate, password: WRONG_BIRTHDATE } };
  }
  async function staff(): Promise<{ right: Body; wrong: Body; username: string }> {
    const username = `device-staff-${tag()}`;
    await a.services.auth.createStaff(username, STAFF_PASSWORD, "super_admin");
    return {
      username,
      right: { username, password: STAFF_PASSWORD, kind: "staff" },
      wrong: { username, password: "not-the-password", kind: "staff" },
    };
  }

  /** The owner signs in once from their own address: their browser now holds a device cookie. */
  async function ownerBrowser(right: Body, ip: string) {
    const first = await signIn(a, right, ip);
    expect(first.status).toBe(200);
    expect(first.device).toMatch(/^aha_device=/);
    return first.device!;
  }

  for (const kind of ["member", "staff"] as const) {
    it(`${kind}: after 50 wrong attempts from another address, the owner's browser signs in at once; a stranger's is still refused`, async () => {
      const { right, wrong } = kind === "member" ? await member() : await staff();
      const ownerIp = freshIp();
      const device = await ownerBrowser(right, ownerIp);

      const attack = await burst(
        Array.from({ length: 50 }, () => wrong),
        freshIp(),
      );
      expect(countOf(attack, 401)).toBe(ACCOUNT_LIMIT.failures);
      expect(countOf(attack, 429)).toBe(50 - ACCOUNT_LIMIT.failures);

      const owner = await signIn(b, right, ownerIp, device);
      expect(owner.status).toBe(200);
      expect(owner.session).toMatch(/^aha_session=/);
      // A new token for the account, kept by the browser for the next time.
      expect(owner.device).toMatch(/^aha_device=/);
      expect(owner.device).not.toBe(device);
      expect((await signIn(a, right, ownerIp, owner.device)).status).toBe(200);

      // The owner's success does not reopen the account to everyone else.
      const stranger = await signIn(a, right, freshIp());
      expect(stranger).toMatchObject({ status: 429, error: TOO_MANY_ACCOUNT, session: null, device: null });
      // Nor to the owner's own address without the cookie.
      expect((await signIn(b, right, ownerIp)).status).toBe(429);
    });
  }

  it("a device cookie is limited too: 60 concurrent wrong guesses with it get 5 on its own counter, then the account's 5, then 429", async () => {
    const { right, wrong } = await member();
    const ip = freshIp();
    const device = await ownerBrowser(right, ip);
    const answers = await burst(
      Array.from({ length: 60 }, () => wrong),
      ip,
      device,
    );
    expect(countOf(answers, 401)).toBe(DEVICE_LIMIT.failures + ACCOUNT_LIMIT.failures);
    expect(countOf(answers, 429)).toBe(60 - DEVICE_LIMIT.failures - ACCOUNT_LIMIT.failures);
    for (const r of answers.filter((x) => x.status === 429)) expect(r).toMatchObject({ error: TOO_MANY_ACCOUNT, retryAfter: "900" });
    // Spent, the cookie is no better than none: the right birthdate with it is refused as well.
    expect(await signIn(a, right, ip, device)).toMatchObject({ status: 429, session: null });
  });

  it("a forged, altered, expired or other account's device cookie counts as none", async () => {
    const { right, wrong } = await member();
    const other = await member();
    const ownerIp = freshIp();
    const genuine = (await ownerBrowser(right, ownerIp)).split("=")[1];
    const otherAccount = await ownerBrowser(other.right, ownerIp);
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) expect((await signIn(a, wrong, freshIp())).status).toBe(401);

    const [acct, nonce, issued, mac] = genuine.split(".");
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const accountKey = `member:${right.username}`;
    const name = deviceCookieName(false);
    const forged = new DeviceCookies(Buffer.from("another-secret-another-secret-0123"));
    const yearAndADay = 366 * 24 * 60 * 60_000;
    const refusedCookies = {
      "another account's": otherAccount,
      "made with another key": `${name}=${forged.issue(null, accountKey)}`,
      "an altered MAC": `${name}=${[acct, nonce, issued, flip(mac)].join(".")}`,
      "an altered nonce": `${name}=${[acct, flip(nonce), issued, mac].join(".")}`,
      "an altered date": `${name}=${[acct, nonce, (parseInt(issued, 36) + 1).toString(36), mac].join(".")}`,
      "expired (signed with the real key a year and a day ago)": `${name}=${a.services.auth.devices.issue(null, accountKey, Date.now() - yearAndADay)}`,
      "under the HTTPS name on plain HTTP": `${deviceCookieName(true)}=${genuine}`,
      garbage: `${name}=${"x".repeat(3000)}`,
    };
    for (const [what, cookie] of Object.entries(refusedCookies)) {
      const answer = await signIn(a, right, ownerIp, cookie);
      expect(answer.status, what).toBe(429);
      expect(answer.error, what).toBe(TOO_MANY_ACCOUNT);
    }
    // The genuine one, among others in the same cookie, still works.
    expect((await signIn(b, right, ownerIp, `${name}=${forged.issue(null, accountKey)}~${genuine}`)).status).toBe(200);
  });

  it("the address limit counts attempts with device cookies too, and holds under a burst", async () => {
    const ip = freshIp();
    const devices: Array<{ wrong: Body; cookie: string }> = [];
    for (let i = 0; i < 6; i++) {
      const m = await member();
      devices.push({ wrong: m.wrong, cookie: await ownerBrowser(m.right, freshIp()) });
    }
    // 30 wrong guesses at once from one address: 5 per account, each with that account's own device cookie.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const d = devices[i % devices.length];
        return signIn(i % 2 ? b : a, d.wrong, ip, d.cookie);
      }),
    );
    expect(countOf(answers, 401)).toBe(IP_LIMIT.failures);
    expect(countOf(answers, 429)).toBe(30 - IP_LIMIT.failures);
    for (const r of answers.filter((x) => x.status === 429)) expect(r).toMatchObject({ error: TOO_MANY_IP, retryAfter: "3600" });
  });

  it("sets the device cookie HttpOnly, SameSite=Lax, for a year, naming the account by a digest; __Host- and Secure behind HTTPS", async () => {
    const { right } = await member();
    const plain = await signIn(a, right, freshIp());
    const cookie = plain.setCookies.find((c) => c.startsWith("aha_device="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).not.toMatch(/Secure/);
    // The session cookie comes first, as before.
    expect(plain.setCookies[0]).toMatch(/^aha_session=/);
    const value = plain.device!.split("=")[1];
    expect(value).not.toContain(right.username);
    expect(value).not.toContain(RIGHT_BIRTHDATE);
    // account digest . 128-bit nonce . date . MAC
    expect(value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);

    const res = await a.request("/api/auth/login", {
      method: "POST",
      json: right,
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-For": freshIp() },
    });
    const secure = res.headers.getSetCookie().find((c) => c.startsWith("__Host-aha_device="));
    expect(secure).toMatch(/Secure/);
    expect(secure).toMatch(/HttpOnly/);
  });

  it("keeps the browser's tokens of other accounts beside the new one", async () => {
    const first = await member();
    const second = await member();
    const ip = freshIp();
    const one = await ownerBrowser(first.right, ip);
    const both = await signIn(a, second.right, ip, one);
    expect(both.device!.split("~")).toHaveLength(2);
    // Lock both accounts for everyone else: the browser still signs in to each.
    for (const m of [first, second]) for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) await signIn(b, m.wrong, freshIp());
    expect((await signIn(a, first.right, ip, both.device)).status).toBe(200);
    expect((await signIn(a, second.right, ip, both.device)).status).toBe(200);
  });

  describe("the admin password of the upload pages", () => {
    const upload = (cookie: string, adminPassword: string, ip: string) =>
      a.request("/api/upload-users", {
        method: "POST",
        cookie,
        headers: { "X-Forwarded-For": ip },
        json: { csvContent: "certificate_number,birthdate\n", filename: "members.csv", adminPassword },
      });

    it("goes on working from the staff member's browser while strangers have locked the account", async () => {
      const { right, wrong } = await staff();
      const ip = freshIp();
      const signedIn = await signIn(a, right, ip);
      for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) expect((await signIn(b, wrong, freshIp())).status).toBe(401);

      const withDevice = await upload(`${signedIn.session}; ${signedIn.device}`, STAFF_PASSWORD, ip);
      expect(withDevice.status).not.toBe(429);
      expect((await withDevice.json()).error).not.toBe(UPLOAD_MESSAGES.wrongAdminPassword);
      // The same session without the device cookie meets the lockout.
      const without = await upload(signedIn.session!, STAFF_PASSWORD, ip);
      expect(without.status).toBe(429);
    });
  });
});

describeEachDatabase("device cookies on the sign-in form without JavaScript", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  it("sets the device cookie and lets the browser that holds it through a lockout", async () => {
    const { auth } = server.services;
    await auth.users.createMember({ certificate: "FORM100", birthdateDigest: auth.digestBirthdate(BIRTHDATE) });
    const post = (password: string, cookie?: string) =>
      server.request("/login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `username=FORM100&password=${password}`,
        ...(cookie ? { cookie } : {}),
      });
    const first = await post(RIGHT_BIRTHDATE);
    expect(first.status).toBe(302);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith("aha_device="))
      ?.split(";")[0];
    expect(device).toBeDefined();
    expect(first.headers.getSetCookie()[0]).toMatch(/^aha_session=/);
    for (let i = 0; i < ACCOUNT_LIMIT.failures; i++) expect((await post(WRONG_BIRTHDATE)).status).toBe(401);
    expect((await post(RIGHT_BIRTHDATE)).status).toBe(429);
    expect((await post(RIGHT_BIRTHDATE, device)).status).toBe(302);
  });
});
