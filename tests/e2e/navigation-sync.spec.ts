import type { Page } from "@playwright/test";
import { MEMBER_PASSWORD, createAccount, expect, test } from "./fixtures";

/** The about section's top sits at the page's scroll padding, just below the sticky header (part of it showing is not enough). */
async function expectScrolledToAbout(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => {
        // The address changes a moment before the home page is drawn: until then, keep polling.
        const about = document.getElementById("about");
        if (!about) return Number.POSITIVE_INFINITY;
        return Math.abs(about.getBoundingClientRect().top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop));
      }),
    )
    .toBeLessThanOrEqual(1);
}

test.describe("auth sync across tabs", () => {
  test("after a login in one tab, a logout in that tab still reaches the others", async ({ context, services }) => {
    const { certificate } = await createAccount(services, "member", "Avery");
    const first = await context.newPage();
    await first.goto("/login");
    await first.getByLabel("Certificate Number").fill(certificate!);
    await first.getByLabel("Date of Birth", { exact: true }).fill(MEMBER_PASSWORD);
    await first.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(first.getByTestId("welcome-line")).toHaveText("Welcome, Avery Member");

    const second = await context.newPage();
    await second.goto("/knowledge-center");
    await expect(second.getByTestId("welcome-line")).toHaveText("Welcome, Avery Member");

    await first.getByRole("button", { name: "Log Out" }).click();
    await expect(first.getByRole("banner").getByRole("link", { name: "Member Login" })).toBeVisible();
    await expect(second.getByRole("banner").getByRole("link", { name: "Member Login" })).toBeVisible();
    await expect(second.getByTestId("welcome-line")).toHaveCount(0);
    // A visitor at the knowledge center's address is shown the members-only gate.
    await expect(second).toHaveURL(/\/members-only$/);
    await expect(second.getByRole("heading", { level: 1, name: "Join 50,000+ Homeowners" })).toBeVisible();
  });
});

test.describe("'About Us' from another page", () => {
  test("scrolls to the about section even when the home page takes well over 100 ms to arrive", async ({ page }) => {
    await page.goto("/login");
    // Hold back what the home page needs on a client-side navigation: its code, the route
    // manifest and its data, as a slow phone on a slow network would.
    const slow = (url: URL) =>
      /\/assets\/home-[^/]*\.js$/.test(url.pathname) || url.pathname.endsWith(".data") || url.pathname.startsWith("/__manifest");
    let held = 0;
    await page.route(slow, async (route) => {
      held++;
      await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
    expect(held).toBeGreaterThan(0);
    await expectScrolledToAbout(page);
  });

  test("from the footer too", async ({ page }) => {
    await page.goto("/contact-us");
    await page.getByRole("contentinfo").getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectScrolledToAbout(page);
  });
});

test.describe("'Knowledge' links", () => {
  test("lead a visitor who is not signed in to the members-only gate", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Knowledge/ });
    await expect(header).toHaveText(/Knowledge\s*Members Only/);
    await header.click();
    await expect(page).toHaveURL(/\/members-only$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join 50,000+ Homeowners");

    await page.goto("/contact-us");
    await page.getByRole("contentinfo").getByRole("link", { name: "Knowledge Center" }).click();
    await expect(page).toHaveURL(/\/members-only$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join 50,000+ Homeowners");

    // The address typed directly leads there too.
    await page.goto("/knowledge-center");
    await expect(page).toHaveURL(/\/members-only$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join 50,000+ Homeowners");

    // And so does the home page's 'Visit the Knowledge Center'.
    await page.goto("/");
    await page.getByRole("link", { name: "Visit the Knowledge Center" }).click();
    await expect(page).toHaveURL(/\/members-only$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join 50,000+ Homeowners");
  });

  test("the mobile menu's 'Knowledge' leads there as well", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    await page
      .getByRole("navigation", { name: "Mobile" })
      .getByRole("link", { name: /Knowledge/ })
      .click();
    await expect(page).toHaveURL(/\/members-only$/);
  });

  test("lead a signed-in member to the knowledge center", async ({ page, signIn }) => {
    await signIn("member", { firstName: "Kim" });
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
    await expect(page).toHaveURL(/\/knowledge-center$/);
    await expect(page.getByRole("heading", { name: "Authentication Required" })).toHaveCount(0);
    await page.getByRole("contentinfo").getByRole("link", { name: "Knowledge Center" }).click();
    await expect(page).toHaveURL(/\/knowledge-center$/);
    await page.goto("/");
    await page.getByRole("link", { name: "Visit the Knowledge Center" }).click();
    await expect(page).toHaveURL(/\/knowledge-center$/);
  });
});
