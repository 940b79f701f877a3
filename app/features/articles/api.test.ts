import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFeedServer, type FeedServer } from "../../../tests/support/feed-server";
import { guardRows } from "../../../tests/support/row-guard";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { nowIso } from "~/platform/db.server";
import { INVALID_INGEST_TOKEN, NO_INGEST_RUN } from "./api.server";
import { FEED_INACTIVE } from "./ingest-service.server";
import { FEATURED_SLOTS } from "~/domain/article-categories";
import { FEED_EXISTS, FEED_NOT_FOUND, FEED_PRIVATE_HOST } from "./feeds.server";
import { FEED_MESSAGES } from "./contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const INGEST_TOKEN = "scheduler-token-0123456789abcdef";

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

    it("answers 405 for other methods on the feeds path", async () => {
      const res = await req("/api/rss/feeds", { method: "PATCH", cookie: superAdmin, json: {} });
      expect(res.status).toBe(405);
      expect(await res.json()).toEqual({ success: false, error: "Method not allowed" });
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
        last_error_at: null,
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
      const badId = await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: "abc", name: "A", url: "https://x.example.com/" },
      });
      expect(badId.status).toBe(400);
      const missing = await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: 999999, name: "A", url: "https://x.example.com/" },
      });
      expect(missing.status).toBe(404);
      const noId = await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: {} });
      expect(noId.status).toBe(400);
    });

    it("takes a feed id only as a whole number or a string of digits: no other spelling reaches a feed", async () => {
      const created = await req("/api/rss/feeds", {
        method: "POST",
        cookie: superAdmin,
        json: { name: "Spelled", url: "https://spelled.example.com/feed", category: "decor" },
      });
      const { feed } = await created.json();
      const spellings = [
        `0x${feed.id.toString(16)}`,
        `${feed.id}e0`,
        `0${feed.id}`,
        ` ${feed.id}`,
        [feed.id],
        true,
        feed.id + 0.5,
        -feed.id,
      ];
      for (const id of spellings) {
        const put = await req("/api/rss/feeds", {
          method: "PUT",
          cookie: superAdmin,
          json: { id, name: "Hijacked", url: "https://spelled.example.com/feed", category: "safety" },
        });
        expect(put.status, JSON.stringify(id)).toBe(400);
        expect((await put.json()).error).toBe("Feed id is required");
        const del = await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id } });
        expect(del.status, JSON.stringify(id)).toBe(400);
      }
      const hex = await req(`/api/rss/feeds?id=0x${feed.id.toString(16)}`, { method: "DELETE", cookie: superAdmin });
      expect(hex.status).toBe(400);
      const stored = (await server.services.feeds.listFeeds()).find((f) => f.id === feed.id);
      expect(stored).toMatchObject({ name: "Spelled", category: "decor" });
      const asText = await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id: String(feed.id) } });
      expect(asText.status).toBe(200);
    });

    it("answers 409 for a URL that is already a feed, on add and on edit", async () => {
      const body = { name: "Dup", url: "https://dup.example.com/feed", category: "news", is_active: true };
      expect((await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: body })).status).toBe(201);
      const dup = await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: { ...body, name: "Other" } });
      expect(dup.status).toBe(409);
      expect((await dup.json()).error).toBe(FEED_EXISTS);
      const other = await (
        await req("/api/rss/feeds", { method: "POST", cookie: superAdmin, json: { ...body, url: "https://dup2.example.com/feed" } })
      ).json();
      const clash = await req("/api/rss/feeds", { method: "PUT", cookie: superAdmin, json: { ...body, id: other.feed.id } });
      expect(clash.status).toBe(409);
    });

    it("moves a feed's articles along when its category changes, and deletes them with the feed", async () => {
      const { feed } = await (
        await req("/api/rss/feeds", {
          method: "POST",
          cookie: superAdmin,
          json: { name: "Mover", url: "https://mover.example.com/feed", category: "news" },
        })
      ).json();
      await addArticles(feed.id, "news", [{ title: "Moving day", published_at: "2024-02-01T00:00:00.000Z" }]);
      await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: feed.id, name: "Mover", url: feed.url, category: "insurance", is_active: true },
      });
      const page = await (await req("/api/rss/articles?category=insurance", { cookie: member })).json();
      expect(page.articles.map((a: { title: string }) => a.title)).toEqual(["Moving day"]);
      // The category counts (kept by database triggers) follow inserts, moves and cascading deletes.
      const count = (body: { categories: Array<{ value: string; count: number }> }, value: string) =>
        body.categories.find((c) => c.value === value)?.count ?? 0;
      expect(count(page, "insurance")).toBe(1);
      expect(count(page, "news")).toBe(0);
      await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id: feed.id } });
      const after = await (await req("/api/rss/articles?category=insurance", { cookie: member })).json();
      expect(after.articles).toEqual([]);
      expect(count(after, "insurance")).toBe(0);
      const { db } = server.services.database;
      const actual = await db
        .selectFrom("articles")
        .select(["category", (eb) => eb.fn.countAll().as("n")])
        .groupBy("category")
        .execute();
      const kept = await server.services.articles.repo.categoryCounts();
      expect(Object.fromEntries(kept.map((c) => [c.category, c.count]))).toEqual(
        Object.fromEntries(actual.map((r) => [r.category, Number(r.n)])),
      );
    });
  });

  describe("articles", () => {
    let feedId: number;
    beforeAll(async () => {
      const { feed } = await (
        await req("/api/rss/feeds", {
          method: "POST",
          cookie: superAdmin,
          json: { name: "Lister", url: "https://lister.example.com/feed", category: "decor" },
        })
      ).json();
      feedId = feed.id;
      const days = Array.from({ length: 23 }, (_, i) => ({
        title: `Decor ${String(i).padStart(2, "0")}`,
        published_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
      }));
      await addArticles(feedId, "decor", days);
      await addArticles(feedId, "green_design", [{ title: "Green one", published_at: "2024-02-15T00:00:00.000Z" }]);
      await addArticles(feedId, "home_remodeling", [{ title: "Remodel one", published_at: "2023-12-15T00:00:00.000Z" }]);
    });

    it("pages newest first with totals and the categories that have articles", async () => {
      const res = await req("/api/rss/articles?limit=10&page=2", { cookie: member });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const body = await res.json();
      expect(body.success).toBe(true);
      expect(body.pagination).toEqual({ page: 2, limit: 10, total: 25, totalPages: 3 });
      expect(body.articles.map((a: { title: string }) => a.title)).toEqual([
        "Decor 13",
        "Decor 12",
        "Decor 11",
        "Decor 10",
        "Decor 09",
        "Decor 08",
        "Decor 07",
        "Decor 06",
        "Decor 05",
        "Decor 04",
      ]);
      expect(body.categories).toEqual([
        { value: "home_remodeling", label: "Home Remodeling", count: 1 },
        { value: "decor", label: "Decor", count: 23 },
        { value: "green_design", label: "Green Design", count: 1 },
      ]);
      expect(Object.keys(body.articles[0]).sort()).toEqual(
        [
          "category",
          "content",
          "feedTitle",
          "id",
          "image_url",
          "link",
          "publishDate",
          "published_at",
          "source_name",
          "summary",
          "title",
        ].sort(),
      );
    });

    it("defaults to page 1 of 10, accepts pageSize (up to 1000) and filters by category", async () => {
      const first = await (await req("/api/rss/articles", { cookie: member })).json();
      expect(first.pagination).toEqual({ page: 1, limit: 10, total: 25, totalPages: 3 });
      expect(first.articles[0].title).toBe("Green one");
      const all = await (await req("/api/rss/articles?pageSize=1000", { cookie: member })).json();
      expect(all.articles).toHaveLength(25);
      expect(all.pagination).toEqual({ page: 1, limit: 1000, total: 25, totalPages: 1 });
      const green = await (await req("/api/rss/articles?category=green_design", { cookie: member })).json();
      expect(green.articles.map((a: { title: string }) => a.title)).toEqual(["Green one"]);
      expect(green.pagination.total).toBe(1);
      expect(green.categories).toHaveLength(3);
      const none = await (await req("/api/rss/articles?category=insurance", { cookie: member })).json();
      expect(none).toMatchObject({ articles: [], pagination: { total: 0, totalPages: 1 } });
      const beyond = await (await req("/api/rss/articles?page=99", { cookie: member })).json();
      expect(beyond).toMatchObject({ articles: [], pagination: { page: 99, total: 25 } });
      const blank = await req("/api/rss/articles?category=&page=", { cookie: member });
      expect(blank.status).toBe(200);
    });

    it("refuses a bad page, limit or category with 400", async () => {
      for (const [q, error] of [
        ["limit=0", "limit must be between 1 and 1000"],
        ["limit=1001", "limit must be between 1 and 1000"],
        ["pageSize=5000", "pageSize must be between 1 and 1000"],
        ["page=0", "page must be 1 or more"],
        ["page=abc", "page must be a whole number"],
        ["limit=2.5", "limit must be a whole number"],
        ["limit=0x10", "limit must be a whole number"],
        ["page=1e1", "page must be a whole number"],
        ["page=-1", "page must be a whole number"],
        ["category=gardening", "Unknown category"],
      ]) {
        const res = await req(`/api/rss/articles?${q}`, { cookie: member });
        expect(res.status, q).toBe(400);
        expect((await res.json()).error, q).toBe(error);
      }
    });

    it("exports a month as a plain-text digest grouped by category", async () => {
      const res = await req("/api/rss/export?month=2024-01", { cookie: superAdmin });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await res.text();
      expect(text).toMatch(/^American Homeowners Association Knowledge Center: January 2024\n/);
      expect(text).toContain("23 articles this month.");
      expect(text).toContain("Decor (23)");
      expect(text).not.toContain("Green one");
      expect(text.indexOf("Decor 22")).toBeLessThan(text.indexOf("Decor 00"));
      const empty = await (await req("/api/rss/export?month=1999-05", { cookie: superAdmin })).text();
      expect(empty).toContain("No articles were published in May 1999.");
      const current = await req("/api/rss/export", { cookie: superAdmin });
      expect(current.status).toBe(200);
      const bad = await req("/api/rss/export?month=2024-13", { cookie: superAdmin });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error).toBe("Month must be in YYYY-MM format");
    });

    it("exports months from 1970-01 to next month only (0001-01 is not 'January 1901')", async () => {
      const now = new Date();
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const afterNext = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
      const ym = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
      const range = `Month must be between 1970-01 and ${ym(next)}`;
      for (const month of ["0001-01", "0000-01", "1969-12", ym(afterNext), "9999-12"]) {
        const res = await req(`/api/rss/export?month=${month}`, { cookie: superAdmin });
        expect(res.status, month).toBe(400);
        expect((await res.json()).error, month).toBe(range);
      }
      for (const month of ["1970-01", ym(next)]) {
        const res = await req(`/api/rss/export?month=${month}`, { cookie: superAdmin });
        expect(res.status, month).toBe(200);
        expect(res.headers.get("content-disposition"), month).toContain(`knowledge-center-${month}.txt`);
      }
      expect(await (await req("/api/rss/export?month=1970-01", { cookie: superAdmin })).text()).toContain("January 1970");
    });

    it("featured articles: the newest article of each slot, with the spec's fields", async () => {
      const res = await req("/api/featured-articles");
      const body = await res.json();
      expect(body.success).toBe(true);
      expect(body.articles.map((a: { category: string }) => a.category)).toEqual(FEATURED_SLOTS.map((s) => s.key));
      const [improvement, decor, green] = body.articles;
      expect(improvement).toMatchObject({ title: "Remodel one", is_placeholder: false, is_error: false });
      expect(decor).toEqual({
        id: expect.any(Number),
        category: "decor",
        title: "Decor 22",
        excerpt: "Summary of Decor 22",
        image_url: null,
        external_url: "https://example.com/Decor%2022",
        published_at: "2024-01-23T00:00:00.000Z",
        is_placeholder: false,
        is_error: false,
      });
      expect(green).toMatchObject({ title: "Green one", external_url: "https://example.com/Green%20one" });
    });
  });

  describe("rows a feed change must not touch", () => {
    const db = () => server.services.database.db;
    const GUARDED = ["rss_feeds", "articles", "article_category_counts", "ingest_runs"] as const;
    let n = 0;

    /** A feed with two articles, beside two other feeds with articles in the same two categories. */
    async function feedWithNeighbours() {
      const k = ++n;
      const add = async (name: string, category: string) => {
        const res = await req("/api/rss/feeds", {
          method: "POST",
          cookie: superAdmin,
          json: { name, url: `https://guard-${k}-${name.toLowerCase()}.example.com/feed`, category },
        });
        const { feed } = (await res.json()) as { feed: { id: number; url: string } };
        return feed;
      };
      const target = await add("Target", "safety");
      const sameCategory = await add("Beside", "safety");
      const otherCategory = await add("Across", "energy_saving_tips");
      await addArticles(target.id, "safety", [
        { title: `Target one ${k}`, published_at: "2024-03-01T00:00:00.000Z" },
        { title: `Target two ${k}`, published_at: "2024-03-02T00:00:00.000Z" },
      ]);
      await addArticles(sameCategory.id, "safety", [{ title: `Beside one ${k}`, published_at: "2024-03-03T00:00:00.000Z" }]);
      await addArticles(otherCategory.id, "energy_saving_tips", [{ title: `Across one ${k}`, published_at: "2024-03-04T00:00:00.000Z" }]);
      const articleIds = (await db().selectFrom("articles").select("id").where("feed_id", "=", target.id).execute()).map((r) =>
        Number(r.id),
      );
      return { target, articleIds };
    }

    it("adding a feed adds one row and touches no other", async () => {
      await feedWithNeighbours();
      const guard = await guardRows(db(), GUARDED);
      const res = await req("/api/rss/feeds", {
        method: "POST",
        cookie: superAdmin,
        json: { name: "Guard Added", url: "https://guard-added.example.com/feed", category: "news" },
      });
      expect(res.status).toBe(201);
      await guard.expectChanges({ rss_feeds: { added: 1 } });
    });

    it("an edit in place rewrites that feed only and leaves every article alone", async () => {
      const { target } = await feedWithNeighbours();
      const guard = await guardRows(db(), GUARDED);
      const res = await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: target.id, name: "Target Renamed", url: target.url, category: "safety", is_active: false },
      });
      expect(res.status).toBe(200);
      await guard.expectChanges({ rss_feeds: { changed: [target.id], columns: ["is_active", "name", "updated_at"] } });
    });

    it("a category change moves that feed's articles only, and the two categories' counts", async () => {
      const { target, articleIds } = await feedWithNeighbours();
      const guard = await guardRows(db(), GUARDED);
      const res = await req("/api/rss/feeds", {
        method: "PUT",
        cookie: superAdmin,
        json: { id: target.id, name: "Target", url: target.url, category: "energy_saving_tips", is_active: true },
      });
      expect(res.status).toBe(200);
      const changes = await guard.expectChanges({
        rss_feeds: { changed: [target.id], columns: ["category", "updated_at"] },
        articles: { changed: articleIds, columns: ["category", "updated_at"] },
        article_category_counts: { changed: ["safety", "energy_saving_tips"], columns: ["n"] },
      });
      const counts = Object.fromEntries(
        changes.article_category_counts.changed.map((c) => [c.after.category, Number(c.after.n) - Number(c.before.n)]),
      );
      expect(counts).toEqual({ safety: -2, energy_saving_tips: 2 });
    });

    it("deleting a feed removes that feed and its own articles only", async () => {
      const { target, articleIds } = await feedWithNeighbours();
      const guard = await guardRows(db(), GUARDED);
      expect((await req("/api/rss/feeds", { method: "DELETE", cookie: superAdmin, json: { id: target.id } })).status).toBe(200);
      await guard.expectChanges({
        rss_feeds: { removed: [target.id] },
        articles: { removed: articleIds },
        article_category_counts: { changed: ["safety"], columns: ["n"] },
      });
    });

    it("refused feed changes touch nothing", async () => {
      const { target } = await feedWithNeighbours();
      const guard = await guardRows(db(), GUARDED);
      const attempts: Array<[string, unknown, number]> = [
        ["PUT", { id: 999999, name: "Nobody", url: "https://nobody.example.com/feed", category: "news" }, 404],
        ["PUT", { id: target.id, name: "", url: target.url }, 400],
        ["DELETE", { id: 999999 }, 404],
        ["DELETE", { id: `0x${target.id.toString(16)}` }, 400],
      ];
      for (const [method, json, status] of attempts) {
        expect((await req("/api/rss/feeds", { method, json, cookie: superAdmin })).status, JSON.stringify(json)).toBe(status);
      }
      await guard.expectChanges();
    });
  });
});

