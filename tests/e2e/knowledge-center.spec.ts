import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { sql } from "kysely";
import { loadConfig } from "../../app/platform/config.server";
import { databaseOptions, startServices } from "../../app/server/bootstrap.server";
import { sessionCookieName } from "../../app/features/auth/cookie.server";
import { E2E_ENV, E2E_PORT } from "./env";
import { createAccount, expect, expectNoAxeViolations, test } from "./fixtures";
import { startSecondSite } from "./second-site";
import {
  deleteArticlesIn,
  deleteFeed,
  forgetRecentIngests,
  rssDocument,
  seedArticles,
  seedFeed,
  startFeedServer,
  uniq,
  withArticlesLock,
} from "./articles-support";

const counts = (page: Page) => page.getByTestId("article-counts");
const pager = (page: Page) => page.getByRole("navigation", { name: "Article pages" });
const cards = (page: Page) => page.getByTestId("article-card");

/** The page-number links of the pager, '…' for gaps, in order. */
async function pagerItems(page: Page) {
  return (await pager(page).locator("ul > li").allInnerTexts()).map((t) => t.trim());
}

// These tests seed, delete and count articles of the one shared database (one reads the whole
// set empty), so they take turns in one worker instead of spreading over the workers.
test.describe.configure({ mode: "default" });

