import type { Locator } from "@playwright/test";
import { E2E_BASE } from "./env";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const CONFIRMATION_PATHS = ["/confirm-email", "/auth/confirm", "/auth/callback", "/email-confirmation"];

/** The pages of this suite, with a text each one must show. */
const PAGES = [
  { path: "/", heading: "American Homeowners Association" },
  { path: "/about-us", heading: "Standing behind homeowners and the homes they love" },
  { path: "/membership-benefits", heading: "Everything you need to buy, protect and keep your home" },
  { path: "/members-only", heading: "Join 50,000+ Homeowners" },
  { path: "/privacy-policy", heading: "Privacy Policy" },
  { path: "/confirm-email?type=signup&access_token=a&refresh_token=r", heading: "Email Confirmed" },
  { path: "/auth/confirm", heading: "Confirmation Failed" },
  { path: "/login", heading: "Member Login" },
  { path: "/no-such-page", heading: "Page not found" },
];

test.describe("marketing pages", () => {
  test("home: hero, about section, mission, how we help, financial protection, get started", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "American Homeowners Association" })).toBeVisible();
    const main = page.getByRole("main");
    for (const name of [
      "About Us",
      "Our Mission",
      "How We Help Homeowners",
      "Buying a Home",
      "Selling Your Home",
      "Financial Protection",
      "Ready to Get Started",
    ]) {
      await expect(main.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    await expect(page.locator("section#about")).toContainText("new owners and recent refinancers");
    await expect(
      main.getByText("Insurance is effective on the 1st of the month after approval and receipt of the first month's payment."),
    ).toBeVisible();
    await expect(main.getByRole("link", { name: "Contact Us Today" })).toHaveAttribute("href", "/contact-us");

    await main.getByRole("link", { name: "About Us" }).click();
    await expect(page.locator("#about")).toBeInViewport();
  });

  test("home: the featured articles' code comes after the page; when it cannot be fetched the block says so and the page works", async ({
    page,
  }) => {
    // Not in the page's own tags: the block's cards are fetched once the page has loaded.
    const html = await (await page.request.get("/")).text();
    expect(html).not.toMatch(/FeaturedCards-[\w-]+\.js/);
    await page.route("**/assets/FeaturedCards-*.js", (route) => route.abort());
    await page.goto("/");
    const block = page.getByTestId("featured-articles");
    await expect(block.getByRole("alert")).toHaveText("Failed to load articles");
    await expect(block.getByTestId("featured-skeleton")).toHaveCount(0);
    await expect(block.getByRole("link", { name: "Visit the Knowledge Center" })).toHaveAttribute("href", "/members-only");
    // The page is hydrated all the same: the header's menu still opens.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
  });

  test("'Become a Member' opens a dialog with the price, coverage and start date, and closes", async ({ page }) => {
    await page.goto("/");
    const open = page.getByRole("button", { name: "Become a Member" });
    await open.click();
    const dialog = page.getByRole("dialog", { name: "Become a Member" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("$19.95");
    await expect(dialog).toContainText("per month");
    await expect(dialog).toContainText("accidental death and dismemberment");
    await expect(dialog).toContainText(
      "Insurance is effective on the 1st of the month after approval and receipt of the first month's payment.",
    );
    await expect(dialog.getByRole("link", { name: "(800) 555-0142" })).toHaveAttribute("href", "tel:8005550142");
    await expectNoAxeViolations(page);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    await open.click();
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog).toBeHidden();

    await open.click();
    await dialog.getByRole("button", { name: "Apply Now" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("dialog", { name: "Apply Now" })).toBeVisible();
    await page.keyboard.press("Escape");

    await open.click();
    await dialog.getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect(dialog).toBeHidden();
  });

  test("about page: mission, statistics, plans, support and its two calls to action", async ({ page }) => {
    await page.goto("/about-us");
    const main = page.getByRole("main");
    for (const name of ["Our Mission", "Home Protection Plans", "Member Support"]) {
      await expect(main.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    for (const [value, label] of [
      ["75,000+", "Families served"],
      ["50,000+", "Homes protected"],
      ["$5B+", "Coverage secured"],
    ]) {
      await expect(main.getByText(value, { exact: true })).toBeVisible();
      await expect(main.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(main.getByRole("link", { name: "Explore Coverage Options" })).toHaveAttribute("href", "/application");
    await expect(main.getByRole("link", { name: "Contact Our Team" })).toHaveAttribute("href", "/contact-us");
  });

  test("membership benefits: exactly the six cards and 'Apply Now' to /application", async ({ page }) => {
    await page.goto("/membership-benefits");
    const list = page
      .getByRole("main")
      .getByRole("list")
      .filter({ has: page.getByRole("heading", { name: "Home Warranty Protection" }) });
    await expect(list.getByRole("heading", { level: 3 })).toHaveText([
      "Home Warranty Protection",
      "Member Network Access",
      "Expert Consultation",
      "Educational Resources",
      "Financial Tools",
      "Home Maintenance Support",
    ]);
    await expect(page.getByRole("main").getByRole("link", { name: "Apply Now" })).toHaveAttribute("href", "/application");
    await expect(page.getByRole("main")).toContainText("$19.95");
  });

  test("members-only gate: headline, 'Become a Member' to /application and 'Member Login' to /login", async ({ page }) => {
    await page.goto("/members-only");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Join 50,000+ Homeowners");
    await expect(main.getByRole("link", { name: "Become a Member" })).toHaveAttribute("href", "/application");
    await main.getByRole("link", { name: "Member Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("joining tells one story: the online application is for signed-in members, everyone else applies through the team", async ({
    page,
  }) => {
    const story =
      "The online membership application is for signed-in members: sign in to fill it in. Not a member yet? Call our member services team at (800) 555-0142 or e-mail info@aha-homeowners.org and we will take your application with you.";
    const expectStory = async (where: Locator, label: string) => {
      const note = where.getByTestId("joining-note");
      await expect(note, label).toHaveText(story);
      await expect(note.getByRole("link", { name: "sign in" }), label).toHaveAttribute("href", "/login?redirectTo=%2Fapplication");
      await expect(note.getByRole("link", { name: "(800) 555-0142" }), label).toHaveAttribute("href", "tel:8005550142");
    };

    // The dialogs: Apply Now from the header, the footer and the login page (the spec's words kept), and Become a Member.
    const applyNow = page.getByRole("dialog", { name: "Apply Now" });
    await page.goto("/");
    for (const [label, opener] of [
      ["header", page.getByRole("banner").getByRole("button", { name: "Apply Now" })],
      ["footer", page.getByRole("contentinfo").getByRole("button", { name: "Apply Now" })],
    ] as const) {
      await opener.click();
      await expect(applyNow, label).toContainText("Online applications are coming soon.");
      await expectStory(applyNow, label);
      await expect(applyNow.getByRole("link", { name: "Contact Us" })).toBeVisible();
      await expect(applyNow.getByRole("button", { name: "Close", exact: true })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(applyNow).toBeHidden();
    }
    await page.getByRole("main").getByRole("button", { name: "Become a Member" }).click();
    await expectStory(page.getByRole("dialog", { name: "Become a Member" }), "Become a Member");
    await page.keyboard.press("Escape");
    await page.goto("/login");
    await page.getByRole("button", { name: "Apply for membership" }).click();
    await expectStory(applyNow, "login");
    await page.keyboard.press("Escape");

    // The pages' links to /application say it beside the link.
    for (const [path, name] of [
      ["/about-us", "Explore Coverage Options"],
      ["/membership-benefits", "Apply Now"],
      ["/members-only", "Become a Member"],
    ]) {
      await page.goto(path);
      const main = page.getByRole("main");
      await expect(main.getByRole("link", { name }), path).toHaveAttribute("href", "/application");
      await expectStory(main, path);
    }

    // And so does the login wall of /application; other walls do not talk about applying.
    await page.goto("/application");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Authentication Required");
    await expect(main).toContainText("You must be logged in to access this area");
    await expectStory(main, "/application");
    await expect(main.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login?redirectTo=%2Fapplication");
    await expect(main.getByRole("link", { name: "Back to Home" })).toBeVisible();
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Authentication Required");
    await expect(page.getByTestId("joining-note")).toHaveCount(0);
  });

  test("a signed-in member follows the pages' application links without the visitors' note", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/membership-benefits");
    await expect(page.getByRole("main").getByTestId("joining-note")).toHaveCount(0);
    await page.getByRole("main").getByRole("link", { name: "Apply Now" }).click();
    await expect(page).toHaveURL(/\/application$/);
    await expect(page.getByRole("button", { name: "Submit Application" })).toBeVisible();
  });

  test("a signed-in member is offered no Apply Now in the header; Become a Member leads to the form, without asking them to sign in", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(120_000);
    await signIn("member");
    const story =
      "You are signed in, so you can fill in the online membership application now. Questions? Call our member services team at (800) 555-0142 or e-mail info@aha-homeowners.org.";
    await page.goto("/");
    // Apply Now is for visitors (issue 48 §4.13): a member is already one, staff are not applicants.
    await expect(page.getByRole("main").getByRole("button", { name: "Become a Member" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("button", { name: "Apply Now" })).toHaveCount(0);
    await page.getByRole("main").getByRole("button", { name: "Become a Member" }).click();
    const become = page.getByRole("dialog", { name: "Become a Member" });
    await expect(become.getByTestId("joining-note")).toHaveText(story);
    await expect(become.getByRole("link", { name: "sign in" })).toHaveCount(0);
    await become.getByRole("link", { name: "fill in the online membership application" }).click();
    await expect(page).toHaveURL(/\/application$/);
    await expect(page.getByRole("button", { name: "Submit Application" })).toBeVisible();
  });

  test("privacy policy: nine sections, dates and the under-13 statement", async ({ page }) => {
    await page.goto("/privacy-policy");
    const main = page.getByRole("main");
    await expect(main).toContainText("Effective date: January 1, 2022");
    await expect(main).toContainText("Last updated: January 1, 2024");
    const sections = main.getByRole("article").getByRole("heading", { level: 2 });
    await expect(sections).toHaveCount(9);
    await expect(sections.first()).toHaveText("1. Information We Collect");
    await expect(sections.last()).toHaveText("9. Changes to This Policy and How to Contact Us");
    await expect(main).toContainText("We do not serve children under 13");
    await main.getByRole("navigation", { name: "Policy sections" }).getByRole("link", { name: "Children's Privacy" }).click();
    await expect(page).toHaveURL(/#childrens-privacy$/);
    await expect(main.getByRole("heading", { name: "8. Children's Privacy" })).toBeInViewport();
  });
});

test.describe("email confirmation", () => {
  const cases = [
    { query: "", status: "error", message: "Invalid confirmation link. Please check your email for a new confirmation link." },
    {
      query: "?type=signup&refresh_token=r",
      status: "error",
      message: "Invalid confirmation link. Please check your email for a new confirmation link.",
    },
    {
      query: "?type=signup&access_token=a&refresh_token=r",
      status: "success",
      message: "Your email has been confirmed successfully! You can now log in to your account.",
    },
    { query: "?type=email_change&token_hash=h", status: "success", message: "Your email change has been confirmed successfully!" },
    { query: "?type=recovery&access_token=a", status: "success", message: "Password recovery confirmed. You can now set a new password." },
    { query: "?token_hash=h", status: "success", message: "Email confirmation successful!" },
    { query: "?type=signup&access_token=a", status: "success", message: "Email confirmation successful!" },
  ] as const;

  for (const [i, c] of cases.entries()) {
    const path = `${CONFIRMATION_PATHS[i % CONFIRMATION_PATHS.length]}${c.query}`;
    test(`${path} shows the loading state, then ${c.status}`, async ({ page }) => {
      const calls: string[] = [];
      page.on("request", (req) => {
        // React Router's route-manifest requests are the router's, not the page's.
        if (["fetch", "xhr"].includes(req.resourceType()) && !req.url().includes("/__manifest")) calls.push(req.url());
      });
      // The page's clock stands still until the loading state has been seen: on a busy
      // machine the page's second could otherwise pass before the first check.
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 60_000);
      await page.goto(path);
      await expect(page.getByRole("heading", { name: "Confirming your email" })).toBeVisible();
      // "About 1 second" of loading state (spec), counted on the page's clock.
      await page.clock.runFor(900);
      await expect(page.getByRole("heading", { name: "Confirming your email" })).toBeVisible();
      await page.clock.runFor(100);
      await expect(page.getByText(c.message)).toBeVisible();
      await expect(page.getByRole("heading", { name: "Confirming your email" })).toBeHidden();
      await expect(page.getByRole("heading", { name: c.status === "success" ? "Email Confirmed" : "Confirmation Failed" })).toBeVisible();
      const main = page.getByRole("main");
      await expect(main.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
      await expect(main.getByRole("link", { name: "Go to Login" })).toHaveCount(c.status === "success" ? 1 : 0);
      expect(calls, "the page makes no call").toEqual([]);
    });
  }

  test("'Go to Login' leads to the login page, 'Back to Home' to the home page", async ({ page }) => {
    await page.goto("/auth/callback?type=signup&access_token=a&refresh_token=r");
    await page.getByRole("main").getByRole("link", { name: "Go to Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/email-confirmation");
    await page.getByRole("main").getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL(new RegExp(`^${E2E_BASE}/$`));
  });

  test("the confirmation page keeps its tokens out of canonical and share URLs", async ({ page }) => {
    await page.goto("/confirm-email?type=signup&access_token=secret-a&refresh_token=secret-r");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${E2E_BASE}/confirm-email`);
    expect(await page.locator("head").innerHTML()).not.toContain("secret-");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  });
});

test.describe("search engines and sharing", () => {
  test("robots.txt allows the site, keeps out the API and admin, and names the sitemap", async ({ request }) => {
    const res = await request.get("/robots.txt");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toContain("User-agent: *");
    expect(body).toContain("Disallow: /api/");
    expect(body).toContain("Disallow: /admin");
    expect(body).toContain(`Sitemap: ${E2E_BASE}/sitemap.xml`);
  });

  test("sitemap.xml lists exactly the indexable public pages with absolute URLs", async ({ request }) => {
    const res = await request.get("/sitemap.xml");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/xml/);
    const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(
      ["/", "/about-us", "/membership-benefits", "/contact-us", "/form-requests", "/make-payment", "/mortgage-calculator"].map((p) =>
        p === "/" ? `${E2E_BASE}/` : `${E2E_BASE}${p}`,
      ),
    );
  });

  test("every page has its own title and description, canonical URL, Open Graph and twitter tags", async ({ page }) => {
    const titles = new Set<string>();
    for (const path of ["/", "/about-us", "/membership-benefits", "/members-only", "/privacy-policy", "/confirm-email"]) {
      await page.goto(path);
      const title = await page.title();
      expect(title, path).toMatch(/American Homeowners Association/);
      titles.add(title);
      await expect(page.locator('meta[name="description"]'), path).toHaveAttribute("content", /\w{10}/);
      await expect(page.locator('link[rel="canonical"]'), path).toHaveAttribute("href", `${E2E_BASE}${path}`);
      await expect(page.locator('meta[property="og:url"]'), path).toHaveAttribute("content", `${E2E_BASE}${path}`);
      await expect(page.locator('meta[property="og:title"]'), path).toHaveAttribute("content", title);
      await expect(page.locator('meta[property="og:image"]'), path).toHaveAttribute("content", `${E2E_BASE}/share-card.png`);
      await expect(page.locator('meta[name="twitter:card"]'), path).toHaveAttribute("content", "summary_large_image");
      await expect(page.locator('meta[name="twitter:image"]'), path).toHaveAttribute("content", `${E2E_BASE}/share-card.png`);
    }
    expect(titles.size).toBe(6);
  });

  test("the share image is a 1200x630 PNG served by the site", async ({ request }) => {
    const res = await request.get("/share-card.png");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
    const png = await res.body();
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  test("noindex on /members-only, /privacy-policy and /login only", async ({ page }) => {
    for (const path of ["/members-only", "/privacy-policy", "/login"]) {
      await page.goto(path);
      await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute("content", /noindex/);
    }
    for (const path of ["/", "/about-us", "/membership-benefits"]) {
      await page.goto(path);
      await expect(page.locator('meta[name="robots"]'), path).toHaveCount(0);
    }
  });

  test("pictures come from the site itself", async ({ page }) => {
    const foreign: string[] = [];
    page.on("request", (req) => {
      if (!req.url().startsWith(E2E_BASE) && !req.url().startsWith("data:")) foreign.push(req.url());
    });
    for (const path of ["/", "/about-us", "/membership-benefits", "/members-only"]) {
      await page.goto(path);
      for (const img of await page.locator("main img").all()) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { message: path }).toBe(true);
      }
    }
    expect(foreign).toEqual([]);
  });
});

test.describe("accessibility", () => {
  for (const width of [1280, 390]) {
    for (const { path, heading } of PAGES) {
      test(`axe finds no violation on ${path} at ${width}px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expectNoAxeViolations(page);
      });
    }
  }
});

test.describe("without JavaScript", () => {
  test("every page reads fully, and the confirmation result shows at once", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const { path, heading } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
    }
    await page.goto("/");
    for (const name of ["Our Mission", "How We Help Homeowners", "Financial Protection", "Ready to Get Started"]) {
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    await page.goto("/auth/callback?type=email_change&token_hash=h");
    await expect(page.getByText("Your email change has been confirmed successfully!")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Confirming your email" })).toBeHidden();
    await expect(page.getByRole("main").getByRole("link", { name: "Go to Login" })).toBeVisible();
    await page.goto("/confirm-email");
    await expect(page.getByText("Invalid confirmation link. Please check your email for a new confirmation link.")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Go to Login" })).toHaveCount(0);
    await context.close();
  });

  test("'Become a Member' falls back to the membership benefits page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Become a Member" }).click();
    await expect(page).toHaveURL(/\/membership-benefits\??$/);
    await expect(page.getByRole("main")).toContainText("$19.95");
    await context.close();
  });
});
