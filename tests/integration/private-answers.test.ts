import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("answers to a signed-in user", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  describe("Cache-Control", () => {
    it("every page, data request and API answer for a member is private, no-store", async () => {
      const { cookie } = await loginAs(server, "member");
      for (const path of [
        "/",
        "/knowledge-center",
        "/knowledge-center.data",
        "/about-us",
        "/admin/dashboard", // a member is sent away from it: the redirect is theirs too
        "/login",
        "/api/auth/me",
        "/api/featured-articles", // public, cacheable for visitors
        "/api/rss/articles",
        "/no-such-page",
      ]) {
        const res = await server.request(path, { cookie });
        expect(res.status, path).toBeLessThan(500);
        expect(res.headers.get("cache-control"), path).toBe("private, no-store");
      }
    });

    it("admin pages and posts for staff are private, no-store", async () => {
      const { cookie } = await loginAs(server, "super_admin");
      for (const path of ["/admin/dashboard", "/admin/rss", "/admin/rss.data", "/api/rss/feeds"]) {
        const res = await server.request(path, { cookie });
        expect(res.status, path).toBe(200);
        expect(res.headers.get("cache-control"), path).toBe("private, no-store");
      }
      const posted = await server.request("/make-payment", {
        method: "POST",
        cookie,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "option=membership",
      });
      expect(posted.status).toBe(200);
      expect(posted.headers.get("cache-control")).toBe("private, no-store");
    });

    it("visitors keep the public caching of public answers", async () => {
      const featured = await server.request("/api/featured-articles");
      expect(featured.headers.get("cache-control")).toBe("public, max-age=60");
      const page = await server.request("/about-us");
      expect(page.headers.get("cache-control") ?? "").not.toContain("private");
    });
  });

  describe("Content-Security-Policy", () => {
    const scriptSrc = (res: Response) =>
      (res.headers.get("content-security-policy") ?? "").split(";").find((d) => d.startsWith("script-src"));
    const nonceOf = (html: string) => /<script[^>]*\snonce="([^"]+)"/.exec(html)?.[1];

    it("a page rendered for one member carries a fresh nonce on its scripts, named by its policy", async () => {
      const { cookie } = await loginAs(server, "member");
      const nonces = new Set<string>();
      for (let i = 0; i < 2; i++) {
        const res = await server.request("/knowledge-center", { cookie });
        const html = await res.text();
        const nonce = nonceOf(html);
        expect(nonce).toBeTruthy();
        expect(scriptSrc(res)).toBe(`script-src 'nonce-${nonce}' 'strict-dynamic'`);
        nonces.add(nonce!);
      }
      expect(nonces.size).toBe(2);
    });

    it("answers that are not pages let no script run and draw no nonce", async () => {
      const { cookie } = await loginAs(server, "member");
      for (const path of ["/healthz", "/api/auth/me", "/knowledge-center.data", "/favicon.svg", "/api/no-such-endpoint"]) {
        const res = await server.request(path, { cookie });
        expect(scriptSrc(res), path).toBe("script-src 'none'");
      }
    });
  });

  // A kept public page names its scripts by hash: tests/integration/page-cache.test.ts (kept pages need PUBLIC_URL).

  describe("state changes from another site", () => {
    const post = (headers: Record<string, string>) =>
      server.request("/make-payment", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "option=membership",
      });

    it("Sec-Fetch-Site same-site (a sibling subdomain or port) is refused like cross-site", async () => {
      for (const site of ["same-site", "cross-site", "SAME-ORIGIN", "bogus"]) {
        const res = await post({ "Sec-Fetch-Site": site });
        expect(res.status, site).toBe(403);
        expect(await res.json()).toEqual({ success: false, error: "Cross-site request refused" });
      }
      const api = await server.request("/api/auth/logout", { method: "POST", headers: { "Sec-Fetch-Site": "same-site" } });
      expect(api.status).toBe(403);
    });

    it("same-origin and none pass", async () => {
      expect((await post({ "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
      expect((await post({ "Sec-Fetch-Site": "none" })).status).toBe(200);
    });

    it("without Sec-Fetch-Site, the Origin must be exactly ours", async () => {
      const port = new URL(server.url).port;
      for (const origin of [
        `http://127.0.0.1:${Number(port) + 1}`,
        "http://sub.127.0.0.1",
        `https://127.0.0.1:${port}`,
        "null",
        "https://evil.example",
      ]) {
        expect((await post({ Origin: origin })).status, origin).toBe(403);
      }
      expect((await post({ Origin: server.url })).status).toBe(200);
    });
  });
});
