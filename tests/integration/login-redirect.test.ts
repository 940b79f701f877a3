import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * The redirect after sign-in, on the page (signed in, GET /login?redirectTo=...) and on the
 * form posted without JavaScript: each hostile value lands on /knowledge-center, on our own
 * origin, with the session cookie sent. Query-string encoded, as an attacker's link carries them.
 */
const HOSTILE = [
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d/evil.example",
  "/%0d%0aSet-Cookie:%20x=1",
  "/%E3%80%80/evil.example",
  "/%E2%80%A8/evil.example",
  "/%E2%80%A9/evil.example",
  "/%C2%A0/evil.example",
  "/%00/evil.example",
  "/%20/evil.example",
  "//evil.example",
  "/%5Cevil.example",
  "/%5C/evil.example",
  "/..//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "/%E6%97%A5%E6%9C%AC%0a",
];

describeEachDatabase("redirect after sign-in", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  function expectOwnOrigin(location: string | null) {
    expect(location).not.toBeNull();
    // Printable ASCII only (no control character, space or anything beyond), and no backslash.
    expect(location).not.toMatch(/[^\x21-\x7e]|\\/);
    expect(new URL(location!, server.url).origin).toBe(server.url);
  }

  describe("signed in, GET /login", () => {
    let cookie: string;
    beforeAll(async () => {
      ({ cookie } = await loginAs(server, "member"));
    });

    it.each(HOSTILE)("redirectTo=%s goes to the knowledge center", async (redirectTo) => {
      const res = await server.request(`/login?redirectTo=${redirectTo}`, { cookie });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/knowledge-center");
    });

    it("a plain path is followed, non-ASCII percent-encoded", async () => {
      const kept = await server.request(`/login?redirectTo=${encodeURIComponent("/application?step=2")}`, { cookie });
      expect(kept.status).toBe(302);
      expect(kept.headers.get("location")).toBe("/application?step=2");
      const encoded = await server.request("/login?redirectTo=/caf%C3%A9", { cookie });
      expect(encoded.headers.get("location")).toBe("/caf%C3%A9");
      expectOwnOrigin(encoded.headers.get("location"));
    });
  });

  describe("the form posted without JavaScript", () => {
    async function addMember() {
      const { auth } = server.services;
      const certificate = `R${crypto.randomInt(1e9)}`;
      await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName: "Pat" });
      return certificate;
    }

    it.each(HOSTILE)("redirectTo=%s signs in, sends the cookie and goes to the knowledge center", async (redirectTo) => {
      const certificate = await addMember();
      const res = await server.request("/login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `username=${certificate}&password=011580&redirectTo=${redirectTo}`,
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/knowledge-center");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("aha_session="))).toBe(true);
    });

    it("a plain path is followed", async () => {
      const certificate = await addMember();
      const res = await server.request("/login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `username=${certificate}&password=011580&redirectTo=${encodeURIComponent("/application")}`,
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/application");
    });
  });
});