test.describe("knowledge center", () => {
  test("members in their own browsers, served from one kept page, each see themselves and a page that works", async ({
    browser,
    signIn,
  }) => {
    const names = ["Odalys", "Perpetua", "Quirino"];
    for (const firstName of names) {
      const context = await browser.newContext();
      const account = await signIn("member", { context, firstName });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      const answer = await page.goto("/knowledge-center");
      const html = (await answer!.text()) ?? "";
      await expect(page.getByRole("link", { name: `Welcome, ${firstName} Member` })).toBeVisible();
      for (const other of names.filter((n) => n !== firstName)) expect(html).not.toContain(other);
      // Hydrated with this member's own data: the browser's copy of the user is theirs.
      await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null")?.id)).toBe(account.userId);
      await page.getByRole("link", { name: "My account" }).first().click();
      await expect(page).toHaveURL(/\/account$/);
      expect(violations).toEqual([]);
      await context.close();
    }
  });

  test("pages come from the server, keep category and page in the URL, and scroll to the articles", async ({ page, signIn, services }) => {
    const category = "housing_mortgage_trends";
    await deleteArticlesIn(services, [category]);
    const feed = await seedFeed(services, { category });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 70 }, (_, i) => ({ title: `Mortgage note ${String(i + 1).padStart(2, "0")}`, category })),
    );
    await signIn("member");

    await page.goto(`/knowledge-center?category=${category}`);
    await expect(counts(page)).toContainText("Showing 1-9 of 70 articles");
    await expect(counts(page)).toContainText("Page 1 of 8");
    await expect(cards(page)).toHaveCount(9);
    await expect(cards(page).first()).toContainText("Mortgage note 01");
    expect(await pagerItems(page)).toEqual(["1", "2", "…", "8"]);
    await expect(pager(page).getByRole("link", { name: "1", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(pager(page).getByRole("link", { name: "Previous" })).toHaveCount(0);

    await pager(page).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?category=${category}&page=2$`));
    await expect(counts(page)).toContainText("Showing 10-18 of 70 articles");
    await expect(counts(page)).toContainText("Page 2 of 8");
    await expect(cards(page).first()).toContainText("Mortgage note 10");
    await expect(page.locator("#articles")).toBeInViewport();

    await pager(page).getByRole("link", { name: "3", exact: true }).click();
    await expect(counts(page)).toContainText("Page 3 of 8");
    await pager(page).getByRole("link", { name: "4", exact: true }).click();
    await expect(counts(page)).toContainText("Page 4 of 8");
    expect(await pagerItems(page)).toEqual(["1", "2", "3", "4", "5", "…", "8"]);
    await pager(page).getByRole("link", { name: "5", exact: true }).click();
    await expect(counts(page)).toContainText("Page 5 of 8");
    expect(await pagerItems(page)).toEqual(["1", "…", "4", "5", "6", "7", "8"]);

    // A reload or a shared link shows the same page.
    await page.reload();
    await expect(counts(page)).toContainText("Showing 37-45 of 70 articles");
    await expect(cards(page).first()).toContainText("Mortgage note 37");

    await pager(page).getByRole("link", { name: "8", exact: true }).click();
    await expect(counts(page)).toContainText("Showing 64-70 of 70 articles");
    await expect(cards(page)).toHaveCount(7);
    await expect(pager(page).getByRole("link", { name: "Next" })).toHaveCount(0);
    await pager(page).getByRole("link", { name: "Previous" }).click();
    await expect(counts(page)).toContainText("Page 7 of 8");

    // A page past the end goes to the last page.
    await page.goto(`/knowledge?category=${category}&page=99`);
    await expect(page).toHaveURL(new RegExp(`/knowledge\\?category=${category}&page=8$`));
    await expect(counts(page)).toContainText("Page 8 of 8");
    await deleteFeed(services, feed.id);
  });

  test("the category dropdown lists only categories with articles, with counts, and resets the page", async ({
    page,
    signIn,
    services,
  }) => {
    await deleteArticlesIn(services, ["insurance", "home_maintenance", "smart_home_tech"]);
    const feed = await seedFeed(services, { category: "insurance" });
    await seedArticles(services, feed.id, [
      ...Array.from({ length: 12 }, (_, i) => ({ title: `Insurance tip ${i + 1}`, category: "insurance" })),
      ...Array.from({ length: 2 }, (_, i) => ({ title: `Smart gadget ${i + 1}`, category: "smart_home_tech" })),
    ]);
    await signIn("member");
    await page.goto("/knowledge-center?category=insurance&page=2");
    await expect(counts(page)).toContainText("Showing 10-12 of 12 articles");

    const select = page.getByLabel("Category");
    const options = await select.locator("option").allInnerTexts();
    expect(options[0]).toMatch(/^All Categories \(\d+\)$/);
    expect(options).toContain("Insurance (12)");
    expect(options).toContain("Smart Home Tech (2)");
    expect(options.some((o) => o.startsWith("Home Maintenance"))).toBe(false);
    const total = options.slice(1).reduce((sum, o) => sum + Number(/\((\d+)\)$/.exec(o)![1]), 0);
    expect(options[0]).toBe(`All Categories (${total})`);

    await select.selectOption("smart_home_tech");
    await expect(page).toHaveURL(/\/knowledge-center\?category=smart_home_tech$/);
    await expect(counts(page)).toContainText("Showing 1-2 of 2 articles");
    await expect(counts(page)).toContainText("Page 1 of 1");
    await expect(pager(page)).toHaveCount(0);
    for (const card of await cards(page).all()) await expect(card).toContainText("Smart Home Tech");

    await select.selectOption("");
    await expect(page).toHaveURL(/\/knowledge-center$/);
    await expect(counts(page)).toContainText(`of ${total} articles`);
    await deleteFeed(services, feed.id);
  });

  test("a card shows image, badge, date, title, text cut to 150 characters, feed title and 'Read More' in a new tab", async ({
    page,
    signIn,
    services,
  }) => {
    await deleteArticlesIn(services, ["green_design"]);
    const feed = await seedFeed(services, { category: "green_design" });
    const long = "Rain gardens slow runoff, filter pollutants and give pollinators a home. ".repeat(4);
    await seedArticles(services, feed.id, [
      {
        title: "Build a rain garden",
        category: "green_design",
        summary: long,
        link: "https://news.example.org/rain-garden",
        image_url: "https://127.0.0.1:9/broken-image.jpg",
        published_at: "2024-03-05T15:00:00.000Z",
        source_name: "Green Home Weekly",
      },
      {
        title: "Cool roofs explained",
        category: "green_design",
        summary: null,
        content: "<p>A <strong>cool roof</strong> reflects sunlight &amp; heat.</p>",
        published_at: "2024-03-04T15:00:00.000Z",
      },
    ]);
    await signIn("member");
    await page.goto("/knowledge-center?category=green_design");
    const first = page.getByRole("article", { name: "Build a rain garden" });
    await expect(first).toContainText("Green Design");
    await expect(first.locator("time")).toHaveText("Mar 5, 2024");
    await expect(first).toContainText("Green Home Weekly");
    const text = first.locator("p").filter({ hasText: "Rain gardens" });
    const expected = `${long.replace(/\s+/g, " ").trim().slice(0, 150).trimEnd()}...`;
    await expect(text).toHaveText(expected);
    // The broken image is hidden and the generated category image takes its place.
    await expect(first.getByTestId("category-fallback-image")).toBeVisible();
    await expect(first.locator("img")).toHaveCount(0);
    const readMore = first.getByRole("link", { name: /Read More/ });
    await expect(readMore).toHaveAttribute("href", "https://news.example.org/rain-garden");
    await expect(readMore).toHaveAttribute("target", "_blank");
    await expect(readMore).toHaveAttribute("rel", "noopener noreferrer");

    const second = page.getByRole("article", { name: "Cool roofs explained" });
    await expect(second).toContainText("A cool roof reflects sunlight & heat.");
    await expect(second.getByTestId("category-fallback-image")).toBeVisible();
    await deleteFeed(services, feed.id);
  });

  test("an empty category says so, with 'Show All Articles' and 'Refresh Articles'", async ({ page, signIn, services }) => {
    await deleteArticlesIn(services, ["home_maintenance"]);
    await signIn("member");
    await page.goto("/knowledge-center?category=home_maintenance");
    await expect(page.getByRole("heading", { name: "No articles found in Home Maintenance" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Refresh Articles" })).toBeEnabled();
    await expect(page.getByLabel("Category")).toHaveValue("home_maintenance");
    await page.getByRole("link", { name: "Show All Articles" }).click();
    await expect(page).toHaveURL(/\/knowledge-center$/);
    await expect(page.getByLabel("Category")).toHaveValue("");
  });

  test("with no articles at all it reads 'No articles found'", async ({ page, signIn, services }) => {
    await signIn("member");
    await withArticlesLock(async () => {
      const saved = await services.database.db.selectFrom("articles").selectAll().execute();
      await services.database.db.deleteFrom("articles").execute();
      try {
        await page.goto("/knowledge-center");
        await expect(page.getByRole("heading", { name: "No articles found", exact: true })).toBeVisible();
        await expect(page.getByRole("link", { name: "Show All Articles" })).toBeVisible();
        await expect(page.getByRole("button", { name: "Refresh Articles" })).toBeVisible();
        await expect(page.getByLabel("Category").locator("option")).toHaveText(["All Categories (0)"]);
      } finally {
        for (let i = 0; i < saved.length; i += 50)
          await services.database.db
            .insertInto("articles")
            .values(saved.slice(i, i + 50))
            .execute();
      }
    });
  });

  test("a page change shows 'Loading articles...' until the articles arrive", async ({ page, signIn, services }) => {
    await deleteArticlesIn(services, ["energy_saving_tips"]);
    const feed = await seedFeed(services, { category: "energy_saving_tips" });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 10 }, (_, i) => ({ title: `Energy tip ${i + 1}`, category: "energy_saving_tips" })),
    );
    await signIn("member");
    await page.goto("/knowledge-center?category=energy_saving_tips");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/rss/articles**", async (route) => {
      await held;
      await route.continue();
    });
    await pager(page).getByRole("link", { name: "Next" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Loading articles..." })).toBeVisible();
    await expect(page.locator("#articles [aria-busy=true]")).toHaveCount(1);
    release();
    await expect(counts(page)).toContainText("Showing 10-10 of 10 articles");
    await expect(page.getByText("Loading articles...")).toHaveCount(0);
    await deleteFeed(services, feed.id);
  });

  test("a failed load shows 'Failed to load articles. Please try again.' and 'Try Again' recovers", async ({ page, signIn, services }) => {
    await deleteArticlesIn(services, ["safety"]);
    const feed = await seedFeed(services, { category: "safety" });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 10 }, (_, i) => ({ title: `Safety check ${i + 1}`, category: "safety" })),
    );
    await signIn("member");
    await page.goto("/knowledge-center?category=safety");
    await expect(counts(page)).toContainText("Page 1 of 2");

    await page.route("**/api/rss/articles**", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: "Database unavailable" }),
      }),
    );
    await pager(page).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2$/);
    const alert = page.getByRole("alert").filter({ hasText: "Failed to load articles. Please try again." });
    await expect(alert).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    await page.unroute("**/api/rss/articles**");
    await alert.getByRole("link", { name: "Try Again" }).click();
    await expect(counts(page)).toContainText("Showing 10-10 of 10 articles");
    await expect(alert).toHaveCount(0);
    await deleteFeed(services, feed.id);
  });

  test("Refresh ingests the feeds, reports what it found, then shows the new articles", async ({ page, signIn, services }) => {
    const tag = uniq();
    const titles = [`Fresh gutter guide ${tag}`, `Fresh attic guide ${tag}`, `Fresh deck guide ${tag}`];
    const feedServer = await startFeedServer(() =>
      rssDocument(
        `Local Homeowner Wire ${tag}`,
        titles.map((title, i) => ({ title, guid: `${tag}-${i}` })),
      ),
    );
    await deleteArticlesIn(services, ["top_story"]);
    await signIn("member");
    await page.goto("/knowledge-center?category=top_story");
    await expect(page.getByRole("heading", { name: "No articles found in Top Story" })).toBeVisible();

    await withArticlesLock(async () => {
      const feed = await seedFeed(services, { name: `Local wire ${tag}`, url: feedServer.url, category: "top_story", is_active: true });
      try {
        await forgetRecentIngests(services);
        // Hold the call so the busy label can be seen, then let it through.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        await page.route("**/api/rss/ingest", async (route) => {
          await held;
          await route.continue();
        });
        await page.getByRole("button", { name: "Refresh", exact: true }).click();
        // Both Refresh buttons (toolbar and empty state) read 'Refreshing...' while busy.
        await expect(page.getByRole("button", { name: "Refreshing...", exact: true })).toHaveCount(2);
        await expect(page.getByRole("button", { name: "Refreshing...", exact: true }).first()).toBeDisabled();
        release();
        await expect(page.getByTestId("refresh-message")).toHaveText("Successfully refreshed! Added 3 new articles.");
        await expect(page.getByRole("button", { name: "Refresh", exact: true })).toBeEnabled();
        await page.unroute("**/api/rss/ingest");
        // The list reloads by itself.
        await expect(counts(page)).toContainText("Showing 1-3 of 3 articles");
        await expect(page.getByRole("article", { name: titles[0] })).toContainText(`Local Homeowner Wire ${tag}`);

        await forgetRecentIngests(services);
        await page.getByRole("button", { name: "Refresh", exact: true }).click();
        await expect(page.getByTestId("refresh-message")).toHaveText("RSS feeds refreshed successfully. No new articles found.");

        // Refreshed again within the minute: answered with that run, and said so (not its count as new articles).
        await page.getByRole("button", { name: "Refresh", exact: true }).click();
        await expect(page.getByTestId("refresh-message")).toHaveText("Articles were refreshed a moment ago; no new articles since.");
      } finally {
        await deleteFeed(services, feed.id);
        await feedServer.close();
      }
    });
  });

  test("a failed Refresh says 'Failed to refresh RSS feeds. Please try again.'", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/knowledge-center");
    await page.route("**/api/rss/ingest", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: "RSS refresh failed" }),
      }),
    );
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Failed to refresh RSS feeds. Please try again." })).toBeVisible();
    await page.getByRole("button", { name: "Dismiss message" }).click();
    await expect(page.getByTestId("refresh-message")).toHaveCount(0);
  });

  test("the tool tiles open their dialogs with the close button focused", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/knowledge");
    for (const name of ["Maintenance Calendar", "Video Tutorials"]) {
      await page.getByRole("button", { name: new RegExp(`^${name}`) }).click();
      const dialog = page.getByRole("dialog", { name });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("button", { name: "Close", exact: true })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    }
    await page.getByRole("button", { name: /^Video Tutorials/ }).click();
    await page.getByRole("dialog", { name: "Video Tutorials" }).getByRole("button", { name: "Close", exact: true }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("reading works without JavaScript: page links and the category form", async ({ browser, services, signIn }) => {
    await deleteArticlesIn(services, ["news"]);
    const feed = await seedFeed(services, { category: "news" });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 11 }, (_, i) => ({ title: `Headline ${i + 1}`, category: "news" })),
    );
    const context = await browser.newContext({ javaScriptEnabled: false });
    await signIn("member", { context });
    const page = await context.newPage();
    await page.goto("/knowledge-center");
    await page.getByLabel("Category").selectOption("news");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await expect(page).toHaveURL(/\/knowledge-center\?category=news$/);
    await expect(counts(page)).toContainText("Showing 1-9 of 11 articles");
    await pager(page).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\?category=news&page=2$/);
    await expect(counts(page)).toContainText("Showing 10-11 of 11 articles");
    await context.close();
    await deleteFeed(services, feed.id);
  });

  test("three columns on wide screens, one on phones, and no axe violations at either width", async ({ page, signIn, services }) => {
    await deleteArticlesIn(services, ["decor"]);
    const feed = await seedFeed(services, { category: "decor" });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 4 }, (_, i) => ({ title: `Decor idea ${i + 1}`, category: "decor" })),
    );
    await signIn("member");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/knowledge-center?category=decor");
    const boxes = async () => Promise.all((await cards(page).all()).slice(0, 3).map(async (c) => (await c.boundingBox())!));
    let [a, b, c] = await boxes();
    expect(a.y).toBe(b.y);
    expect(b.y).toBe(c.y);
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 390, height: 844 });
    [a, b] = await boxes();
    expect(a.x).toBe(b.x);
    expect(b.y).toBeGreaterThan(a.y);
    await expectNoAxeViolations(page);
    await deleteFeed(services, feed.id);
  });
});

test.describe("knowledge center when loading fails for real", () => {
  test("a broken articles table or a server gone away: the articles' error with 'Try Again', inside the site's header and footer", async ({
    browser,
  }) => {
    test.setTimeout(150_000); // starts a copy of the site twice, on a database of its own
    const dataDir = path.resolve(`.tmp/e2e-failing-site-${E2E_PORT}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    let site = await startSecondSite({ DATA_DIR: dataDir });
    const config = loadConfig({ ...process.env, ...E2E_ENV, DATA_DIR: dataDir });
    const services = await startServices(config, { database: databaseOptions(config) });
    const context = await browser.newContext();
    try {
      const { userId } = await createAccount(services, "member", "Frame");
      const { token } = await services.auth.sessions.create((await services.auth.users.findById(userId))!, false);
      await context.addCookies([{ name: sessionCookieName(false), value: token, url: site.url, httpOnly: true, sameSite: "Lax" }]);
      const feed = await seedFeed(services, { category: "safety" });
      await seedArticles(
        services,
        feed.id,
        Array.from({ length: 10 }, (_, i) => ({ title: `Frame check ${i + 1}`, category: "safety" })),
      );
      const page = await context.newPage();
      const alert = page.getByRole("alert").filter({ hasText: "Failed to load articles. Please try again." });
      const expectFrame = async (label: string) => {
        await expect(page.getByRole("banner").getByTestId("welcome-line"), label).toHaveText("Welcome, Frame Member");
        await expect(page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" }), label).toBeVisible();
      };

      await page.goto(`${site.url}/knowledge-center?category=safety`);
      await expect(counts(page)).toContainText("Page 1 of 2");

      // The articles table breaks: the page read by the server and a page change in the browser both say so.
      await sql`alter table articles rename to articles_broken`.execute(services.database.db);
      await page.reload();
      await expect(alert).toBeVisible();
      await expectFrame("server-rendered");
      await sql`alter table articles_broken rename to articles`.execute(services.database.db);
      await alert.getByRole("link", { name: "Try Again" }).click();
      await expect(counts(page)).toContainText("Page 1 of 2");
      await sql`alter table articles rename to articles_broken`.execute(services.database.db);
      await pager(page).getByRole("link", { name: "Next" }).click();
      await expect(alert).toBeVisible();
      await expectFrame("page change");
      await sql`alter table articles_broken rename to articles`.execute(services.database.db);

      // The server goes away mid-visit (a crash, a restart): a page change keeps the frame and offers 'Try Again'.
      await alert.getByRole("link", { name: "Try Again" }).click();
      await expect(counts(page)).toContainText("Page 2 of 2");
      // The contact page is visited once, so the browser has its code when the server is gone.
      await page.getByRole("banner").getByRole("link", { name: "Contact", exact: true }).click();
      await expect(page).toHaveURL(/\/contact-us$/);
      await page.goBack();
      await expect(counts(page)).toContainText("Page 2 of 2");
      await site.close();
      await pager(page).getByRole("link", { name: "Previous" }).click();
      await expect(alert).toBeVisible();
      await expectFrame("server gone");
      // Another page whose data cannot be read shows the site's error page, in the same frame.
      await page.getByRole("banner").getByRole("link", { name: "Contact", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
      await expectFrame("error page");

      await page.goBack();
      await expect(alert).toBeVisible();
      await expectFrame("back, server still gone");

      site = await startSecondSite({ DATA_DIR: dataDir }, { port: site.port });
      await alert.getByRole("link", { name: "Try Again" }).click();
      await expect(counts(page)).toContainText("Page 1 of 2");
      await expect(alert).toHaveCount(0);
    } finally {
      await context.close();
      await services.database.close();
      await site.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test.describe("knowledge center pager on a phone", () => {
  test("stays on one line at 320 px, 'Next' included, with the words kept for screen readers", async ({ page, signIn, services }) => {
    const category = "home_maintenance";
    await deleteArticlesIn(services, [category]);
    const feed = await seedFeed(services, { category });
    await seedArticles(
      services,
      feed.id,
      Array.from({ length: 70 }, (_, i) => ({ title: `Upkeep note ${i + 1}`, category })),
    );
    await signIn("member");
    await page.setViewportSize({ width: 320, height: 700 });
    for (const [n, items] of [
      [4, ["1", "2", "3", "4", "5", "…", "8"]],
      [5, ["1", "…", "4", "5", "6", "7", "8"]],
      [1, ["1", "2", "…", "8"]],
    ] as const) {
      await page.goto(`/knowledge-center?category=${category}${n > 1 ? `&page=${n}` : ""}`);
      await expect(counts(page)).toContainText(`Page ${n} of 8`);
      expect(await pagerItems(page)).toEqual(items);
      const parts = pager(page).locator(":scope > a, :scope > span, :scope > ul > li");
      const boxes = await Promise.all((await parts.all()).map(async (p) => (await p.boundingBox())!));
      expect(boxes).toHaveLength(items.length + 2);
      const middles = boxes.map((b) => Math.round(b.y + b.height / 2));
      expect(new Set(middles).size, `one line on page ${n}: ${middles.join(", ")}`).toBe(1);
      for (const b of boxes) {
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(320);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await pager(page).screenshot({ path: `.tmp/shots/pager-320-page${n}.png` });
    }
    await expect(pager(page).getByRole("link", { name: "Next" })).toBeVisible();
    await pager(page).getByRole("link", { name: "Next" }).click();
    await expect(counts(page)).toContainText("Page 2 of 8");
    await expect(pager(page).getByRole("link", { name: "Previous" })).toBeVisible();
    await deleteFeed(services, feed.id);
  });
});

test.describe("home block 'Latest from Our Knowledge Center'", () => {
  const block = (page: Page) => page.getByTestId("featured-articles");
  const featured = (page: Page) => block(page).getByTestId("featured-card");
  const GREEN = ["greening_tips", "green_design", "energy_saving_tips"];

  test("shows the newest article of each slot, cut to 80/120 characters, with image fallbacks", async ({ page, services }) => {
    await withArticlesLock(async () => {
      const tag = uniq();
      await deleteArticlesIn(services, GREEN);
      const feed = await seedFeed(services, { category: "decor" });
      const longTitle = `Kitchen refresh ${tag} ${"with budget-friendly cabinet paint and new hardware ".repeat(2)}`;
      const longExcerpt =
        "Swap the knobs, paint the doors and add under-cabinet lights: three weekend projects that change the whole room. ".repeat(2);
      await seedArticles(services, feed.id, [
        {
          title: longTitle,
          category: "home_improvement",
          summary: longExcerpt,
          link: `https://news.example.org/kitchen-${tag}`,
          image_url: "https://127.0.0.1:9/broken.jpg",
          published_at: "2099-01-01T00:00:00.000Z",
        },
        { title: `Layered lighting ${tag}`, category: "decor", summary: null, published_at: "2099-01-01T00:00:00.000Z" },
      ]);
      try {
        await page.goto("/");
        await expect(block(page).getByRole("heading", { name: "Latest from Our Knowledge Center" })).toBeVisible();
        await expect(featured(page)).toHaveCount(3);

        const kitchen = featured(page).nth(0);
        await expect(kitchen).toContainText("Home Improvement");
        await expect(kitchen.getByRole("heading")).toHaveText(`${longTitle.replace(/\s+/g, " ").trim().slice(0, 80).trimEnd()}...`);
        await expect(kitchen.locator("p").filter({ hasText: "Swap the knobs" })).toHaveText(
          `${longExcerpt.replace(/\s+/g, " ").trim().slice(0, 120).trimEnd()}...`,
        );
        const readMore = kitchen.getByRole("link", { name: /Read More/ });
        await expect(readMore).toHaveAttribute("href", `https://news.example.org/kitchen-${tag}`);
        await expect(readMore).toHaveAttribute("target", "_blank");
        await expect(readMore).toHaveAttribute("rel", "noopener noreferrer");
        // The broken image falls back to the category default, served by the site.
        await expect(kitchen.locator("img")).toHaveAttribute("src", "/images/articles/home-improvement.svg");

        const decor = featured(page).nth(1);
        await expect(decor.getByRole("heading")).toHaveText(`Layered lighting ${tag}`);
        await expect(decor).toContainText("No description available.");
        await expect(decor.locator("img")).toHaveAttribute("src", "/images/articles/decor.svg");

        // Green Living has no article: a placeholder with a disabled 'Coming Soon'.
        const green = featured(page).nth(2);
        await expect(green).toContainText("Green Living");
        await expect(green.getByRole("button", { name: "Coming Soon" })).toBeDisabled();
        await expect(green.getByRole("link", { name: /Read More/ })).toHaveCount(0);
      } finally {
        await deleteFeed(services, feed.id);
      }
    });
  });

  test("an image falls back to the category default and then to the placeholder", async ({ page }) => {
    await page.route("**/api/featured-articles", (route) =>
      route.fulfill({
        json: {
          success: true,
          articles: [
            {
              id: 1,
              category: "decor",
              title: "Paint",
              excerpt: "x",
              image_url: null,
              external_url: "https://news.example.org/p",
              published_at: null,
              is_placeholder: false,
              is_error: false,
            },
          ],
        },
      }),
    );
    await page.route("**/images/articles/decor.svg", (route) => route.fulfill({ status: 404, body: "" }));
    await page.goto("/");
    await expect(featured(page).locator("img")).toHaveAttribute("src", "/images/articles/placeholder.svg");
  });

  test("shows a loading state until the articles arrive", async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/featured-articles", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/");
    await expect(block(page).getByRole("status")).toHaveText("Loading articles...");
    await expect(block(page).getByTestId("featured-skeleton")).toHaveCount(3);
    release();
    await expect(featured(page)).toHaveCount(3);
    await expect(block(page).getByTestId("featured-skeleton")).toHaveCount(0);
    await expect(block(page).getByRole("status")).toHaveCount(0);
  });

  test("a server error shows its text and still uses the articles returned", async ({ page }) => {
    await page.route("**/api/featured-articles", (route) =>
      route.fulfill({
        status: 503,
        json: {
          success: false,
          error: "Articles are being updated",
          articles: [
            {
              id: 9,
              category: "decor",
              title: "Still here",
              excerpt: "Kept from the answer",
              image_url: null,
              external_url: "#",
              published_at: null,
              is_placeholder: false,
              is_error: false,
            },
            {
              id: 10,
              category: "green_living",
              title: "Broken slot",
              excerpt: null,
              image_url: null,
              external_url: null,
              published_at: null,
              is_placeholder: false,
              is_error: true,
            },
          ],
        },
      }),
    );
    await page.goto("/");
    await expect(block(page).getByRole("alert")).toHaveText("Articles are being updated");
    await expect(featured(page)).toHaveCount(2);
    await expect(featured(page).nth(0).getByRole("button", { name: "Coming Soon" })).toBeDisabled();
    await expect(featured(page).nth(1).getByRole("button", { name: "Unavailable" })).toBeDisabled();
    await expect(featured(page).nth(1)).toContainText("Temporarily Unavailable");
  });

  test("a server error without text reads 'Failed to load articles'", async ({ page }) => {
    await page.route("**/api/featured-articles", (route) => route.fulfill({ status: 500, json: { success: false } }));
    await page.goto("/");
    await expect(block(page).getByRole("alert")).toHaveText("Failed to load articles");
  });

  test("a failed call shows the three 'Temporarily Unavailable' cards", async ({ page }) => {
    await page.route("**/api/featured-articles", (route) => route.abort());
    await page.goto("/");
    await expect(featured(page).getByRole("heading")).toHaveText([
      "Home Improvement Temporarily Unavailable",
      "Decor Temporarily Unavailable",
      "Green Living Temporarily Unavailable",
    ]);
    for (const card of await featured(page).all()) {
      await expect(card).toContainText("We're experiencing technical difficulties. Please try again later.");
      await expect(card.getByRole("button", { name: "Unavailable" })).toBeDisabled();
      await expect(card.getByText("Temporarily Unavailable", { exact: true })).toBeVisible();
    }
  });
});
