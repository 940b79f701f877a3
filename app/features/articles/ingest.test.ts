import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FIXTURES_DIR, startFeedServer, type FeedServer } from "../../../tests/support/feed-server";
import { guardRows } from "../../../tests/support/row-guard";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";
import { createLogger } from "~/platform/logger.server";
import type { ArticleCategory } from "~/domain/article-categories";
import { DEFAULT_FEEDS } from "./default-feeds";
import { backoffUntil, DEFAULT_INGEST_SETTINGS, RSS_REFRESH_FAILED } from "./ingest.server";
import { INTERRUPTED_RUN } from "./ingest-runs-repo.server";
import type { ArticleQueries } from "./article-queries.server";
import type { FeedAdmin } from "./feeds.server";
import { FeedsRepo } from "./feeds-repo.server";
import { IngestService, type IngestServiceOptions } from "./ingest-service.server";

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name), "utf8");

function rss(items: Array<{ guid: string; title: string; date?: string; body?: string }>) {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Dynamic Feed</title><link>https://dyn.example.com/</link>
  ${items
    .map(
      (i) => `<item><title>${i.title}</title><link>https://dyn.example.com/${i.guid}</link><guid>${i.guid}</guid>
      <description>${i.body ?? `About ${i.title}`}</description><pubDate>${i.date ?? "Mon, 04 Mar 2024 10:00:00 GMT"}</pubDate></item>`,
    )
    .join("")}</channel></rss>`;
}

describeEachDatabase("RSS ingest", (dialect) => {
  let ctx: TestContext;
  let feeds: FeedServer;
  let articles: ArticleQueries;
  let feedAdmin: FeedAdmin;
  let ingest: IngestService | undefined;

  /** A fresh ingest service on the test database: a fetch limit a loaded machine stays inside, no reuse window unless a test says otherwise. */
  function newIngest(opts: Pick<IngestServiceOptions, "fetch" | "ingest"> = {}) {
    return new IngestService(ctx.services.database.db, createLogger("silent"), {
      intervalMinutes: 0,
      fetch: { allowPrivateHosts: true, timeoutMs: 10_000, maxBytes: 1024 * 1024, ...opts.fetch },
      ingest: { reuseWindowMs: 0, backoffBaseMs: 60_000, ...opts.ingest },
    });
  }
  async function useIngest(opts: Pick<IngestServiceOptions, "fetch" | "ingest"> = {}) {
    await ingest?.stop();
    ingest = newIngest(opts);
    return ingest;
  }

  beforeAll(async () => {
    ctx = await createTestContext(dialect, { RSS_ALLOW_PRIVATE_HOSTS: "true" });
    feeds = await startFeedServer();
    articles = ctx.services.articles;
    feedAdmin = ctx.services.feeds;
  });
  afterAll(async () => {
    await ingest?.stop();
    await feeds.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await useIngest();
    await ctx.services.database.db.deleteFrom("rss_feeds").execute();
    feeds.requests.length = 0;
  });

  async function addFeed(pathname: string, opts: { category?: ArticleCategory; active?: boolean; name?: string } = {}) {
    const feed = await feedAdmin.createFeed({
      name: opts.name ?? pathname,
      url: `${feeds.url}${pathname}`,
      category: opts.category ?? "home_improvement",
      is_active: opts.active ?? true,
    });
    return feed;
  }
  const feedRow = async (id: number) => (await feedAdmin.listFeeds()).find((f) => f.id === id)!;
  const countArticles = async () => (await articles.listArticles({ limit: 1 })).pagination.total;

  it("ingests every active feed, counts new articles, skips inactive feeds and records the run", async () => {
    const wp = await addFeed("/feeds/wordpress.xml", { category: "maintenance_repair" });
    await addFeed("/feeds/blogger.xml", { category: "decor" });
    await addFeed("/feeds/medium.xml", { active: false });

    const result = await ingest!.ingestAll({ reason: "manual" });
    expect(result).toMatchObject({ success: true, counts: { articles: 5, feeds: 2, failed: 0 } });
    expect(result.error).toBeUndefined();
    expect(result.run).toMatchObject({ status: "success", reason: "manual", reused: false, updated: 0, not_modified: 0, skipped: 0 });
    expect(feeds.hits("/feeds/medium.xml")).toEqual([]);

    const page = await articles.listArticles({ limit: 10 });
    expect(page.pagination).toEqual({ page: 1, limit: 10, total: 5, totalPages: 1 });
    expect(page.categories).toEqual([
      { value: "decor", label: "Decor", count: 2 },
      { value: "maintenance_repair", label: "Maintenance and Repair", count: 3 },
    ]);
    expect(page.articles[0]).toEqual({
      id: expect.any(Number),
      title: "How to Re-Caulk a Bathtub Like a Pro",
      summary: expect.stringMatching(/^Old caulk/),
      content: expect.stringContaining("<figure>"),
      link: "https://handyhome.example.com/re-caulk-bathtub/",
      category: "maintenance_repair",
      image_url: "https://handyhome.example.com/wp-content/uploads/2024/03/caulk-1024x683.jpg",
      published_at: "2024-03-05T14:00:00.000Z",
      publishDate: "2024-03-05T14:00:00.000Z",
      source_name: "Handy Home Journal",
      feedTitle: "Handy Home Journal",
      guid: "https://handyhome.example.com/?p=4211",
    });
    expect(page.articles.map((a) => a.published_at)).toEqual([...page.articles.map((a) => a.published_at)].sort().reverse());

    const row = await feedRow(wp.id);
    expect(row.last_ingested_at).not.toBeNull();
    expect(row).toMatchObject({ last_error: null, consecutive_failures: 0, next_attempt_at: null });

    const run = await ctx.services.database.db
      .selectFrom("ingest_runs")
      .selectAll()
      .where("id", "=", result.run.id!)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ status: "success", reason: "manual", articles_added: 5, feeds_total: 2, feeds_failed: 0, error: null });
    expect(run.finished_at).not.toBeNull();
  });

  it("re-ingesting adds nothing: a 304 costs nothing, and an unchanged body writes nothing", async () => {
    await addFeed("/feeds/youtube.xml");
    await addFeed("/plain/podcast.xml");
    expect((await ingest!.ingestAll()).counts.articles).toBe(4);

    const again = await ingest!.ingestAll();
    expect(again.counts).toEqual({ articles: 0, feeds: 2, failed: 0 });
    expect(again.run).toMatchObject({ updated: 0, not_modified: 1 });
    const conditional = feeds.hits("/feeds/youtube.xml");
    expect(conditional.map((r) => r.status)).toEqual([200, 304]);
    expect(conditional[1].ifNoneMatch).toMatch(/^"/);
    expect(feeds.hits("/plain/podcast.xml").map((r) => r.status)).toEqual([200, 200]);
    expect(await countArticles()).toBe(4);
  });

  it("an updated item updates its row in place; counts.articles counts only new ones", async () => {
    feeds.setDynamic(
      "update.xml",
      rss([
        { guid: "a", title: "First title" },
        { guid: "b", title: "Second" },
      ]),
    );
    await addFeed("/dynamic/update.xml", { category: "safety" });
    await ingest!.ingestAll();
    const before = (await articles.listArticles({ limit: 10 })).articles;

    feeds.setDynamic(
      "update.xml",
      rss([
        { guid: "a", title: "First title, corrected", body: "Now with more detail" },
        { guid: "b", title: "Second" },
        { guid: "c", title: "Third", date: "Tue, 05 Mar 2024 10:00:00 GMT" },
      ]),
    );
    const result = await ingest!.ingestAll();
    expect(result.counts.articles).toBe(1);
    expect(result.run.updated).toBe(1);
    const after = (await articles.listArticles({ limit: 10 })).articles;
    expect(after).toHaveLength(3);
    const a = after.find((x) => x.guid === "a")!;
    expect(a.id).toBe(before.find((x) => x.guid === "a")!.id);
    expect(a).toMatchObject({ title: "First title, corrected", summary: "Now with more detail" });
  });

  it("keeps the first-seen time for an undated item across re-ingests", async () => {
    feeds.setDynamic(
      "undated.xml",
      `<rss version="2.0"><channel><title>U</title><item><title>No date</title><link>https://u.example.com/1</link></item></channel></rss>`,
    );
    await addFeed("/dynamic/undated.xml");
    await ingest!.ingestAll();
    const first = (await articles.listArticles()).articles[0].published_at;
    feeds.setDynamic(
      "undated.xml",
      `<rss version="2.0"><channel><title>U</title><item><title>No date (edited)</title><link>https://u.example.com/1</link></item></channel></rss>`,
    );
    await ingest!.ingestAll();
    const [item] = (await articles.listArticles()).articles;
    expect(item.title).toBe("No date (edited)");
    expect(item.published_at).toBe(first);
  });

  it("a failing feed never stops the others; each failure is stored with a clear message", async () => {
    // A limit a loaded machine's five redirects stay well inside (400 ms did not), and an answer far past it.
    await useIngest({ fetch: { timeoutMs: 5000, maxBytes: 256 * 1024 } });
    const good = await addFeed("/feeds/rss1-rdf.xml", { category: "housing_mortgage_trends" });
    const bad = {
      status: await addFeed("/status/500"),
      broken: await addFeed("/feeds/broken.xml"),
      loop: await addFeed("/loop"),
      slow: await addFeed("/slow?ms=120000"),
      huge: await addFeed("/huge?bytes=1000000"),
      page: await addFeed("/feeds/not-a-feed.html"),
      missing: await addFeed("/feeds/no-such-file.xml"),
    };
    const result = await ingest!.ingestAll();
    expect(result).toMatchObject({ success: true, counts: { articles: 2, feeds: 8, failed: 7 } });
    expect(result.failures).toHaveLength(7);
    const expected: Record<keyof typeof bad, string> = {
      status: "HTTP 500 Internal Server Error",
      broken: "The feed is not well-formed XML",
      loop: "Too many redirects (more than 5)",
      slow: "Timed out after 5 s",
      huge: "Feed is larger than 256 KB",
      page: "The URL returned a web page, not a feed",
      missing: "HTTP 404 Not Found",
    };
    for (const [key, feed] of Object.entries(bad) as Array<[keyof typeof bad, { id: number }]>) {
      const row = await feedRow(feed.id);
      expect(row.last_error, key).toBe(expected[key]);
      expect(row.consecutive_failures, key).toBe(1);
      expect(row.next_attempt_at, key).not.toBeNull();
      expect(row.last_ingested_at, key).toBeNull();
    }
    expect((await feedRow(good.id)).last_error).toBeNull();
    expect(await countArticles()).toBe(2);
  });

  it("backs off a failing feed, then retries it; a success clears the failure", async () => {
    feeds.setDynamic("flaky.xml", "<html>oops</html>", "text/html");
    const flaky = await addFeed("/dynamic/flaky.xml");
    await addFeed("/feeds/bom.xml");

    await ingest!.ingestAll();
    const failed = await feedRow(flaky.id);
    expect(failed.consecutive_failures).toBe(1);
    expect(Date.parse(failed.next_attempt_at!)).toBeGreaterThan(Date.now() + 50_000);

    const skipped = await ingest!.ingestAll();
    expect(skipped.counts).toEqual({ articles: 0, feeds: 1, failed: 0 });
    expect(skipped.run.skipped).toBe(1);
    expect(feeds.hits("/dynamic/flaky.xml")).toHaveLength(1);

    // Time passes: the feed is due again, fails again, and waits twice as long.
    await ctx.services.database.db
      .updateTable("rss_feeds")
      .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", flaky.id)
      .execute();
    await ingest!.ingestAll();
    const twice = await feedRow(flaky.id);
    expect(twice.consecutive_failures).toBe(2);
    expect(Date.parse(twice.next_attempt_at!)).toBeGreaterThan(Date.now() + 110_000);

    // Fixed: an admin edit clears the wait, the next ingest reads it and resets the failure count.
    feeds.setDynamic("flaky.xml", rss([{ guid: "ok", title: "Back online" }]));
    await feedAdmin.updateFeed({
      id: flaky.id,
      name: "flaky",
      url: `${feeds.url}/dynamic/flaky.xml`,
      category: "home_improvement",
      is_active: true,
    });
    const healed = await ingest!.ingestAll();
    expect(healed.counts.articles).toBe(1);
    expect(await feedRow(flaky.id)).toMatchObject({ consecutive_failures: 0, last_error: null, next_attempt_at: null });
  });

  it("when every active feed waits to retry after failures, a run fetches none and says when the first is tried again", async () => {
    feeds.setDynamic("down-a.xml", "<html>oops</html>", "text/html");
    feeds.setDynamic("down-b.xml", "<html>oops</html>", "text/html");
    const a = await addFeed("/dynamic/down-a.xml");
    const b = await addFeed("/dynamic/down-b.xml");
    await addFeed("/feeds/bom.xml", { active: false });
    expect((await ingest!.ingestAll()).counts).toEqual({ articles: 0, feeds: 2, failed: 2 });
    const later = new Date(Date.now() + 3 * 60_000).toISOString();
    const sooner = new Date(Date.now() + 2 * 60_000).toISOString();
    const db = ctx.services.database.db;
    await db.updateTable("rss_feeds").set({ next_attempt_at: later }).where("id", "=", a.id).execute();
    await db.updateTable("rss_feeds").set({ next_attempt_at: sooner }).where("id", "=", b.id).execute();

    const result = await ingest!.ingestAll();
    expect(result).toMatchObject({
      success: true,
      counts: { articles: 0, feeds: 0, failed: 0 },
      run: { skipped: 2 },
      nextAttemptAt: sooner,
    });
    expect(feeds.hits("/dynamic/down-a.xml")).toHaveLength(1);
    // Following the run (another server's caller) says the same.
    expect(await ingest!.status(result.run.id)).toMatchObject({ run: { skipped: 2 }, nextAttemptAt: sooner });

    // A run that fetched a feed has no such time, even with others waiting.
    await db.updateTable("rss_feeds").set({ next_attempt_at: null }).where("id", "=", a.id).execute();
    const one = await ingest!.ingestAll();
    expect(one).toMatchObject({ counts: { feeds: 1 }, run: { skipped: 1 } });
    expect(one.nextAttemptAt).toBeUndefined();
  });

  it("answers 'RSS refresh failed' when every feed failed", async () => {
    await addFeed("/status/503");
    const result = await ingest!.ingestAll();
    expect(result).toMatchObject({ success: false, error: RSS_REFRESH_FAILED, counts: { articles: 0, feeds: 1, failed: 1 } });
    const health = await feedAdmin.health();
    expect(health.lastRun).toMatchObject({ status: "failed", error: "Every feed failed" });
  });

  it("fetches at most 4 feeds at a time", async () => {
    for (let i = 0; i < 10; i++) await addFeed(`/slow?ms=150&n=${i}`);
    feeds.maxInFlight = 0;
    const result = await ingest!.ingestAll();
    expect(result.counts).toEqual({ articles: 30, feeds: 10, failed: 0 });
    expect(feeds.hits("/slow")).toHaveLength(10);
    expect(feeds.maxInFlight).toBe(4);
  });

  it("concurrent calls in one process share one run", async () => {
    await addFeed("/slow?ms=200");
    await addFeed("/feeds/feedburner.xml");
    const results = await Promise.all([ingest!.ingestAll(), ingest!.ingestAll(), ingest!.ingestAll()]);
    expect(new Set(results.map((r) => r.run.id)).size).toBe(1);
    expect(results.map((r) => r.run.reused)).toEqual([false, true, true]);
    expect(results.every((r) => r.counts.articles === 5)).toBe(true);
    expect(feeds.hits("/slow")).toHaveLength(1);
  });

  it("another instance is answered at once that the run is in progress, and follows it to its result", async () => {
    await addFeed("/slow?ms=400");
    const other = newIngest();
    try {
      const first = ingest!.ingestAll();
      const db = ctx.services.database.db;
      // Wait until the holder has named its run in the lease.
      await expect
        .poll(async () => {
          const lease = await db.selectFrom("leases").where("name", "=", "rss_ingest").selectAll().executeTakeFirstOrThrow();
          return lease.holder !== null && lease.run_id !== null;
        })
        .toBe(true);
      const second = await other.ingestAll();
      expect(second).toMatchObject({ success: true, inProgress: true, run: { status: "running", reused: true, finished_at: null } });
      expect(await other.status(second.run.id)).toMatchObject({ inProgress: true, run: { id: second.run.id } });
      expect(await other.status(null)).toMatchObject({ inProgress: true, run: { id: second.run.id } });
      const firstResult = await first;
      expect(second.run.id).toBe(firstResult.run.id);
      const followed = await other.status(second.run.id);
      expect(followed?.inProgress).toBeUndefined();
      expect(followed).toMatchObject({ success: true, counts: firstResult.counts, run: { id: firstResult.run.id, status: "success" } });
      expect(feeds.hits("/slow")).toHaveLength(1);
      const released = await db.selectFrom("leases").where("name", "=", "rss_ingest").selectAll().executeTakeFirstOrThrow();
      expect(released.holder).toBeNull();
      expect(await other.status(null)).toMatchObject({ run: { id: firstResult.run.id, status: "success" } });
      expect(await other.status(firstResult.run.id! + 1000)).toBeNull();
    } finally {
      await other.stop();
    }
  });

  it("a caller never waits on a lease held by another process, even one that died; the run it left is reported interrupted", async () => {
    await addFeed("/feeds/bom.xml");
    const db = ctx.services.database.db;
    const now = new Date().toISOString();
    const run = await db
      .insertInto("ingest_runs")
      .values({ started_at: now, status: "running", reason: "other" })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Another machine's process holds the lease for a minute and names its run; then it dies.
    await db
      .updateTable("leases")
      .where("name", "=", "rss_ingest")
      .set({ holder: "elsewhere/1/x", run_id: run.id, expires_at: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    const other = newIngest();
    try {
      const answer = await other.ingestAll();
      expect(answer).toMatchObject({ inProgress: true, run: { id: Number(run.id), status: "running" } });
      expect(feeds.hits("/feeds/bom.xml")).toHaveLength(0);
      // The lease runs out without being renewed: a follower is told the run was interrupted.
      await db
        .updateTable("leases")
        .where("name", "=", "rss_ingest")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      expect(await other.status(Number(run.id))).toMatchObject({
        success: false,
        error: RSS_REFRESH_FAILED,
        run: { id: Number(run.id), status: "interrupted" },
      });
      // The next ingest takes the lease, marks the run interrupted and runs.
      const next = await other.ingestAll();
      expect(next).toMatchObject({ success: true, run: { reused: false } });
      expect(feeds.hits("/feeds/bom.xml")).toHaveLength(1);
      const left = await db.selectFrom("ingest_runs").select("status").where("id", "=", run.id).executeTakeFirstOrThrow();
      expect(left.status).toBe("interrupted");
    } finally {
      await other.stop();
    }
  });

  it("a caller that finds the lease taken before its holder named the run is told a run is in progress, and follows the lease", async () => {
    await addFeed("/feeds/bom.xml");
    const db = ctx.services.database.db;
    await db
      .updateTable("leases")
      .where("name", "=", "rss_ingest")
      .set({ holder: "other-instance", run_id: null, expires_at: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    const other = newIngest();
    try {
      const answer = await other.ingestAll();
      expect(answer).toMatchObject({ inProgress: true, run: { id: null, status: "running" } });
      // Its run starts and finishes, and it lets go of the lease.
      const now = new Date().toISOString();
      const run = await db
        .insertInto("ingest_runs")
        .values({ started_at: now, finished_at: now, status: "success", reason: "other", articles_added: 4, feeds_total: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.updateTable("leases").where("name", "=", "rss_ingest").set({ holder: null, run_id: null, expires_at: null }).execute();
      expect(await other.status(null)).toMatchObject({ success: true, counts: { articles: 4 }, run: { id: Number(run.id) } });
      expect(feeds.hits("/feeds/bom.xml")).toHaveLength(0);
    } finally {
      await other.stop();
    }
  });

  it("a run left running by a dead process is marked interrupted at start and by the next run; a live one is not", async () => {
    await addFeed("/feeds/bom.xml");
    const db = ctx.services.database.db;
    const now = new Date().toISOString();
    const orphan = await db
      .insertInto("ingest_runs")
      .values({ started_at: now, status: "running", reason: "killed" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const live = await db
      .insertInto("ingest_runs")
      .values({ started_at: now, status: "running", reason: "elsewhere" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("leases")
      .where("name", "=", "rss_ingest")
      .set({ holder: "live-instance", run_id: live.id, expires_at: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    const statusOf = async (id: number) =>
      await db.selectFrom("ingest_runs").select(["status", "error"]).where("id", "=", id).executeTakeFirstOrThrow();
    const restarted = newIngest();
    try {
      await restarted.start();
      expect(await statusOf(orphan.id)).toEqual({ status: "interrupted", error: INTERRUPTED_RUN });
      expect((await statusOf(live.id)).status).toBe("running");
      // The live instance dies too: its lease runs out, and the next run marks its run.
      await db
        .updateTable("leases")
        .where("name", "=", "rss_ingest")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const next = await restarted.ingestAll();
      expect(next.success).toBe(true);
      expect((await statusOf(live.id)).status).toBe("interrupted");
      expect((await statusOf(next.run.id!)).status).toBe("success");
    } finally {
      await restarted.stop();
    }
  });

  it("a lease is short and renewed while its run lives, so a holder that died is noticed within seconds", () => {
    expect(DEFAULT_INGEST_SETTINGS.leaseTtlMs).toBeLessThanOrEqual(30_000);
  });

  it("stopping (shutdown) aborts the run in flight without holding it against the feed", async () => {
    const feed = await addFeed("/slow?ms=3000");
    const other = newIngest();
    const running = other.ingestAll();
    await new Promise((r) => setTimeout(r, 100));
    await other.stop();
    const result = await running;
    expect(result.counts).toEqual({ articles: 0, feeds: 1, failed: 1 });
    expect(await feedRow(feed.id)).toMatchObject({ consecutive_failures: 0, last_error: null, next_attempt_at: null });
    expect((await other.ingestAll()).success).toBe(false);
    expect(
      (await ctx.services.database.db.selectFrom("leases").where("name", "=", "rss_ingest").selectAll().executeTakeFirstOrThrow()).holder,
    ).toBeNull();
  });

  it("takes over a lease whose holder died (expired)", async () => {
    await addFeed("/feeds/bom.xml");
    const db = ctx.services.database.db;
    await db
      .updateTable("leases")
      .where("name", "=", "rss_ingest")
      .set({ holder: "crashed-instance", run_id: null, expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const result = await ingest!.ingestAll();
    expect(result.success).toBe(true);
    expect(result.run.reused).toBe(false);
    expect((await db.selectFrom("leases").where("name", "=", "rss_ingest").selectAll().executeTakeFirstOrThrow()).holder).toBeNull();
  });

  it("answers a coalescing call (a member's Refresh) with a run that finished within the reuse window, and says so", async () => {
    await addFeed("/feeds/bom.xml");
    const first = await ingest!.ingestAll();
    expect(first.run.reused).toBe(false);
    await useIngest({ ingest: { reuseWindowMs: 60_000 } });
    const second = await ingest!.ingestAll({ coalesce: true });
    expect(second.run).toMatchObject({ id: first.run.id, reused: true });
    expect(second.coalesced).toBe(true);
    expect(feeds.hits("/feeds/bom.xml")).toHaveLength(1);
  });

  it("a call that may not coalesce always runs, even within the reuse window", async () => {
    await addFeed("/feeds/bom.xml");
    await useIngest({ ingest: { reuseWindowMs: 60_000 } });
    const first = await ingest!.ingestAll({ reason: "manual" });
    const second = await ingest!.ingestAll({ reason: "schedule" });
    expect(second.run).toMatchObject({ reason: "schedule", reused: false });
    expect(second.run.id).not.toBe(first.run.id);
    expect(second.coalesced).toBeUndefined();
    expect(feeds.hits("/feeds/bom.xml")).toHaveLength(2);
  });

  it("a call that may not coalesce does not take the old answer of a coalescing call in flight", async () => {
    await addFeed("/feeds/bom.xml");
    await useIngest({ ingest: { reuseWindowMs: 60_000 } });
    const first = await ingest!.ingestAll();
    const [member, admin] = await Promise.all([ingest!.ingestAll({ coalesce: true }), ingest!.ingestAll()]);
    expect(member).toMatchObject({ coalesced: true, run: { id: first.run.id } });
    expect(admin.run.id).not.toBe(first.run.id);
    expect(admin.coalesced).toBeUndefined();
    expect(feeds.hits("/feeds/bom.xml")).toHaveLength(2);
  });

  it("a coalescing call joins a real run in flight", async () => {
    await addFeed("/slow?ms=200");
    await useIngest({ ingest: { reuseWindowMs: 60_000 } });
    const [admin, member] = await Promise.all([ingest!.ingestAll(), ingest!.ingestAll({ coalesce: true })]);
    expect(member.run).toMatchObject({ id: admin.run.id, reused: true });
    expect(feeds.hits("/slow")).toHaveLength(1);
  });

  it("stores the category of the feed and the feed's title as source (else the feed's name)", async () => {
    feeds.setDynamic(
      "untitled.xml",
      `<rss version="2.0"><channel><item><title>T</title><link>https://t.example.com/</link></item></channel></rss>`,
    );
    await addFeed("/dynamic/untitled.xml", { name: "Admin's Name For It", category: "top_story" });
    await ingest!.ingestAll();
    const [a] = (await articles.listArticles({ category: "top_story" })).articles;
    expect(a).toMatchObject({ category: "top_story", source_name: "Admin's Name For It", feedTitle: "Admin's Name For It" });
  });

  it("an ingest rewrites only the changed article of its feed, and only the feeds it read", async () => {
    // Two feeds publishing the same item ids: a change in one must not reach the other's copy.
    const items = (title: string) => [
      { guid: "shared-x", title },
      { guid: "shared-y", title: "Unchanged item" },
    ];
    feeds.setDynamic("guard-a.xml", rss(items("Original title")));
    feeds.setDynamic("guard-b.xml", rss(items("Original title")));
    feeds.setDynamic("guard-c.xml", rss([{ guid: "c-only", title: "From C" }]));
    const a = await addFeed("/dynamic/guard-a.xml", { name: "Guard A", category: "safety" });
    const b = await addFeed("/dynamic/guard-b.xml", { name: "Guard B", category: "safety" });
    const c = await addFeed("/dynamic/guard-c.xml", { name: "Guard C", category: "decor" });
    expect((await ingest!.ingestAll()).counts).toEqual({ articles: 5, feeds: 3, failed: 0 });
    await feedAdmin.updateFeed({ id: c.id, name: "Guard C", url: `${feeds.url}/dynamic/guard-c.xml`, category: "decor", is_active: false });
    const failing = await addFeed("/status/500", { name: "Guard D" });
    // Active, but waiting out a backoff: not read in this run, so not written either.
    const waiting = await addFeed("/dynamic/guard-a.xml?waiting", { name: "Guard E" });
    const db = ctx.services.database.db;
    await db
      .updateTable("rss_feeds")
      .set({ consecutive_failures: 1, last_error: "An earlier failure", next_attempt_at: new Date(Date.now() + 3_600_000).toISOString() })
      .where("id", "=", waiting.id)
      .execute();
    const changedArticle = await db
      .selectFrom("articles")
      .select("id")
      .where("feed_id", "=", a.id)
      .where("title", "=", "Original title")
      .executeTakeFirstOrThrow();

    feeds.setDynamic("guard-a.xml", rss(items("Corrected title")));
    const guard = await guardRows(db, ["rss_feeds", "articles", "article_category_counts", "ingest_runs", "leases"]);
    const result = await ingest!.ingestAll();
    expect(result.counts).toEqual({ articles: 0, feeds: 3, failed: 1 });
    expect(result.run.skipped).toBe(1);
    expect(result.run.updated).toBe(1);
    await guard.expectChanges({
      articles: { changed: [changedArticle.id], columns: ["content", "content_hash", "summary", "title", "updated_at"] },
      // A and B were read (their last read time moves, unless within the same millisecond); D failed; C (inactive) and E (waiting) were not read.
      rss_feeds: {
        changed: [failing.id],
        mayChange: [a.id, b.id],
        columns: ["consecutive_failures", "etag", "last_error", "last_error_at", "last_ingested_at", "last_modified", "next_attempt_at"],
      },
      ingest_runs: { added: 1 },
      leases: { mayChange: ["rss_ingest"] },
    });
    for (const read of await db.selectFrom("rss_feeds").selectAll().where("id", "in", [a.id, b.id]).execute()) {
      expect(read).toMatchObject({ last_error: null, consecutive_failures: 0, next_attempt_at: null });
    }
    const titles = await db
      .selectFrom("articles")
      .select(["feed_id", "title"])
      .where("feed_id", "in", [a.id, b.id])
      .orderBy("id")
      .execute();
    expect(titles.filter((t) => t.feed_id === b.id).map((t) => t.title)).toEqual(["Original title", "Unchanged item"]);
  });
});

describeEachDatabase("RSS ingest without RSS_ALLOW_PRIVATE_HOSTS", (dialect) => {
  let ctx: TestContext;
  let feeds: FeedServer;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    feeds = await startFeedServer();
  });
  afterAll(async () => {
    await ctx.services.ingest.stop();
    await feeds.close();
    await ctx.close();
  });

  it("a feed pointing at 127.0.0.1 (or a name for it) fails with a clear error and no request is made", async () => {
    const { feeds: feedAdmin, ingest } = ctx.services;
    // The API refuses such URLs up front; a row written some other way still cannot be fetched.
    const literal = await new FeedsRepo(ctx.services.database.db).create({
      name: "Loopback",
      url: `${feeds.url}/feeds/wordpress.xml`,
      category: "news",
      is_active: true,
    });
    const named = await new FeedsRepo(ctx.services.database.db).create({
      name: "Named",
      url: `http://localhost:${feeds.port}/feeds/blogger.xml`,
      category: "news",
      is_active: true,
    });
    const result = await ingest.ingestAll();
    expect(result).toMatchObject({ success: false, error: RSS_REFRESH_FAILED, counts: { articles: 0, feeds: 2, failed: 2 } });
    const rows = await feedAdmin.listFeeds();
    expect(rows.find((f) => f.id === literal.id)!.last_error).toBe("Refused to connect to 127.0.0.1: a loopback address is not allowed");
    expect(rows.find((f) => f.id === named.id)!.last_error).toMatch(
      /^Refused to connect to localhost \((127\.0\.0\.1|::1)\): a loopback address is not allowed$/,
    );
    expect(feeds.requests).toEqual([]);
  });
});

describeEachDatabase("when the database fails", (dialect) => {
  it("ingest answers 'RSS refresh failed' and the featured cards turn into the spec's error cards", async () => {
    const ctx = await createTestContext(dialect);
    const { articles, ingest } = ctx.services;
    await ctx.services.database.close();
    try {
      const result = await ingest.ingestAll();
      expect(result).toMatchObject({ success: false, error: RSS_REFRESH_FAILED, counts: { articles: 0, feeds: 0, failed: 0 } });
      const featured = await articles.featured();
      expect(featured.success).toBe(false);
      expect(featured.error).toBe("Failed to load articles");
      expect(featured.articles.map((a) => [a.title, a.excerpt, a.is_error, a.external_url])).toEqual(
        ["Home Improvement", "Decor", "Green Living"].map((t) => [
          `${t} Temporarily Unavailable`,
          "We're experiencing technical difficulties. Please try again later.",
          true,
          "#",
        ]),
      );
    } finally {
      await ctx.close().catch(() => undefined);
    }
  });
});

describeEachDatabase("default feeds", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  it("are seeded once, inactive, and never again, even after an admin deleted them", async () => {
    const { feeds: feedAdmin, ingest } = ctx.services;
    expect(await ingest.seedDefaultFeeds()).toBe(DEFAULT_FEEDS.length);
    const seeded = await feedAdmin.listFeeds();
    expect(seeded).toHaveLength(DEFAULT_FEEDS.length);
    expect(seeded.every((f) => f.is_active === false && /^https:\/\//.test(f.url))).toBe(true);
    expect(await ingest.seedDefaultFeeds()).toBe(0);
    for (const f of seeded) await feedAdmin.deleteFeed(f.id);
    expect(await ingest.seedDefaultFeeds()).toBe(0);
    expect(await feedAdmin.listFeeds()).toEqual([]);
    expect(await ctx.services.database.db.selectFrom("articles").selectAll().execute()).toEqual([]);
  });

  it("are not seeded into a feeds table that already has feeds", async () => {
    const other = await createTestContext(dialect);
    try {
      await other.services.feeds.createFeed({ name: "Mine", url: "https://mine.example.com/feed", category: "news" });
      expect(await other.services.ingest.seedDefaultFeeds()).toBe(0);
      expect((await other.services.feeds.listFeeds()).map((f) => f.name)).toEqual(["Mine"]);
    } finally {
      await other.close();
    }
  });
});

describe("backoffUntil", () => {
  it("doubles with each failure, up to the maximum", () => {
    const s = { backoffBaseMs: 5 * 60_000, backoffMaxMs: 24 * 60 * 60_000 };
    const at = (n: number) => Date.parse(backoffUntil(n, s, 0));
    expect([1, 2, 3, 4].map(at)).toEqual([5, 10, 20, 40].map((m) => m * 60_000));
    expect(at(30)).toBe(24 * 60 * 60_000);
  });
});

// A fixture read through the whole pipeline, kept here so a broken fixture is noticed by name.
describe("fixture sanity", () => {
  it("the dynamic RSS helper makes a feed the parser reads", () => {
    expect(rss([{ guid: "x", title: "X" }])).toContain("<guid>x</guid>");
    expect(fixture("wordpress.xml")).toContain("<rss");
  });
});
