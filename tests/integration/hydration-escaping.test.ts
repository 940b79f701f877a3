import crypto from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { escapeHydrationString, type SignedInPages } from "../../app/server/signed-in-pages.server";
import { describeEachDatabase, sessionCookieFrom } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";

const PUBLIC_URL = "https://www.hoa.example";

/*
 * React Router's hydration data is JSON inside an inline script: a `<` written as is lets a
 * stored value end the script (`</script>`) or, subtler, put the HTML parser in a state where
 * the script's own end no longer ends it (`<!--<script `: the rest of the page becomes script).
 * Every served page must write `<` escaped there, the kept pages filled with a user's values
 * (decision 011) exactly as React Router writes the same value when it renders the page.
 */
const HOSTILE = ["<!--<script ", "<!--<script>", "<!--<SCRIPT/x", "</script><script>alert(1)</script>", "a<b>&\u2028c"];

describeEachDatabase("hydration data in served pages", (dialect) => {
  let server: PageTestServer;
  let reference: Awaited<ReturnType<PageTestServer["startInstance"]>>;
  beforeAll(async () => {
    server = await startPageTestServer(dialect, { PUBLIC_URL });
    reference = await server.startInstance({ keepPages: false });
    const feed = await server.services.feeds.createFeed({
      name: "Feed",
      url: "https://feed.example.com/rss",
      category: "news",
      is_active: false,
    });
    await server.services.articles.repo.saveFeedItems(
      feed.id,
      "news",
      HOSTILE.map((name, i) => {
        const title = `${name} gutter guide ${i}`;
        return {
          dedupe_key: title,
          guid: title,
          link: `https://feed.example.com/${i}`,
          title,
          summary: `A summary ${i}`,
          content: null,
          image_url: null,
          published_at: new Date(Date.now() - i * 60_000).toISOString(),
          source_name: "Feed",
          content_hash: crypto.createHash("sha1").update(title).digest("hex"),
        };
      }),
    );
  });
  afterAll(() => server.close());

  const kept = () => server.app.locals.signedInPages as SignedInPages;

  async function member(firstName: string) {
    const { auth } = server.services;
    const certificate = `H${crypto.randomInt(1e9)}`;
    await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName, lastName: "Hollis" });
    const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    expect(res.status).toBe(200);
    return sessionCookieFrom(res);
  }

  /** The bodies of the page's React Router data scripts (the context and the hydration chunks). */
  function hydrationScripts(html: string): string[] {
    const bodies = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]);
    return bodies.filter((body) => body.startsWith("window.__reactRouter"));
  }

  async function page(request: PageTestServer["request"], path: string, cookie?: string): Promise<string> {
    const res = await request(path, { cookie });
    expect(res.status, path).toBe(200);
    const html = await res.text();
    expect(html.trimEnd().endsWith("</html>"), path).toBe(true);
    return html;
  }

  function expectNoRawLessThan(html: string, what: string) {
    const scripts = hydrationScripts(html);
    expect(
      scripts.some((body) => body.includes("streamController.enqueue(")),
      what,
    ).toBe(true);
    for (const body of scripts) expect(body.includes("<"), `${what}: ${body.slice(0, 200)}`).toBe(false);
  }

  it("no served page holds a raw < in its hydration data: kept for a member, rendered for one, kept for everyone", async () => {
    for (const name of HOSTILE) {
      const cookie = await member(name);
      const keptBefore = kept().lookups.kept;
      // Rendered for the member alone, then from the kept template (made by the second ask), then kept.
      for (const round of [1, 2, 3])
        expectNoRawLessThan(await page(server.request, "/knowledge-center", cookie), `${name}, round ${round}`);
      // A name with a space at either end is always rendered for its member alone (signed-in-pages.test.ts).
      if (name.trim() === name) expect(kept().lookups.kept - keptBefore, name).toBeGreaterThanOrEqual(1);
      expectNoRawLessThan(await page(server.request, "/account", cookie), `${name}: account`);
    }
    for (const path of ["/", "/about-us", "/members-only"]) expectNoRawLessThan(await page(server.request, path), path);
  });

  it("a kept page writes a member's name in the hydration data as React Router writes it", async () => {
    for (const name of HOSTILE) {
      const cookie = await member(name);
      const ours = escapeHydrationString(name);
      const rendered = hydrationScripts(await page(reference.request, "/knowledge-center", cookie)).join("\n");
      // React Router's own writing of the name, and of the article titles it lists.
      expect(rendered, name).toContain(ours);
      expect(ours).not.toMatch(/[<>&\u2028\u2029]/);
      HOSTILE.forEach((title, i) => expect(rendered).toContain(escapeHydrationString(`${title} gutter guide ${i}`)));
      // The kept page, filled with the member's name.
      for (let round = 0; round < 3; round++) await server.request("/knowledge-center", { cookie });
      expect(hydrationScripts(await page(server.request, "/knowledge-center", cookie)).join("\n"), name).toContain(ours);
    }
  });
});
