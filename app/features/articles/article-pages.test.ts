import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import { expectArticleDaysInStep } from "../../../tests/support/list-index";
import { INSERT_CHUNK, LOOKUP_CHUNK, type PreparedArticle } from "./articles-repo.server";

/*
 * The knowledge center's pages start from their day (migration 0012, decision 008): every
 * page, of every category and of all, at several page sizes, is exactly the page an offset
 * over the whole ordered list gives, ties in published_at included, and the day counts
 * follow every write the ingest and the feed admin make.
 */
describeEachDatabase("knowledge center pages", (dialect) => {
  let ctx: TestContext;
  const feedIds: number[] = [];
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    for (const [i, category] of ["decor", "news", "general"].entries()) {
      const feed = await ctx.services.feeds.createFeed({
        name: `Feed ${i}`,
        url: `https://feed${i}.example.com/rss`,
        category,
        is_active: false,
      });
      feedIds.push(feed.id);
      await ctx.services.articles.repo.saveFeedItems(feed.id, category, items(i, 90), "2024-04-01T00:00:00.000Z");
    }
  });
  afterAll(() => ctx.close());

  const db = () => ctx.services.database.db;
  const repo = () => ctx.services.articles.repo;

  /** Articles over a new year and two months, some days empty, several at the same instant. */
  function items(feed: number, n: number, version = "a"): PreparedArticle[] {
    const days = ["2023-12-30", "2023-12-31", "2024-01-01", "2024-01-02", "2024-01-05", "2024-02-29", "2024-03-01", "2024-03-02"];
    const hours = ["08", "12", "12", "23"];
    return Array.from({ length: n }, (_, k) => ({
      dedupe_key: `f${feed}-${k}`,
      guid: `f${feed}-${k}`,
      link: `https://feed${feed}.example.com/${k}`,
      title: `Article ${feed}/${k}`,
      summary: null,
      content: null,
      image_url: null,
      published_at: `${days[(k * 7 + feed) % days.length]}T${hours[k % hours.length]}:00:00.000Z`,
      source_name: `Feed ${feed}`,
      content_hash: `${version}${k}`,
    }));
  }

  /** The page as a plain offset over the whole list gives it. */
  function offsetPage(offset: number, limit: number, category?: string) {
    let q = db().selectFrom("articles").select(["id", "published_at", "category"]);
    if (category) q = q.where("category", "=", category);
    return q.orderBy("published_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute();
  }

  async function expectEveryPageAsOffset() {
    const total = Number((await db().selectFrom("articles").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    for (const category of [undefined, "decor", "news", "general", "insurance"]) {
      for (const limit of [1, 7, 10, 1000]) {
        for (let offset = 0; offset <= total + limit; offset += limit) {
          const page = (await repo().page({ offset, limit, category })).map((r) => ({
            id: r.id,
            published_at: r.published_at,
            category: r.category,
          }));
          expect(page, `${category ?? "all"} offset ${offset} limit ${limit}`).toEqual(await offsetPage(offset, limit, category));
        }
      }
    }
  }

  it("gives every page of every category exactly as an offset over the ordered articles would", async () => {
    await expectArticleDaysInStep(db());
    await expectEveryPageAsOffset();
  });

  it("stores a feed of more items than one statement inserts or looks up, once, and updates only the changed", async () => {
    const n = 2 * Math.max(INSERT_CHUNK, LOOKUP_CHUNK) + 7;
    const feed = await ctx.services.feeds.createFeed({
      name: "Big",
      url: "https://big.example.com/rss",
      category: "news",
      is_active: false,
    });
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom("articles")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("feed_id", "=", feed.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await repo().saveFeedItems(feed.id, "news", items(9, n), "2024-04-01T00:00:00.000Z")).toEqual({ added: n, updated: 0 });
    expect(await count()).toBe(n);
    expect(await repo().saveFeedItems(feed.id, "news", items(9, n), "2024-04-02T00:00:00.000Z")).toEqual({ added: 0, updated: 0 });
    const changed = items(9, n).map((it, k) => (k % 100 === 99 ? { ...it, content_hash: `b${k}` } : it));
    expect(await repo().saveFeedItems(feed.id, "news", changed, "2024-04-03T00:00:00.000Z")).toEqual({ added: 0, updated: 10 });
    expect(await count()).toBe(n);
    await expectArticleDaysInStep(db());
    await ctx.services.feeds.deleteFeed(feed.id);
  });

  it("keeps the day counts in step with new, changed, moved and deleted articles", async () => {
    // A re-ingest that changes some items (and the day of some) and adds new ones.
    const changed = items(0, 120, "b").map((it, k) => (k % 3 ? it : { ...it, published_at: `2024-03-0${1 + (k % 9)}T06:00:00.000Z` }));
    expect(await repo().saveFeedItems(feedIds[0], "decor", changed, "2024-04-02T00:00:00.000Z")).toEqual({ added: 30, updated: 90 });
    await expectArticleDaysInStep(db());
    // A feed moved to another category takes its articles along.
    await ctx.services.feeds.updateFeed({
      id: feedIds[1],
      name: "Feed 1",
      url: "https://feed1.example.com/rss",
      category: "insurance",
      is_active: false,
    });
    await expectArticleDaysInStep(db());
    // A deleted feed's articles go with it.
    await ctx.services.feeds.deleteFeed(feedIds[2]);
    await expectArticleDaysInStep(db());
    await db().deleteFrom("articles").where("published_at", "<", "2024-01-01").execute();
    await expectArticleDaysInStep(db());
    await expectEveryPageAsOffset();
  });
});
