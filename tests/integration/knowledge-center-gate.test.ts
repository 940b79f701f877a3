import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * Issue 30, 3.11: a visitor who is not signed in meets the knowledge center in one place, the
 * members-only gate (spec: the gate shown to visitors who are not logged in), whether by a link
 * or by the address typed directly; the other guarded pages keep "Authentication Required".
 */
describeEachDatabase("the knowledge center for a visitor", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  describe("typed directly", () => {
    it.each(["/knowledge-center", "/knowledge", "/knowledge-center/", "/knowledge-center?category=decor&page=2"])(
      "%s sends a visitor to /members-only",
      async (path) => {
        const res = await server.request(path);
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe("/members-only");
      },
    );

    it("the data request of a client-side navigation is sent there too", async () => {
      const res = await server.request("/knowledge-center.data");
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("x-remix-redirect") ?? (await res.text())).toContain("/members-only");
      expect(await server.request("/knowledge-center.data").then((r) => r.text())).not.toContain("Authentication Required");
    });

    it("a signed-in member reads it where it is", async () => {
      const { cookie } = await loginAs(server, "member");
      const res = await server.request("/knowledge-center", { cookie });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Knowledge Center");
    });

    it("the other guarded pages still answer 'Authentication Required' in place", async () => {
      for (const path of ["/application", "/account", "/admin/dashboard"]) {
        const res = await server.request(path);
        expect(res.status, path).toBe(401);
        expect(await res.text(), path).toContain("Authentication Required");
      }
    });
  });

  describe("linked", () => {
    it("the header, the footer and the home page's block lead a visitor to the gate, and nowhere else", async () => {
      for (const page of ["/", "/about-us", "/contact-us"]) {
        const html = await (await server.request(page)).text();
        const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(?:(?!<\/a>)[\s\S])*?Knowledge(?:(?!<\/a>)[\s\S])*?<\/a>/g)].map(
          (m) => m[1],
        );
        expect(hrefs.length, page).toBeGreaterThanOrEqual(page === "/" ? 4 : 3);
        expect(new Set(hrefs), page).toEqual(new Set(["/members-only"]));
      }
    });

    it("for a signed-in member they all lead to the knowledge center", async () => {
      const { cookie } = await loginAs(server, "member");
      const html = await (await server.request("/", { cookie })).text();
      const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(?:(?!<\/a>)[\s\S])*?Knowledge(?:(?!<\/a>)[\s\S])*?<\/a>/g)].map(
        (m) => m[1],
      );
      expect(hrefs.length).toBeGreaterThanOrEqual(4);
      expect(new Set(hrefs)).toEqual(new Set(["/knowledge-center"]));
    });
  });
});
