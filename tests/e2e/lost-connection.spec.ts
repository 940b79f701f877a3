import type { Locator, Page } from "@playwright/test";
import { CONNECTION_LOST, REQUEST_TIMEOUT_MS } from "../../app/platform/json-client";
import { FORM_LOAD_FAILED } from "../../app/components/forms/afterPage";
import { CONTACT_DRAFT_KEY } from "../../app/features/contact/draft";
import { MEMBER_PASSWORD, createAccount, expect, test } from "./fixtures";

/**
 * Issue 48: a request that never answers, and a form whose code never comes. The page's clock
 * is Playwright's: time moves only when the test says, so nothing here waits 30 real seconds.
 */

/** Waits until React has hydrated `element` (a click before that posts the form without JavaScript). */
async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { timeout: 30_000 })
    .toBe(true);
}

/** From here on the page's time moves only when the test says so. */
async function stopTheClock(page: Page) {
  await page.clock.pauseAt(Date.now() + 60_000);
}

test.beforeEach(async ({ services }) => {
  await services.database.db.deleteFrom("rate_limits").where("key", "like", "submit_%").execute();
});

test("a message whose send never answers says the connection seems lost after 30 s and gives the button back; the draft is kept", async ({
  page,
}) => {
  await page.clock.install();
  // The send is held: no answer ever comes.
  await page.route("**/api/forms", () => {});
  await page.goto("/contact-us");
  const send = page.getByRole("button", { name: "Send Message" });
  await hydrated(send);
  await page.getByLabel("Full Name").fill("Robin Fields");
  await page.getByLabel("Email Address").fill("held@example.com");
  await page.getByLabel("Subject").selectOption("warranty");
  await page.getByLabel("Message", { exact: true }).fill("Is hail damage covered?");
  await stopTheClock(page);
  await send.click();
  const sending = page.getByRole("button", { name: "Sending..." });
  await expect(sending).toBeDisabled();
  await page.clock.runFor(REQUEST_TIMEOUT_MS - 1_000);
  await expect(sending).toBeVisible();
  await page.clock.runFor(1_500);
  await expect(page.getByTestId("contact-failure")).toContainText(CONNECTION_LOST);
  await expect(send).toBeEnabled();
  // What was typed stays, in the form and kept for the next visit.
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Is hail damage covered?");
  expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), CONTACT_DRAFT_KEY)) ?? "{}")).toMatchObject({
    email: "held@example.com",
    message: "Is hail damage covered?",
  });
});

test("a sign-in that never answers says the connection seems lost and gives the button back", async ({ page, services }) => {
  const member = await createAccount(services, "member");
  await page.clock.install();
  await page.route("**/api/auth/login", () => {});
  await page.goto("/login");
  const button = page.getByRole("button", { name: "Sign In", exact: true });
  await hydrated(button);
  await page.getByLabel("Certificate Number").fill(member.certificate!);
  await page.getByLabel("Date of Birth", { exact: true }).fill(MEMBER_PASSWORD);
  await stopTheClock(page);
  await button.click();
  const signingIn = page.getByRole("button", { name: "Signing in..." });
  await expect(signingIn).toBeDisabled();
  await page.clock.runFor(REQUEST_TIMEOUT_MS + 500);
  await expect(page.getByRole("alert")).toContainText(CONNECTION_LOST);
  await expect(button).toBeEnabled();
  await expect(page.getByLabel("Certificate Number")).toHaveValue(member.certificate!);
});

test("a form whose code cannot be fetched after a link says so and offers to reload the page, which brings the form", async ({ page }) => {
  let blocked = true;
  let refused = 0;
  await page.route(/\/assets\/ContactForm-[\w-]+\.js$/, (route) => {
    if (!blocked) return route.continue();
    refused++;
    return route.abort();
  });
  await page.goto("/");
  const link = page.getByRole("banner").getByRole("link", { name: "Contact Us" });
  await hydrated(link);
  await link.click();
  await expect(page).toHaveURL(/\/contact-us$/);
  const failure = page.getByRole("alert").filter({ hasText: FORM_LOAD_FAILED });
  await expect(failure).toBeVisible();
  expect(refused).toBeGreaterThan(0);
  await expect(page.getByText("Loading the form…")).toHaveCount(0);
  blocked = false;
  await failure.getByRole("button", { name: "Reload the page" }).click();
  await expect(page.getByRole("button", { name: "Send Message" })).toBeVisible();
  await expect(failure).toHaveCount(0);
});
