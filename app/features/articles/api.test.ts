import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { nowIso } from "~/platform/db.server";
import { FEED_EXISTS, FEED_NOT_FOUND, FEED_PRIVATE_HOST } from "./service.server";
import { FEED_MESSAGES } from "./feed-input";

describeEachDatabase("articles API", (dialect) => {
  let server: TestServer;
  let member: string;
  let limited: string;
  let superAdmin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    member = (await loginAs(server, "member")).cookie;
    limited = (await loginAs(server, "limited_admin")).cookie;
    superAdmin = (await loginAs(server, "super_admin")).cookie;
  });
  afterAll(() => server.close());

  const req = (path: string, init: Parameters<TestServer["request"]>[1] = {}) => server.request(path, init);

  /** Stores articles directly, as an ingest would, for the read endpoints. */
  async function addArticles(feedId: number, category: string, items: Array<{ title: string; published_at: string }>) {
    const { db } = server.services.database;
    const now = nowIso();
    await db
      .insertInto("articles")
      .values(
        items.map((it, i) => ({
          feed_id: feedId,
          dedupe_key: `${category}-${it.title}-${i}`,
          guid: null,
          link: `https://example.com/${encodeURIComponent(it.title)}`,
          title: it.title,
          summary: `Summary of ${it.title}`,
          content: `<p>${it.title}</p>`,
          image_url: null,
          published_at: it.published_at,
          category,
          source_name: "Example Source",
          content_hash: "x",
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }

  describe("who may call what", () => {
    const superOnly: Array<[string, string]> = [
      ["GET", "/api/rss/feeds"],
      ["POST", "/api/rss/feeds"],
      ["PUT", "/api/rss/feeds"],
      ["DELETE", "/api/rss/feeds"],
      ["GET", "/api/rss/export"],
      ["GET", "/api/rss/health"],
    ];

    it("anonymous callers get 401 on every RSS endpoint", async () => {
      for (const [method, path] of [...superOnly, ["GET", "/api/rss/articles"], ["POST", "/api/rss/ingest"]] as const) {
        const res = await req(path, { method, json: method === "GET" ? undefined : {} });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect((await res.json()).success).toBe(false);
      }
    });

    it("members and limited admins get 403 on feeds, export and health", async () => {
      for (const cookie of [member, limited]) {
        for (const [method, path] of superOnly) {
          const res = await req(path, { method, cookie, json: method === "GET" ? undefined : {} });
          expect(res.status, `${method} ${path}`).toBe(403);
        }
      }
    });

    it("members and limited admins may read articles", async () => {
      for (const cookie of [member, limited, superAdmin]) {
        const res = await req("/api/rss/articles", { cookie });
        expect(res.status).toBe(200);
        expect((await res.json()).success).toBe(true);
      }
    });

    it("featured articles are public", async () => {
      const res = await req("/api/featured-articles");
      expect(res.status).toBe(200);
    });
  });

  describe("feeds", () => {
    it("adds, lists, updates and deletes a feed", async () => {
      const created = await req("/api/rss/feeds", {
        method: "POST",
        cookie: superAdmin,
        json: { name: "  Example Blog ", url: "https://blog.example.com/feed", category: "decor", is_active: true },
      });
      expect(created.status).toBe(201);
      const { feed } = await created.json();
      expect(feed).toEqual({
        id: expect.any(Number),
        name: "Example Blog",
        url: "https://blog.example.com/feed",
        category: "decor",
        is_active: true,
        last_ingested_at: null,
        last_error: null,
        consecutive_failures: 0,
        next_attempt_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });

      const list = await (await req("/api/rss/feeds", { cookie: superAdmin })).json();
      expect(list.success).toBe(true);
      expect(list.feeds.map((f: { id: number }) => f.id)).toContain(feed.id);

      const updated = await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: feed.id, name: "Renamed", url: "https://blog.example.com/feed", category: "safety", is_active: false },
      });
      expect(updated.status).toBe(200);
      expect((await updated.json()).feed).toMatchObject({ id: feed.id, name: "Renamed", category: "safety", is_active: false });

      const deleted = await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id: feed.id } });
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toEqual({ success: true });
      const again = await req(`/api/rss/feeds?id=${feed.id}`, { method: "DELETE", cookie: superAdmin });
      expect(again.status).toBe(404);
      expect((await again.json()).error).toBe(FEED_NOT_FOUND);
    });

    it("refuses bad input with clear 400 messages", async () => {
      const cases: Array<[unknown, string]> = [
        [{ url: "https://a.example.com/feed", category: "decor" }, FEED_MESSAGES.nameRequired],
        [{ name: "  ", url: "https://a.example.com/feed" }, FEED_MESSAGES.nameRequired],
        [{ name: "A" }, FEED_MESSAGES.urlRequired],
        [{ name: "A", url: "javascript:alert(1)" }, FEED_MESSAGES.urlInvalid],
        [{ name: "A", url: "ftp://a.example.com/feed" }, FEED_MESSAGES.urlInvalid],
        [{ name: "A", url: "not a url" }, FEED_MESSAGES.urlInvalid],
        [{ name: "A", url: "https://a.example.com/feed", category: "gardening" }, FEED_MESSAGES.categoryInvalid],
        [{ name: "A", url: "https://a.example.com/feed", is_active: "maybe" }, FEED_MESSAGES.activeInvalid],
        [{ name: "A", url: "http://127.0.0.1/feed" }, FEED_PRIVATE_HOST],
        [{ name: "A", url: "http://2130706433/feed" }, FEED_PRIVATE_HOST],
        [{ name: "A", url: "http://localhost:8080/feed" }, FEED_PRIVATE_HOST],
      ];
      for (const [body, error] of cases) {
        const res = await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        const answer = await res.json();
        expect(answer.success).toBe(false);
        expect(answer.error).toBe(error);
      }
      const badId = await req("/api/rss/feeds", { method: "PUT", cookie: superAdmin, json: { id: "abc", name: "A", url: "https://x.example.com/" } });
      expect(badId.status).toBe(400);
      const missing = await req("/api/rss/feeds", { method: "PUT", cookie: superAdmin, json: { id: 999999, name: "A", url: "https://x.example.com/" } });
      expect(missing.status).toBe(404);
      const noId = await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: {} });
      expect(noId.status).toBe(400);
    });

    it("answers 409 for a URL that is already a feed, on add and on edit", async () => {
      const body = { name: "Dup", url: "https://dup.example.com/feed", category: "news", is_active: true };
      expect((await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: body })).status).toBe(201);
      const dup = await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: { ...body, name: "Other" } });
      expect(dup.status).toBe(409);
      expect((await dup.json()).error).toBe(FEED_EXISTS);
      const other = await (await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: { ...body, url: "https://dup2.example.com/feed" } })).json();
      const clash = await req("/api/rss/feeds", { method: "PUT", cookie: superAdmin, json: { ...body, id: other.feed.id } });
      expect(clash.status).toBe(409);
    });

    it("moves a feed's articles along when its category changes, and deletes them with the feed", async () => {
      const { feed } = await (
        await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: { name: "Mover", url: "https://mover.example.com/feed", category: "news" } })
      ).json();
      await addArticles(feed.id, "news", [{ title: "Moving day", published_at: "2024-02-01T00:00:00.000Z" }]);
      await req("/api/rss/feeds", { method: "PUT", cookie: superAdmin, json: { id: feed.id, name: "Mover", url: feed.url, category: "insurance", is_active: true } });
      const page = await (await req("/api/rss/articles?category=insurance", { cookie: member })).json();
      expect(page.articles.map((a: { title: string }) => a.title)).toEqual(["Moving day"]);
      await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id: feed.id } });
      const after = await (await req("/api/rss/articles?category=insurance", { cookie: member })).json();
      expect(after.articles).toEqual([]);
    });
  });
});
