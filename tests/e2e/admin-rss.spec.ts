import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { deleteFeed, forgetRecentIngests, rssDocument, seedFeed, startFeedServer, uniq, withArticlesLock } from "./articles-support";

const panel = (page: Page) => page.getByRole("tabpanel", { name: /RSS/ });
const message = (page: Page) => page.getByTestId("rss-message");
const row = (page: Page, name: string) =>
  page.getByTestId("feed-row").filter({ has: page.getByRole("rowheader", { name: new RegExp(name) }) });

test.describe("admin RSS feed management", () => {
  test("a super_admin sees the feed list with active and inactive marks, last ingestion and last error", async ({
    page,
    signIn,
    services,
  }) => {
    // An active feed that cannot be read would fail another test's ingest: take turns.
    await withArticlesLock(async () => {
      const tag = uniq();
      const ok = await seedFeed(services, {
        name: `Healthy feed ${tag}`,
        is_active: true,
        category: "insurance",
        last_ingested_at: "2024-05-01T10:30:00.000Z",
      });
      const broken = await seedFeed(services, {
        name: `Broken feed ${tag}`,
        is_active: false,
        last_error: "HTTP 404 from the feed server",
        consecutive_failures: 3,
      });
      await signIn("super_admin");
      await page.goto("/admin/dashboard");
      await expect(panel(page).getByRole("heading", { name: "RSS Feed Management" })).toBeVisible();
      await expect(panel(page)).toContainText("Manage RSS feeds, sync content, and monitor ingestion status.");

      const okRow = row(page, `Healthy feed ${tag}`);
      await expect(okRow).toContainText(ok.url);
      await expect(okRow).toContainText("Insurance");
      await expect(okRow).toContainText("Active");
      await expect(okRow).toContainText("2024");
      await expect(okRow).toContainText("None");
      const brokenRow = row(page, `Broken feed ${tag}`);
      await expect(brokenRow).toContainText("Inactive");
      await expect(brokenRow).toContainText("Never");
      await expect(brokenRow).toContainText("HTTP 404 from the feed server");
      await expect(brokenRow).toContainText("3 failures in a row");
      await deleteFeed(services, ok.id);
      await deleteFeed(services, broken.id);
    });
  });

  test("a failing feed's red bar stands beside its name, never over it, on a desktop and on a phone", async ({
    page,
    signIn,
    services,
  }) => {
    // An active feed that cannot be read would fail another test's ingest: take turns.
    await withArticlesLock(async () => {
      const tag = uniq();
      const name = `Failing layout ${tag}`;
      const feed = await seedFeed(services, {
        name,
        url: "http://127.0.0.1:9/feed.xml",
        is_active: true,
        last_error: "HTTP 503 Service Unavailable",
        consecutive_failures: 2,
      });
      try {
        await signIn("super_admin");
        for (const [width, height, testId] of [
          [1280, 800, "feed-row"],
          [390, 844, "feed-card"],
        ] as const) {
          await page.setViewportSize({ width, height });
          await page.goto("/admin/dashboard");
          const item = page.getByTestId(testId).filter({ hasText: name });
          await expect(item).toHaveAttribute("data-failing", "true");
          const title = item.getByText(name, { exact: true });
          await title.scrollIntoViewIfNeeded();
          // Where the red bar is drawn (a left border or an inset shadow of the row or a cell) and where the name starts.
          const layout = await title.evaluate((el, itemTestId) => {
            const box = el.closest(`[data-testid="${itemTestId}"]`)!;
            const text = document.createRange();
            text.selectNodeContents(el);
            let barRight = box.getBoundingClientRect().left;
            for (const node of [box, ...box.querySelectorAll("th, td")]) {
              const style = getComputedStyle(node);
              const rect = node.getBoundingClientRect();
              const left = rect.left + parseFloat(style.borderLeftWidth);
              if (style.borderLeftColor !== "rgba(0, 0, 0, 0)" && parseFloat(style.borderLeftWidth) >= 3)
                barRight = Math.max(barRight, left);
              const inset =
                /inset\s*(\d+(?:\.\d+)?)px/.exec(style.boxShadow) ?? /(\d+(?:\.\d+)?)px 0px 0px 0px.*inset/.exec(style.boxShadow);
              if (inset) barRight = Math.max(barRight, rect.left + parseFloat(inset[1]));
            }
            return { barRight, nameLeft: text.getBoundingClientRect().left };
          }, testId);
          expect(layout.nameLeft - layout.barRight, `${width}px`).toBeGreaterThanOrEqual(8);
          await item.screenshot({ path: `.tmp/screens/rss-failing-feed-${width}.png` });
        }
      } finally {
        await deleteFeed(services, feed.id);
      }
    });
  });

  test("add, edit and delete a feed, with the spec's messages", async ({ page, signIn, services }) => {
    // The feed added here is active and cannot be read: no ingest may run meanwhile.
    await withArticlesLock(async () => {
      const tag = uniq();
      const name = `Porch Pros ${tag}`;
      const url = `https://porch.example.org/${tag}/feed.xml`;
      await signIn("super_admin");
      await page.goto("/admin/rss");
      await expect(panel(page).getByRole("heading", { name: "RSS Feed Management" })).toBeVisible();

      await panel(page).getByRole("button", { name: "Add Feed" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Add Feed" });
      const add = dialog.getByRole("button", { name: "Add Feed" });
      await expect(add).toBeDisabled();
      await dialog.getByLabel("Name").fill(name);
      await expect(add).toBeDisabled();
      await expect(dialog.getByLabel("URL")).toHaveAttribute("type", "url");
      await dialog.getByLabel("URL").fill("ftp://porch.example.org/feed");
      await expect(add).toBeEnabled();
      await add.click();
      await expect(dialog.getByText("URL must be an http or https address")).toBeVisible();
      await dialog.getByLabel("URL").fill(url);
      const category = dialog.getByLabel("Category");
      expect(await category.locator("optgroup").evaluateAll((els) => els.map((el) => el.getAttribute("label")))).toEqual([
        "Home & Living",
        "Safety & Security",
        "Sustainability",
        "Technology",
        "News & Information",
        "Legacy",
      ]);
      await category.selectOption("home_security");
      await expect(dialog.getByLabel("Enabled")).toBeChecked();
      await add.click();
      await expect(message(page)).toHaveText("Feed added successfully!");
      await expect(dialog).toBeHidden();
      const added = row(page, name);
      await expect(added).toContainText(url);
      await expect(added).toContainText("Home Security");
      await expect(added).toContainText("Active");

      // The same URL twice is refused by the server.
      await panel(page).getByRole("button", { name: "Add Feed" }).first().click();
      await dialog.getByLabel("Name").fill(`Copy ${tag}`);
      await dialog.getByLabel("URL").fill(url);
      await dialog.getByRole("button", { name: "Add Feed" }).click();
      // Said once, in the dialog where the URL can be corrected; not again on the page behind it.
      await expect(dialog.getByRole("alert")).toHaveText("Failed to add feed: A feed with this URL already exists");
      // Counted at once: a message on the page would clear itself after 5 seconds.
      expect(await page.getByText("Failed to add feed: A feed with this URL already exists").count()).toBe(1);
      expect(await message(page).filter({ hasText: "Failed" }).count()).toBe(0);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByText(/Failed to add feed/)).toHaveCount(0);

      await added.getByRole("button", { name: `Edit ${name}` }).click();
      const edit = page.getByRole("dialog", { name: "Edit Feed" });
      await expect(edit.getByLabel("Name")).toHaveValue(name);
      await expect(edit.getByLabel("URL")).toHaveValue(url);
      await expect(edit.getByLabel("Category")).toHaveValue("home_security");
      await edit.getByLabel("Name").fill(`${name} Weekly`);
      await edit.getByLabel("Enabled").uncheck();
      await edit.getByRole("button", { name: "Save Changes" }).click();
      await expect(message(page)).toHaveText("Feed updated successfully!");
      const edited = row(page, `${name} Weekly`);
      await expect(edited).toContainText("Inactive");

      await edited.getByRole("button", { name: `Delete ${name} Weekly` }).click();
      const confirm = page.getByRole("dialog", { name: "Delete Feed" });
      await expect(confirm).toContainText("Are you sure you want to delete this feed?");
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(edited).toBeVisible();
      await edited.getByRole("button", { name: `Delete ${name} Weekly` }).click();
      await confirm.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(message(page)).toHaveText("Feed deleted successfully!");
      await expect(row(page, name)).toHaveCount(0);
      const stored = await services.database.db.selectFrom("rss_feeds").select("id").where("url", "=", url).execute();
      expect(stored).toEqual([]);
    });
  });

  test("updating or deleting a feed that is gone says why", async ({ page, signIn, services }) => {
    const tag = uniq();
    const a = await seedFeed(services, { name: `Vanishing A ${tag}` });
    const b = await seedFeed(services, { name: `Vanishing B ${tag}` });
    await signIn("super_admin");
    await page.goto("/admin/dashboard?tab=rss");
    await expect(row(page, `Vanishing A ${tag}`)).toBeVisible();
    await deleteFeed(services, a.id);
    await deleteFeed(services, b.id);

    await row(page, `Vanishing A ${tag}`)
      .getByRole("button", { name: `Edit Vanishing A ${tag}` })
      .click();
    const edit = page.getByRole("dialog", { name: "Edit Feed" });
    await edit.getByLabel("Name").fill(`Renamed ${tag}`);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(edit.getByRole("alert")).toHaveText(/^Failed to update feed: .+/);
    await edit.getByRole("button", { name: "Cancel" }).click();

    await row(page, `Vanishing B ${tag}`)
      .getByRole("button", { name: `Delete Vanishing B ${tag}` })
      .click();
    await page.getByRole("dialog", { name: "Delete Feed" }).getByRole("button", { name: "Delete", exact: true }).click();
    await expect(message(page)).toHaveText(/^Failed to delete feed: .+/);
    // The list reloads and no longer shows the feeds removed elsewhere.
    await expect(row(page, `Vanishing B ${tag}`)).toHaveCount(0);
  });

  test("feed health: a failing feed is highlighted with its error, when, how often and the next try; 'Retry now' fetches it at once", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    let up = false;
    const feedServer = await startFeedServer(() =>
      up ? rssDocument(`Flaky ${tag}`, [{ title: `Back online ${tag}`, guid: `back-${tag}` }]) : "<html>not a feed</html>",
    );
    await signIn("super_admin");
    await withArticlesLock(async () => {
      const feed = await seedFeed(services, { name: `Flaky ${tag}`, url: feedServer.url, is_active: true, category: "news" });
      const healthy = await seedFeed(services, {
        name: `Steady ${tag}`,
        is_active: true,
        category: "news",
        last_ingested_at: new Date().toISOString(),
      });
      await services.database.db
        .updateTable("rss_feeds")
        .set({
          last_error: "The document is not an RSS or Atom feed",
          last_error_at: "2026-11-20T08:15:00.000Z",
          consecutive_failures: 3,
          next_attempt_at: new Date(Date.now() + 40 * 60_000).toISOString(),
        })
        .where("id", "=", feed.id)
        .execute();
      try {
        await page.goto("/admin/dashboard");
        const failing = row(page, `Flaky ${tag}`);
        await expect(failing).toHaveAttribute("data-failing", "true");
        await expect(failing).toContainText("Failing");
        await expect(failing).toContainText("The document is not an RSS or Atom feed");
        await expect(failing).toContainText("2026");
        await expect(failing).toContainText(/3 failures in a row; next try .+/);
        await expect(row(page, `Steady ${tag}`)).not.toHaveAttribute("data-failing");
        await expect(row(page, `Steady ${tag}`).getByRole("button", { name: /^Retry/ })).toHaveCount(0);
        await expectNoAxeViolations(page);
        await page.screenshot({
          path: ".tmp/screens/rss-feed-health-desktop.png",
          fullPage: true,
          style: "header { position: static !important; }",
        });

        // Still failing: said as a warning, the count goes up.
        await failing.getByRole("button", { name: `Retry now: Flaky ${tag}` }).click();
        await expect(message(page)).toHaveText(`Flaky ${tag} still fails: The URL returned a web page, not a feed`);
        await expect(message(page)).toHaveAttribute("data-kind", "warning");
        await expect(failing).toContainText("4 failures in a row");

        // Back: fetched at once, its article counted, the row healthy again.
        up = true;
        await failing.getByRole("button", { name: `Retry now: Flaky ${tag}` }).click();
        await expect(message(page)).toHaveText(`Flaky ${tag} fetched: 1 new article.`);
        await expect(failing).not.toHaveAttribute("data-failing");
        await expect(failing).toContainText("None");
        await expect(failing.getByRole("button", { name: /^Retry/ })).toHaveCount(0);

        // On a phone the same, as cards.
        await services.database.db
          .updateTable("rss_feeds")
          .set({ last_error: "HTTP 503 Service Unavailable", last_error_at: new Date().toISOString(), consecutive_failures: 1 })
          .where("id", "=", feed.id)
          .execute();
        await page.setViewportSize({ width: 390, height: 844 });
        await page.reload();
        const card = page.getByTestId("feed-card").filter({ hasText: `Flaky ${tag}` });
        await expect(card).toHaveAttribute("data-failing", "true");
        await expect(card).toContainText("1 failure in a row");
        await expect(card.getByRole("button", { name: `Retry now: Flaky ${tag}` })).toBeVisible();
        await expectNoAxeViolations(page);
        await card.screenshot({ path: ".tmp/screens/rss-feed-health-phone.png" });
      } finally {
        await deleteFeed(services, feed.id);
        await deleteFeed(services, healthy.id);
        await services.database.db.deleteFrom("articles").where("title", "=", `Back online ${tag}`).execute();
        await feedServer.close();
      }
    });
  });

  test("'Ingest all' reads 'Ingesting...', reports success and refreshes the list", async ({ page, signIn, services }) => {
    const tag = uniq();
    const feedServer = await startFeedServer(() => rssDocument(`Ingest check ${tag}`, []));
    await signIn("super_admin");
    await withArticlesLock(async () => {
      const feed = await seedFeed(services, { name: `Ingest me ${tag}`, url: feedServer.url, is_active: true, category: "news" });
      try {
        await page.goto("/admin/dashboard");
        await expect(row(page, `Ingest me ${tag}`)).toContainText("Never");
        await forgetRecentIngests(services);
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        await page.route("**/api/rss/ingest", async (route) => {
          await held;
          await route.continue();
        });
        await panel(page).getByRole("button", { name: "Ingest all" }).click();
        await expect(panel(page).getByRole("button", { name: "Ingesting..." })).toBeDisabled();
        release();
        await expect(message(page)).toHaveText("Ingestion completed! Processed feeds successfully.");
        await expect(row(page, `Ingest me ${tag}`)).not.toContainText("Never");
      } finally {
        await deleteFeed(services, feed.id);
        await feedServer.close();
      }
    });
  });

  test("'Ingest all' when every active feed waits to retry after failures says that no feed was due, and when the next is tried", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    await signIn("super_admin");
    await withArticlesLock(async () => {
      const feed = await seedFeed(services, {
        name: `Waiting ${tag}`,
        url: "http://127.0.0.1:9/feed.xml",
        is_active: true,
        category: "news",
        last_error: "Could not connect",
        consecutive_failures: 2,
      });
      try {
        await services.database.db
          .updateTable("rss_feeds")
          .set({ next_attempt_at: new Date(Date.now() + 10 * 60_000).toISOString() })
          .where("id", "=", feed.id)
          .execute();
        await page.goto("/admin/dashboard");
        await expect(row(page, `Waiting ${tag}`)).toBeVisible();
        await forgetRecentIngests(services);
        await panel(page).getByRole("button", { name: "Ingest all" }).click();
        await expect(message(page)).toHaveText(
          /^No feeds were due: every active feed is waiting to retry after failures \(next at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M E[SD]T\)\.$/,
        );
        await expect(message(page)).toHaveAttribute("data-kind", "warning");
      } finally {
        await deleteFeed(services, feed.id);
      }
    });
  });

  test("'Ingest all' while another server is ingesting is answered at once and follows that run to its end", async ({
    page,
    signIn,
    services,
  }) => {
    await signIn("super_admin");
    await withArticlesLock(async () => {
      const db = services.database.db;
      const run = await db
        .insertInto("ingest_runs")
        .values({ started_at: new Date().toISOString(), status: "running", reason: "schedule" })
        .returning("id")
        .executeTakeFirstOrThrow();
      // Another server holds the lease and runs; it renews the lease as long as the test needs.
      await db
        .updateTable("leases")
        .where("name", "=", "rss_ingest")
        .set({ holder: "other-server/1/e2e", run_id: run.id, expires_at: new Date(Date.now() + 10 * 60_000).toISOString() })
        .execute();
      try {
        await page.goto("/admin/dashboard");
        const answered = page.waitForResponse((r) => r.url().endsWith("/api/rss/ingest") && r.request().method() === "POST");
        const following = page.waitForResponse((r) => r.url().includes(`/api/rss/ingest/status?run=${run.id}`));
        await panel(page).getByRole("button", { name: "Ingest all" }).click();
        expect((await answered).status()).toBe(202);
        expect((await following).status()).toBe(202);
        await expect(panel(page).getByRole("button", { name: "Ingesting..." })).toBeDisabled();
        await expect(message(page)).toHaveCount(0);

        await db
          .updateTable("ingest_runs")
          .set({ status: "success", finished_at: new Date().toISOString(), feeds_total: 1 })
          .where("id", "=", run.id)
          .execute();
        await db.updateTable("leases").where("name", "=", "rss_ingest").set({ holder: null, expires_at: null }).execute();
        await expect(message(page)).toHaveText("Ingestion completed! Processed feeds successfully.");
        await expect(panel(page).getByRole("button", { name: "Ingest all" })).toBeEnabled();
      } finally {
        await db.updateTable("leases").where("name", "=", "rss_ingest").set({ holder: null, expires_at: null }).execute();
        await db
          .updateTable("ingest_runs")
          .set({ status: "failed", finished_at: new Date().toISOString() })
          .where("id", "=", run.id)
          .where("status", "=", "running")
          .execute();
      }
    });
  });

  test("'Ingest all' with a feed that fails says how many failed, as a warning", async ({ page, signIn, services }) => {
    const tag = uniq();
    const feedServer = await startFeedServer(() => rssDocument(`Working ${tag}`, []));
    await signIn("super_admin");
    await withArticlesLock(async () => {
      const good = await seedFeed(services, { name: `Working ${tag}`, url: feedServer.url, is_active: true, category: "news" });
      // Nothing listens on port 9 of this machine: the feed cannot be read.
      const bad = await seedFeed(services, {
        name: `Broken ${tag}`,
        url: "http://127.0.0.1:9/feed.xml",
        is_active: true,
        category: "news",
      });
      try {
        await page.goto("/admin/dashboard");
        await expect(row(page, `Broken ${tag}`)).toBeVisible();
        await forgetRecentIngests(services);
        await panel(page).getByRole("button", { name: "Ingest all" }).click();
        await expect(message(page)).toHaveText(
          /^Ingestion completed, but 1 of \d+ feeds failed\. Each failed feed shows its last error in the list\.$/,
        );
        await expect(message(page)).toHaveAttribute("data-kind", "warning");
        await expect(message(page)).not.toContainText("successfully");
        await expect(page.getByRole("status").filter({ has: message(page) })).toHaveCount(1);
        await expect(row(page, `Broken ${tag}`)).not.toContainText("None");
        await expect(row(page, `Working ${tag}`)).not.toContainText("Never");
      } finally {
        await deleteFeed(services, good.id);
        await deleteFeed(services, bad.id);
        await feedServer.close();
      }
    });
  });

  test("failures of ingest and of loading the list show their reason", async ({ page, signIn, services }) => {
    const feed = await seedFeed(services, { name: `Listed ${uniq()}` });
    await signIn("super_admin");
    await page.route("**/api/rss/feeds", (route) =>
      route.fulfill({ status: 503, json: { success: false, error: "Database unavailable" } }),
    );
    await page.goto("/admin/dashboard");
    await expect(message(page)).toHaveText("Failed to load RSS feeds: Database unavailable");
    await expect(panel(page).getByText("The feed list could not be loaded.")).toBeVisible();

    // A non-ok answer without a reason gives 'HTTP error! status: N'.
    await page.route("**/api/rss/feeds", (route) => route.fulfill({ status: 502, body: "Bad gateway" }));
    await panel(page).getByRole("button", { name: "Refresh" }).click();
    await expect(message(page)).toHaveText("Failed to load RSS feeds: HTTP error! status: 502");

    await page.unroute("**/api/rss/feeds");
    await panel(page).getByRole("button", { name: "Try Again" }).click();
    await expect(page.getByTestId("feed-row").first()).toBeVisible();

    await page.route("**/api/rss/ingest", (route) => route.fulfill({ status: 500, json: { success: false, error: "RSS refresh failed" } }));
    await panel(page).getByRole("button", { name: "Ingest all" }).click();
    await expect(message(page)).toHaveText("Ingestion failed: RSS refresh failed");

    await page.route("**/api/rss/ingest", (route) => route.fulfill({ status: 200, json: { success: false } }));
    await panel(page).getByRole("button", { name: "Ingest all" }).click();
    await expect(message(page)).toHaveText("Ingestion failed: Unknown error");
    await deleteFeed(services, feed.id);
  });

  test("shows a loading state, then an empty state with 'Add Feed'", async ({ page, signIn }) => {
    await signIn("super_admin");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/rss/feeds", async (route) => {
      await held;
      await route.fulfill({ json: { success: true, feeds: [] } });
    });
    await page.goto("/admin/dashboard");
    await expect(panel(page).getByRole("status").filter({ hasText: "Loading feeds..." })).toBeVisible();
    release();
    await expect(panel(page).getByText("No RSS feeds yet")).toBeVisible();
    await expect(panel(page).getByText("Loading feeds...")).toHaveCount(0);
    await panel(page).getByRole("button", { name: "Add Feed" }).last().click();
    await expect(page.getByRole("dialog", { name: "Add Feed" })).toBeVisible();
  });

  test("messages clear themselves after 5 seconds", async ({ page, signIn, services }) => {
    const feed = await seedFeed(services, { name: `Listed ${uniq()}` });
    await page.clock.install();
    await signIn("super_admin");
    await page.route("**/api/rss/ingest", (route) => route.fulfill({ status: 500, json: { success: false, error: "RSS refresh failed" } }));
    await page.goto("/admin/dashboard");
    await expect(page.getByTestId("feed-row").first()).toBeVisible();
    // From here on the page's time moves only when the test says so.
    await page.clock.pauseAt(Date.now() + 60_000);
    await panel(page).getByRole("button", { name: "Ingest all" }).click();
    await expect(message(page)).toHaveText("Ingestion failed: RSS refresh failed");
    await page.clock.runFor(4_900);
    await expect(message(page)).toBeVisible();
    await page.clock.runFor(200);
    await expect(message(page)).toHaveCount(0);
    await deleteFeed(services, feed.id);
  });

  test("limited_admin has no RSS tab and the feeds API refuses them", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("tab", { name: /Form & Application Submissions/ })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: /RSS/ })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "RSS Feed Management" })).toHaveCount(0);
    const res = await page.request.get("/api/rss/feeds");
    expect(res.status()).toBe(403);
    await page.goto("/admin/rss");
    await expect(page).toHaveURL(/\/admin\/dashboard\?notice=super-admin-only$/);
    // Told why, on the page they land on.
    const notice = page.getByTestId("dashboard-notice");
    await expect(notice).toHaveText(
      "RSS Feed Management (/admin/rss) is for super admins only, so you were brought to the dashboard instead.",
    );
    await expect(page.getByRole("tab", { name: /Form & Application Submissions/ })).toHaveAttribute("aria-selected", "true");
    await notice.getByRole("button", { name: "Dismiss message" }).click();
    await expect(notice).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test("the dashboard and its dialogs have no axe violations at 1280 and 390 pixels", async ({ page, signIn, services }) => {
    test.slow(); // four axe runs over every feed the suite has added
    await withArticlesLock(async () => {
      const feed = await seedFeed(services, { name: `Listed ${uniq()}`, is_active: true, last_error: "HTTP 500 from the feed server" });
      await signIn("super_admin");
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/admin/dashboard");
        await expect(panel(page).getByText("Loading feeds...")).toHaveCount(0);
        await expect(
          panel(page)
            .getByTestId(width > 1000 ? "feed-row" : "feed-card")
            .first(),
        ).toBeVisible();
        await expectNoAxeViolations(page);
        await panel(page).getByRole("button", { name: "Add Feed" }).first().click();
        await expect(page.getByRole("dialog", { name: "Add Feed" })).toBeVisible();
        await expectNoAxeViolations(page);
        await page.keyboard.press("Escape");
      }
      await deleteFeed(services, feed.id);
    });
  });
});