describeEachDatabase("featured articles with no articles", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it("answers a placeholder card per slot", async () => {
    const body = await (await server.request("/api/featured-articles")).json();
    expect(body.success).toBe(true);
    expect(body.articles).toHaveLength(3);
    for (const [i, item] of body.articles.entries()) {
      expect(item).toEqual({
        id: `placeholder-${FEATURED_SLOTS[i].key}`,
        category: FEATURED_SLOTS[i].key,
        title: expect.stringContaining(FEATURED_SLOTS[i].title),
        excerpt: expect.any(String),
        image_url: null,
        external_url: "#",
        published_at: null,
        is_placeholder: true,
        is_error: false,
      });
    }
  });
});

/** A small RSS document of the given items. */
const rss = (items: Array<{ guid: string; title: string }>) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Dynamic</title><link>https://dyn.example.com/</link>${items
    .map((i) => `<item><title>${i.title}</title><link>https://dyn.example.com/${i.guid}</link><guid>${i.guid}</guid></item>`)
    .join("")}</channel></rss>`;

describeEachDatabase("ingest API", (dialect) => {
  let server: TestServer;
  let feeds: FeedServer;
  let member: string;
  let superAdmin: string;

  beforeAll(async () => {
    server = await startTestServer(
      dialect,
      { INGEST_TOKEN, RSS_ALLOW_PRIVATE_HOSTS: "true" },
      { ingest: { ingest: { reuseWindowMs: 0 }, fetch: { timeoutMs: 2000 } } },
    );
    feeds = await startFeedServer();
    member = (await loginAs(server, "member")).cookie;
    superAdmin = (await loginAs(server, "super_admin")).cookie;
  });
  afterAll(async () => {
    await server.services.ingest.stop();
    await feeds.close();
    await server.close();
  });

  const ingest = (init: { cookie?: string; headers?: Record<string, string> } = {}) =>
    server.request("/api/rss/ingest", { method: "POST", json: {}, ...init });

  it("any signed-in user may refresh; the answer carries the counts", async () => {
    const add = await server.request("/api/rss/feeds", {
      method: "POST",
      cookie: superAdmin,
      json: { name: "WP", url: `${feeds.url}/feeds/wordpress.xml`, category: "home_improvement", is_active: true },
    });
    expect(add.status).toBe(201);
    const res = await ingest({ cookie: member });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, counts: { articles: 3, feeds: 1, failed: 0 } });
    expect(body.error).toBeUndefined();
    const again = await (await ingest({ cookie: member })).json();
    expect(again.counts).toEqual({ articles: 0, feeds: 1, failed: 0 });
  });

  it("a scheduler may call it with the bearer INGEST_TOKEN and no session; a wrong token is refused", async () => {
    const ok = await ingest({ headers: { Authorization: `Bearer ${INGEST_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).success).toBe(true);
    for (const header of [`Bearer ${INGEST_TOKEN}x`, "Bearer nope", `Basic ${INGEST_TOKEN}`, `Bearer`]) {
      const res = await ingest({ headers: { Authorization: header } });
      expect(res.status, header).toBe(401);
      expect((await res.json()).error, header).toBe(header.startsWith("Bearer ") ? INVALID_INGEST_TOKEN : "Authentication required");
    }
  });

  it("health lists failing feeds with their errors and the last run", async () => {
    await server.request("/api/rss/feeds", {
      method: "POST",
      cookie: superAdmin,
      json: { name: "Down", url: `${feeds.url}/status/500`, category: "news", is_active: true },
    });
    await server.request("/api/rss/feeds", {
      method: "POST",
      cookie: superAdmin,
      json: { name: "Off", url: `${feeds.url}/status/404`, category: "news", is_active: false },
    });
    const run = await (await ingest({ cookie: superAdmin })).json();
    expect(run).toMatchObject({ success: true, counts: { feeds: 2, failed: 1 } });
    expect(run.failures).toEqual([{ id: expect.any(Number), name: "Down", error: "HTTP 500 Internal Server Error" }]);
    const health = await (await server.request("/api/rss/health", { cookie: superAdmin })).json();
    expect(health).toEqual({
      success: true,
      feeds: { total: 3, active: 2, failing: 1 },
      failing: [
        {
          id: expect.any(Number),
          name: "Down",
          url: `${feeds.url}/status/500`,
          last_error: "HTTP 500 Internal Server Error",
          last_error_at: expect.any(String),
          last_ingested_at: null,
          consecutive_failures: 1,
          next_attempt_at: expect.any(String),
        },
      ],
      lastRun: {
        id: run.run.id,
        status: "success",
        reason: "manual",
        started_at: expect.any(String),
        finished_at: expect.any(String),
        counts: { articles: 0, updated: 0, feeds: 2, failed: 1, not_modified: 1, skipped: 0 },
        error: null,
      },
    });
  });

  it("feed health: a failing feed says when it failed and how often, backs off, and 'Retry now' fetches it at once", async () => {
    const db = server.services.database.db;
    const name = "Flaky";
    const created = await server.request("/api/rss/feeds", {
      method: "POST",
      cookie: superAdmin,
      json: { name, url: `${feeds.url}/dynamic/flaky.xml`, category: "news", is_active: true },
    });
    const feedId = (await created.json()).feed.id as number;
    const feedOf = async () =>
      ((await (await server.request("/api/rss/feeds", { cookie: superAdmin })).json()).feeds as Array<Record<string, unknown>>).find(
        (f) => f.id === feedId,
      )!;
    const retry = (id: unknown, cookie = superAdmin) => server.request("/api/rss/feeds/retry", { method: "POST", cookie, json: { id } });

    // Not there yet: the run records the failure, when, and a backoff.
    const before = Date.now();
    await ingest({ cookie: superAdmin });
    const failed = await feedOf();
    expect(failed).toMatchObject({ last_error: "HTTP 404 Not Found", consecutive_failures: 1, last_ingested_at: null });
    expect(Date.parse(failed.last_error_at as string)).toBeGreaterThanOrEqual(before - 1000);
    const firstBackoff = Date.parse(failed.next_attempt_at as string);
    expect(firstBackoff).toBeGreaterThan(Date.now());

    // Retry now, still failing: fetched despite the backoff, which doubles.
    const hits = feeds.hits("/dynamic/flaky.xml").length;
    const still = await retry(feedId);
    expect(still.status).toBe(200);
    const stillBody = await still.json();
    expect(stillBody).toMatchObject({
      success: true,
      outcome: { status: "failed", error: "HTTP 404 Not Found" },
      feed: { consecutive_failures: 2 },
    });
    expect(feeds.hits("/dynamic/flaky.xml")).toHaveLength(hits + 1);
    expect(Date.parse(stillBody.feed.next_attempt_at) - Date.now()).toBeGreaterThan(firstBackoff - before);

    // The feed is back: Retry now fetches it, and the feed is healthy again.
    feeds.setDynamic("flaky.xml", rss([{ guid: "flaky-1", title: "Back again" }]));
    const ok = await (await retry(String(feedId))).json();
    expect(ok).toMatchObject({
      success: true,
      outcome: { status: "ok", added: 1, items: 1 },
      feed: { last_error: null, last_error_at: null, consecutive_failures: 0, next_attempt_at: null },
    });
    expect(ok.feed.last_ingested_at).toEqual(expect.any(String));
    // The validators it sent back are stored and sent with the next fetch.
    const stored = await db.selectFrom("rss_feeds").select(["etag", "last_modified"]).where("id", "=", feedId).executeTakeFirstOrThrow();
    expect(stored.etag).toMatch(/^"/);
    expect(stored.last_modified).toEqual(expect.any(String));
    expect((await (await retry(feedId)).json()).outcome).toEqual({ status: "not-modified" });
    const conditional = feeds.hits("/dynamic/flaky.xml").at(-1)!;
    expect(conditional).toMatchObject({ ifNoneMatch: stored.etag, ifModifiedSince: stored.last_modified, status: 304 });

    // Each retry is in the audit log, with who, which feed and how it went.
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "target_type", "target_id", "target_label", "details"])
      .where("action", "=", "feeds.retry")
      .where("target_id", "=", feedId)
      .orderBy("id")
      .execute();
    expect(audit.map((a) => [a.target_type, a.target_label, JSON.parse(a.details ?? "{}").status])).toEqual([
      ["feed", name, "failed"],
      ["feed", name, "ok"],
      ["feed", name, "not-modified"],
    ]);

    // Who may, and what: super_admin only; a known, enabled feed.
    expect((await retry(feedId, member)).status).toBe(403);
    expect((await server.request("/api/rss/feeds/retry", { method: "POST", json: { id: feedId } })).status).toBe(401);
    for (const bad of [undefined, "abc", -1, 1.5, null]) expect((await retry(bad)).status, String(bad)).toBe(400);
    const missing = await retry(999_999);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("Feed not found");
    await server.request("/api/rss/feeds", {
      method: "PUT",
      cookie: superAdmin,
      json: { id: feedId, name, url: `${feeds.url}/dynamic/flaky.xml`, category: "news", is_active: false },
    });
    const disabled = await retry(feedId);
    expect(disabled.status).toBe(409);
    expect((await disabled.json()).error).toBe(FEED_INACTIVE);
    expect((await server.request("/api/rss/feeds/retry", { method: "GET", cookie: superAdmin })).status).toBe(405);
  });

  it("a super_admin's ingest and the scheduler's always run; only a member's Refresh is coalesced, and says so", async () => {
    // An instance on the same database whose ingest keeps the default reuse window of a minute.
    const windowed = await startSiblingServer(server, { ingest: { ingest: { reuseWindowMs: 60_000 }, fetch: { timeoutMs: 2000 } } });
    const ingest = (init: Parameters<TestServer["request"]>[1] = {}) =>
      windowed.request("/api/rss/ingest", { method: "POST", json: {}, ...init });
    try {
      const first = await (await ingest({ cookie: superAdmin })).json();
      expect(first.run.reused).toBe(false);

      // A feed added and ingested within the minute is fetched, and the counts are the new run's.
      const add = await server.request("/api/rss/feeds", {
        method: "POST",
        cookie: superAdmin,
        json: { name: "Blog", url: `${feeds.url}/feeds/blogger.xml`, category: "decor", is_active: true },
      });
      expect(add.status).toBe(201);
      const second = await (await ingest({ cookie: superAdmin })).json();
      expect(second.run).toMatchObject({ reused: false, reason: "manual" });
      expect(second.run.id).not.toBe(first.run.id);
      expect(second.coalesced).toBeUndefined();
      expect(second.counts.articles).toBeGreaterThan(0);
      expect(feeds.hits("/feeds/blogger.xml")).toHaveLength(1);

      // A member's (or limited_admin's) Refresh within the minute gets that run's answer, marked as such.
      for (const cookie of [member, (await loginAs(server, "limited_admin")).cookie]) {
        const coalesced = await (await ingest({ cookie })).json();
        expect(coalesced).toMatchObject({ success: true, coalesced: true, counts: second.counts });
        expect(coalesced.run).toMatchObject({ id: second.run.id, reused: true });
      }
      expect(feeds.hits("/feeds/blogger.xml")).toHaveLength(1);

      // The scheduler's bearer-token call runs anew as well.
      const scheduled = await (await ingest({ headers: { Authorization: `Bearer ${INGEST_TOKEN}` } })).json();
      expect(scheduled.run).toMatchObject({ reused: false, reason: "token" });
      expect(scheduled.run.id).toBeGreaterThan(second.run.id);
      expect(scheduled.coalesced).toBeUndefined();
      expect(feeds.hits("/feeds/blogger.xml")).toHaveLength(2);
    } finally {
      await windowed.services.ingest.stop();
      await windowed.close();
    }
  });

  it("while another server holds the ingest, answers 202 at once with its run, which the status call follows", async () => {
    const db = server.services.database.db;
    const now = new Date().toISOString();
    const run = await db
      .insertInto("ingest_runs")
      .values({ started_at: now, status: "running", reason: "schedule" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const runId = Number(run.id);
    await db
      .updateTable("leases")
      .where("name", "=", "rss_ingest")
      .set({ holder: "other-server/1/x", run_id: runId, expires_at: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    try {
      for (const init of [{ cookie: member }, { cookie: superAdmin }, { headers: { Authorization: `Bearer ${INGEST_TOKEN}` } }]) {
        const res = await ingest(init);
        expect(res.status).toBe(202);
        expect(await res.json()).toMatchObject({
          success: true,
          inProgress: true,
          run: { id: runId, status: "running", reason: "schedule" },
        });
      }
      const following = await server.request(`/api/rss/ingest/status?run=${runId}`, { cookie: member });
      expect(following.status).toBe(202);
      expect(following.headers.get("cache-control")).toContain("no-store");
      expect(await following.json()).toMatchObject({ inProgress: true, run: { id: runId } });

      await db
        .updateTable("ingest_runs")
        .set({ status: "success", finished_at: new Date().toISOString(), articles_added: 7, feeds_total: 2 })
        .where("id", "=", runId)
        .execute();
      await db.updateTable("leases").where("name", "=", "rss_ingest").set({ holder: null, expires_at: null }).execute();
      const done = await server.request(`/api/rss/ingest/status?run=${runId}`, { cookie: member });
      expect(done.status).toBe(200);
      const body = await done.json();
      expect(body).toMatchObject({ success: true, counts: { articles: 7, feeds: 2, failed: 0 }, run: { id: runId, status: "success" } });
      expect(body.inProgress).toBeUndefined();
    } finally {
      await db.updateTable("leases").where("name", "=", "rss_ingest").set({ holder: null, expires_at: null }).execute();
    }
  });

  it("the status call checks who calls and what it is asked", async () => {
    expect((await server.request("/api/rss/ingest/status")).status).toBe(401);
    const byToken = await server.request("/api/rss/ingest/status", { headers: { Authorization: `Bearer ${INGEST_TOKEN}` } });
    expect(byToken.status).toBe(200);
    for (const bad of ["abc", "0", "-1", "1e3", "0x10", "1.5"]) {
      const res = await server.request(`/api/rss/ingest/status?run=${bad}`, { cookie: member });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
    const unknown = await server.request("/api/rss/ingest/status?run=999999999", { cookie: member });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe(NO_INGEST_RUN);
  });
});

describeEachDatabase("ingest API without INGEST_TOKEN", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it("refuses every bearer token when none is configured", async () => {
    const res = await server.request("/api/rss/ingest", {
      method: "POST",
      json: {},
      headers: { Authorization: "Bearer anything-at-all-here" },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe(INVALID_INGEST_TOKEN);
  });
});
