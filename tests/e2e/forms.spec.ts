import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { CONTACT_DRAFT_KEY } from "../../app/features/contact/draft";
import { CONTACT_FAILURE, CONTACT_SUCCESS } from "../../app/features/contact/contact-info";
import { INVALID_FORM_SELECTION, REQUEST_SUCCESS } from "../../app/features/form-requests/messages";
import { E2E_BASE } from "./env";
import { expect, expectFieldError, expectNoAxeViolations, test } from "./fixtures";
import { startSecondSite } from "./second-site";
import { storedByEmail } from "../support/submission-fixtures";

const unique = () => crypto.randomBytes(4).toString("hex");

// Every browser test posts from 127.0.0.1: start each with the per-IP form limit clear, so the
// number of submissions in this suite (or a retry) never trips it. The limit has its own API tests.
test.beforeEach(async ({ services }) => {
  await services.database.db.deleteFrom("rate_limits").where("key", "like", "submit_%").execute();
});

async function fillContact(page: Page, email: string, message = "Is storm damage to my fence covered by the plan?") {
  await page.getByLabel("Full Name").fill("Robin Fields");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Phone Number").fill("(203) 555-0147");
  await page.getByLabel("Subject").selectOption("warranty");
  await page.getByLabel("Message", { exact: true }).fill(message);
}

test.describe("contact form", () => {
  test("shows contact details and hours, and a sent message is stored with the thank-you text", async ({ page, services }) => {
    await page.goto("/contact-us");
    await expect(page.getByRole("link", { name: "(800) 555-0142" }).first()).toBeVisible();
    const hours = page.getByTestId("business-hours");
    await expect(hours).toContainText("Monday to Friday8:00 AM to 6:00 PM EST");
    await expect(hours).toContainText("Saturday9:00 AM to 3:00 PM EST");
    await expect(hours).toContainText("SundayClosed");
    await expect(page.getByLabel("Subject").locator("option")).toHaveText([
      "Select a subject",
      "Membership Questions",
      "Home Warranty Claims",
      "Billing Inquiry",
      "Technical Support",
      "General Information",
      "Feedback/Suggestions",
    ]);

    const email = `robin-${unique()}@example.com`;
    await fillContact(page, email);
    const posted = page.waitForRequest("**/api/forms");
    await page.getByRole("button", { name: "Send Message" }).click();
    expect((await posted).postDataJSON()).toMatchObject({ name: "Robin Fields", email, subject: "warranty", phone: "(203) 555-0147" });
    await expect(page.getByTestId("contact-success")).toHaveText(CONTACT_SUCCESS);

    const row = await storedByEmail(services.database.db, "contact_messages", email);
    expect(row).toMatchObject({ name: "Robin Fields", subject: "warranty", status: "pending" });
  });

  test("the form's code comes after the page: what is typed before it has come stays, and is checked once it has", async ({ page }) => {
    // Hold the form's chunk (its component, Conform and zod) until the page has been typed in.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    await page.route(/\/assets\/ContactForm-[\w-]+\.js$/, async (route) => {
      asked.push(new URL(route.request().url()).pathname);
      await held;
      await route.continue();
    });
    await page.goto("/contact-us");
    await expect.poll(() => asked.length, { message: "the page asks for the form's code after it has loaded" }).toBe(1);
    const name = page.getByLabel("Full Name");
    const email = page.getByLabel("Email Address");
    await name.fill("Robin Fields");
    await email.fill("robin@");
    release();

    const message = page.getByText("Please enter a valid email address, like name@example.com");
    await expect(async () => {
      await email.focus();
      await email.blur();
      await expect(message).toBeVisible({ timeout: 500 });
    }).toPass();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveValue("Robin Fields");
    await expect(email).toHaveValue("robin@");
  });

  test("validates as you go: field errors, aria-invalid, aria-describedby and a summary", async ({ page }) => {
    await page.goto("/contact-us");
    const email = page.getByLabel("Email Address");
    await email.fill("robin@");
    await email.blur();
    await expect(page.getByText("Please enter a valid email address, like name@example.com")).toBeVisible();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Please enter a valid email address, like name@example.com");
    await email.fill("robin@example.com");
    await expect(email).not.toHaveAttribute("aria-invalid", "true");

    await page.getByRole("button", { name: "Send Message" }).click();
    const summary = page.getByTestId("error-summary");
    await expect(summary).toBeFocused();
    await expect(summary).toContainText("Please correct 3 fields");
    await expect(summary.getByRole("link")).toHaveText([
      "Full Name: Please enter your name",
      "Subject: Please choose a subject",
      "Message: Please enter your message",
    ]);
    await summary.getByRole("link", { name: /Subject/ }).click();
    await expect(page.getByLabel("Subject")).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test("a failed send keeps the message in local storage and brings it back until it is sent", async ({ page, services }) => {
    await page.goto("/contact-us");
    const email = `draft-${unique()}@example.com`;
    await fillContact(page, email, "Please call me about my renewal.");
    await page.route("**/api/forms", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false,"error":"Internal server error"}' }),
    );
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByTestId("contact-failure").locator("p").first()).toHaveText(CONTACT_FAILURE);
    expect(JSON.parse((await page.evaluate((key) => localStorage.getItem(key), CONTACT_DRAFT_KEY)) ?? "{}")).toMatchObject({
      email,
      message: "Please call me about my renewal.",
    });

    // A network failure gives the same message.
    await page.unroute("**/api/forms");
    await page.route("**/api/forms", (route) => route.abort());
    await page.getByLabel("Message", { exact: true }).fill("Please call me about my renewal, after 5 pm.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByTestId("contact-failure").locator("p").first()).toHaveText(CONTACT_FAILURE);

    await page.unroute("**/api/forms");
    await page.reload();
    await expect(page.getByTestId("contact-draft-restored")).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveValue(email);
    await expect(page.getByLabel("Subject")).toHaveValue("warranty");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Please call me about my renewal, after 5 pm.");

    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByTestId("contact-success")).toHaveText(CONTACT_SUCCESS);
    expect(await page.evaluate((key) => localStorage.getItem(key), CONTACT_DRAFT_KEY)).toBeNull();
    const rows = await services.database.db.selectFrom("contact_messages").selectAll().where("email", "=", email).execute();
    expect(rows.map((r) => r.message)).toEqual(["Please call me about my renewal, after 5 pm."]);

    await page.reload();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
    await expect(page.getByTestId("contact-draft-restored")).toHaveCount(0);
  });

  test("works without JavaScript: field errors from the server, then the thank-you text", async ({ browser, services }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/contact-us");
    const email = `nojs-${unique()}@example.com`;
    await fillContact(page, email);
    await page.getByLabel("Phone Number").fill("call me");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Please enter a valid phone number, like (555) 123-4567").first()).toBeVisible();
    await expect(page.getByLabel("Phone Number")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("Is storm damage to my fence covered by the plan?");

    await page.getByLabel("Phone Number").fill("");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByTestId("contact-success")).toHaveText(CONTACT_SUCCESS);
    const row = await storedByEmail(services.database.db, "contact_messages", email);
    expect(row).toMatchObject({ phone: null, status: "pending" });
    await context.close();
  });
});

test("contact without JavaScript: an empty form shows each field's message beside it and a summary", async ({ browser, services }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/contact-us");
  // Other tests store contact messages meanwhile: what must not appear is a row from this empty form.
  const { last } = await services.database.db
    .selectFrom("contact_messages")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirstOrThrow();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Send Message" }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expectFieldError(page, "Full Name", "Please enter your name");
  await expectFieldError(page, "Email Address", "Please enter your email address");
  await expectFieldError(page, "Subject", "Please choose a subject");
  await expectFieldError(page, "Message", "Please enter your message");
  await expect(page.getByLabel("Phone Number")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("error-summary")).toContainText("Please correct 4 fields");
  const stored = await services.database.db
    .selectFrom("contact_messages")
    .select("id")
    .where("id", ">", Number(last ?? 0))
    .where((eb) => eb.or([eb("name", "=", ""), eb("email", "=", ""), eb("message", "=", "")]))
    .execute();
  expect(stored).toEqual([]);
  await context.close();
});

test.describe("form requests", () => {
  test("'Select a Form', a CPA request with the name split, then the form resets and the selection clears", async ({ page, services }) => {
    await page.goto("/form-requests");
    await expect(page.getByRole("heading", { name: "Select a Form" })).toBeVisible();
    await page.getByRole("link", { name: /CPA Request/ }).click();
    await expect(page).toHaveURL(/\/form-requests\?form=cpa$/);
    await expect(page.getByRole("heading", { name: "CPA Request" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Select a Form" })).toHaveCount(0);

    const email = `cpa-${unique()}@example.com`;
    await page.getByLabel("Full Name").fill("Mary Ann Smith");
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Membership ID").fill("AHA-2040");
    await page.getByLabel("Additional Information").fill("2024 premium statement for my CPA, please.");
    const posted = page.waitForRequest("**/api/submit-cpa-request");
    await page.getByRole("button", { name: "Submit Request" }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      first_name: "Mary",
      last_name: "Ann Smith",
      email,
      phone: null,
      firm_name: null,
      city: null,
      state: null,
      zip: null,
      notes: "2024 premium statement for my CPA, please.",
    });
    await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
    await expect(page).toHaveURL(/\/form-requests$/);
    await expect(page.getByRole("heading", { name: "Select a Form" })).toBeVisible();

    // Choosing the same form again shows it empty.
    await page.getByRole("link", { name: /CPA Request/ }).click();
    await expect(page.getByLabel("Full Name")).toHaveValue("");
    await expect(page.getByTestId("request-success")).toHaveCount(0);

    const row = await storedByEmail(services.database.db, "cpa_requests", email);
    expect(row).toMatchObject({ first_name: "Mary", last_name: "Ann Smith", member_id: "AHA-2040", status: "pending" });
  });

  test("a homeowner material request posts to /api/submit-material-request", async ({ page, services }) => {
    await page.goto("/form-requests?form=homeowner");
    const email = `home-${unique()}@example.com`;
    await page.getByLabel("Full Name").fill("Cher");
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Materials Requested").fill("Home maintenance checklist");
    const posted = page.waitForRequest("**/api/submit-material-request");
    await page.getByRole("button", { name: "Submit Request" }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      first_name: "Cher",
      last_name: null,
      materials_requested: "Home maintenance checklist",
    });
    await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
    await expect(page.getByRole("heading", { name: "Select a Form" })).toBeVisible();
    const row = await storedByEmail(services.database.db, "homeowner_material_requests", email);
    expect(row).toMatchObject({ first_name: "Cher", materials_requested: "Home maintenance checklist", status: "pending" });
  });

  test("a homeowner material request can carry a mailing address; a bad state or ZIP is explained", async ({ page, services }) => {
    await page.goto("/form-requests?form=homeowner");
    const email = `mail-${unique()}@example.com`;
    await page.getByLabel("Full Name").fill("Dana Ruiz");
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Materials Requested").fill("Printed hurricane guide");
    const address = page.getByRole("group", { name: "Mailing Address (optional)" });
    await expect(address).toContainText("Where we should mail printed materials.");
    await address.getByLabel("Street Address").fill("12 Elm Street");
    await address.getByLabel("Apartment, Suite or Unit").fill("Apt 4");
    await address.getByLabel("City").fill("Stamford");
    await address.getByLabel("State").fill("C1");
    await address.getByLabel("ZIP Code").fill("0690");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("error-summary")).toContainText("Please enter the 2-letter state code, like CT");
    await expect(page.getByTestId("error-summary")).toContainText("Please enter a valid ZIP code, like 06905 or 06905-1234");
    await expect(address.getByLabel("State")).toHaveAttribute("aria-invalid", "true");
    for (const width of [1280, 375, 320]) {
      await page.setViewportSize({ width, height: 900 });
      await address.screenshot({ path: `.tmp/shots/material-address-${width}.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await address.getByLabel("State").fill("ct");
    await address.getByLabel("ZIP Code").fill("069051234");
    const posted = page.waitForRequest("**/api/submit-material-request");
    await page.getByRole("button", { name: "Submit Request" }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      address1: "12 Elm Street",
      address2: "Apt 4",
      city: "Stamford",
      state: "CT",
      zip: "06905-1234",
    });
    await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
    const row = await services.database.db
      .selectFrom("homeowner_material_requests")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ address1: "12 Elm Street", address2: "Apt 4", city: "Stamford", state: "CT", zip: "06905-1234" });
  });

  test("the CPA request has no mailing address", async ({ page }) => {
    await page.goto("/form-requests?form=cpa");
    await expect(page.getByLabel("Full Name")).toBeVisible();
    await expect(page.getByRole("group", { name: "Mailing Address (optional)" })).toHaveCount(0);
    await expect(page.getByLabel("Street Address")).toHaveCount(0);
  });

  test("failures: 'HTTP {status}: {body}' for an error answer, the network error otherwise; the form keeps its values", async ({
    page,
  }) => {
    await page.goto("/form-requests?form=cpa");
    await page.getByLabel("Full Name").fill("Lee Park");
    await page.getByLabel("Email Address").fill("lee@example.com");
    await page.route("**/api/submit-cpa-request", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false,"error":"Internal server error"}' }),
    );
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("request-failure")).toHaveText(
      "There was an error submitting your request: HTTP 500: Internal server error. Please try again.",
    );
    await expect(page.getByLabel("Full Name")).toHaveValue("Lee Park");

    await page.unroute("**/api/submit-cpa-request");
    await page.route("**/api/submit-cpa-request", (route) =>
      route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" }),
    );
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("request-failure")).toHaveText(
      "There was an error submitting your request: HTTP 503: Service Unavailable. Please try again.",
    );

    await page.unroute("**/api/submit-cpa-request");
    await page.route("**/api/submit-cpa-request", (route) => route.abort());
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("request-failure")).toHaveText(/^There was an error submitting your request: .+\. Please try again\.$/);
    await expect(page.getByTestId("request-success")).toHaveCount(0);
    await expect(page.getByLabel("Email Address")).toHaveValue("lee@example.com");
  });

  test("an unknown selection says 'Invalid form selection'", async ({ page }) => {
    await page.goto("/form-requests?form=mortgage");
    await expect(page.getByTestId("request-invalid")).toHaveText(INVALID_FORM_SELECTION);
    await expect(page.getByRole("heading", { name: "Select a Form" })).toBeVisible();
  });

  test("works without JavaScript", async ({ browser, services }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/form-requests");
    await page.getByRole("link", { name: /Homeowner Material Request/ }).click();
    const email = `nojs-home-${unique()}@example.com`;
    await page.getByLabel("Full Name").fill("Ana Lopez Garcia");
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Membership ID").fill("AHA 1");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByText("Membership ID may contain only letters, numbers and dashes").first()).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue("Ana Lopez Garcia");

    await page.getByLabel("Membership ID").fill("AHA-1");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
    await expect(page.getByRole("heading", { name: "Select a Form" })).toBeVisible();
    const row = await services.database.db
      .selectFrom("homeowner_material_requests")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: "Ana", last_name: "Lopez Garcia", member_id: "AHA-1" });
    await context.close();
  });

  test("without JavaScript, each field's message shows beside it, with the values kept", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/form-requests?form=cpa");
    await page.getByLabel("Email Address").fill("lee@");
    await page.getByLabel("Phone Number").fill("call me");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expectFieldError(page, "Full Name", "Please enter your full name");
    await expectFieldError(page, "Email Address", "Please enter a valid email address, like name@example.com");
    await expectFieldError(page, "Phone Number (optional)", "Please enter a valid phone number, like (555) 123-4567");
    await expect(page.getByLabel("Email Address")).toHaveValue("lee@");
    await expect(page.getByTestId("error-summary")).toContainText("Please correct 3 fields");
    await expect(page.getByRole("heading", { name: "CPA Request" })).toBeVisible();
    await context.close();
  });

  test("the mailing address works without JavaScript too", async ({ browser, services }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/form-requests?form=homeowner");
    const email = `nojs-mail-${unique()}@example.com`;
    await page.getByLabel("Full Name").fill("Noel Park");
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Street Address").fill("1 Main St");
    await page.getByLabel("City").fill("Hartford");
    await page.getByLabel("State").fill("C");
    await page.getByLabel("ZIP Code").fill("06103");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByText("Please enter the 2-letter state code, like CT").first()).toBeVisible();
    await expect(page.getByLabel("Street Address")).toHaveValue("1 Main St");
    await page.getByLabel("State").fill("ct");
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
    const row = await services.database.db
      .selectFrom("homeowner_material_requests")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ address1: "1 Main St", address2: null, city: "Hartford", state: "CT", zip: "06103" });
    await context.close();
  });
});

test.describe("make payment", () => {
  test("the four options, a summary, then 'Leaving Our Site' opens the portal in a new tab", async ({ page }) => {
    await page.goto("/make-payment");
    for (const [value, text] of [
      ["membership", "Membership Fees$99.00/year"],
      ["warranty", "Home Warranty Premium$599.00/year"],
      ["services", "Additional ServicesVariable"],
      ["other", "Other PaymentCustom amount"],
    ]) {
      await expect(page.getByTestId(`payment-option-${value}`)).toContainText(text);
    }
    // No card data is asked for anywhere.
    await expect(
      page.locator('input[autocomplete^="cc-"], input[name*="card" i], input[name*="cvv" i], input[name*="expir" i]'),
    ).toHaveCount(0);

    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    await expect(page.getByTestId("error-summary")).toContainText("Please choose what you are paying for");

    await page.getByRole("radio", { name: /Other Payment/ }).check();
    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    await expect(page.getByTestId("error-summary")).toContainText("Please enter the amount you want to pay");
    await page.getByLabel("Amount (USD)").fill("42.5");
    await expect(page.getByTestId("payment-summary")).toContainText("$42.50");

    await page.getByRole("radio", { name: /Membership Fees/ }).check();
    // Typed in lower case, the ID shows as it is stored and printed on the certificate.
    await page.getByLabel("Membership ID").fill("aha123456");
    await expect(page.getByLabel("Membership ID")).toHaveValue("AHA123456");
    const summary = page.getByTestId("payment-summary");
    await expect(summary).toContainText("Membership Fees");
    await expect(summary).toContainText("AHA123456");
    await expect(summary).toContainText("$99.00");
    await expect(page.getByLabel("Amount (USD)")).toHaveValue("99.00");

    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    const dialog = page.getByRole("dialog", { name: "Leaving Our Site" });
    await expect(dialog).toBeVisible();
    const popup = page.waitForEvent("popup");
    await dialog.getByRole("link", { name: "Continue to Payment" }).click();
    expect((await popup).url()).toBe(`${E2E_BASE}/test-payment-portal`);
    await expect(dialog).toBeHidden();
  });

  test("what was typed reaches the payer: without placeholders in the portal address, Copy buttons beside the amount and the ID", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E_BASE });
    await page.goto("/make-payment");
    // The page and the dialog tell the same story: this portal address carries nothing, so both are pasted.
    await expect(page.getByTestId("portal-handover-note")).toHaveText(
      "Our secure payment portal opens in a new tab. You paste the amount and your membership ID there: the next step shows them, ready to copy.",
    );
    await page.getByRole("radio", { name: /Other Payment/ }).check();
    await page.getByLabel("Membership ID").fill("AHA-4550");
    await page.getByLabel("Amount (USD)").fill("45.50");
    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    const dialog = page.getByRole("dialog", { name: "Leaving Our Site" });
    await expect(dialog.getByTestId("payment-details")).toContainText("Other Payment");
    await expect(dialog.getByTestId("payment-member-id")).toHaveText("AHA-4550");
    await expect(dialog.getByTestId("payment-amount")).toHaveText("$45.50");
    await expect(dialog).toContainText("Paste the amount and your membership ID there");
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: ".tmp/shots/payment-dialog-copy-375.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: ".tmp/shots/payment-dialog-copy-1280.png" });

    await dialog.getByRole("button", { name: "Copy Amount" }).click();
    await expect(dialog.getByRole("button", { name: "Copied Amount" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("45.50");
    await dialog.getByRole("button", { name: "Copy Membership ID" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("AHA-4550");
    await expect(page.getByRole("status").filter({ hasText: "Membership ID copied" })).toBeAttached();

    const popup = page.waitForEvent("popup");
    await dialog.getByRole("link", { name: "Continue to Payment" }).click();
    expect((await popup).url()).toBe(`${E2E_BASE}/test-payment-portal`);
  });

  test("with {amount}, {memberId} and {option} in PAYMENT_PORTAL_URL the portal opens with them filled in", async ({ browser }) => {
    test.slow(); // starts a second copy of the site
    const site = await startSecondSite({
      PAYMENT_PORTAL_URL: `${E2E_BASE}/test-payment-portal?amount={amount}&member={memberId}&for={option}`,
    });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${site.url}/make-payment`);
      await expect(page.getByTestId("portal-handover-note")).toHaveText(
        "Our secure payment portal opens in a new tab, and we pass your amount and membership ID on to it.",
      );
      await page.getByRole("radio", { name: /Other Payment/ }).check();
      await page.getByLabel("Membership ID").fill("AHA-4550");
      await page.getByLabel("Amount (USD)").fill("45.5");
      await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Leaving Our Site" });
      await expect(dialog.getByTestId("payment-amount")).toHaveText("$45.50");
      await expect(dialog).toContainText("The portal opens in a new tab with these details filled in.");
      // The address carries both, so there is nothing to copy.
      await expect(dialog.getByRole("button", { name: /^Copy/ })).toHaveCount(0);
      const popup = page.waitForEvent("popup");
      await dialog.getByRole("link", { name: "Continue to Payment" }).click();
      expect((await popup).url()).toBe(`${E2E_BASE}/test-payment-portal?amount=45.50&member=AHA-4550&for=other`);

      // The header's 'Make a Payment' (nothing chosen) leaves the placeholders empty.
      await page.goto(`${site.url}/make-payment`);
      await page.getByRole("contentinfo").getByRole("button", { name: "Make a Payment" }).click();
      await expect(dialog.getByRole("link", { name: "Continue to Payment" })).toHaveAttribute(
        "href",
        `${E2E_BASE}/test-payment-portal?amount=&member=&for=`,
      );

      // Without JavaScript the hand-over link is filled in the same way.
      const nojs = await browser.newContext({ javaScriptEnabled: false });
      const plain = await nojs.newPage();
      await plain.goto(`${site.url}/make-payment`);
      await plain.getByRole("radio", { name: /Membership Fees/ }).check();
      await plain.getByLabel("Membership ID").fill("AHA77");
      await plain.getByRole("button", { name: "Continue to Secure Payment" }).click();
      await expect(plain.getByTestId("payment-handover").getByRole("link", { name: "Continue to Payment" })).toHaveAttribute(
        "href",
        `${E2E_BASE}/test-payment-portal?amount=99.00&member=AHA77&for=membership`,
      );
      await nojs.close();
    } finally {
      await context.close();
      await site.close();
    }
  });

  test("Cancel closes the dialog and stays on the page", async ({ page }) => {
    await page.goto("/make-payment");
    await page.getByRole("radio", { name: /Home Warranty Premium/ }).check();
    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    await page.getByRole("dialog", { name: "Leaving Our Site" }).getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(/\/make-payment$/);
  });

  test("works without JavaScript: the hand-over step shows in the page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/make-payment");
    await page.getByRole("radio", { name: /Additional Services/ }).check();
    await page.getByLabel("Membership ID").fill("AHA-77");
    await page.getByLabel("Amount (USD)").fill("125.50");
    await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
    const handover = page.getByTestId("payment-handover");
    await expect(handover.getByRole("heading", { name: "Leaving Our Site" })).toBeVisible();
    await expect(handover).toContainText("Additional Services");
    await expect(handover).toContainText("AHA-77");
    await expect(handover).toContainText("$125.50");
    // No Copy button that could not work; the values are there to select.
    await expect(handover.getByRole("button")).toHaveCount(0);
    await expect(handover).toContainText("Enter the amount and your membership ID shown above there.");
    const link = handover.getByRole("link", { name: "Continue to Payment" });
    await expect(link).toHaveAttribute("href", `${E2E_BASE}/test-payment-portal`);
    await expect(link).toHaveAttribute("target", "_blank");
    await context.close();
  });
});

test("make payment without JavaScript: the choice and the amount are explained beside their fields", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/make-payment");
  await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
  const choice = page.getByRole("group", { name: "1. What are you paying for?" });
  await expect(choice).toHaveAccessibleDescription("Please choose what you are paying for");
  await expect(choice.getByText("Please choose what you are paying for", { exact: true })).toBeVisible();
  await expect(page.getByRole("radio", { name: /Membership Fees/ })).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("radio", { name: /Other Payment/ }).check();
  await page.getByLabel("Membership ID").fill("AHA 1");
  await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
  await expectFieldError(page, "Amount (USD)", "Please enter the amount you want to pay");
  await expectFieldError(page, "Membership ID (optional)", "Membership ID may contain only letters, numbers and dashes");
  await expect(page.getByRole("radio", { name: /Other Payment/ })).toBeChecked();
  await expect(page.getByTestId("error-summary")).toContainText("Please correct 2 fields");
  await expect(page.getByTestId("payment-handover")).toHaveCount(0);
  await context.close();
});

test.describe("accessibility of the form pages", () => {
  // Eight full-page axe runs each, on a shared two-core machine.
  test.describe.configure({ timeout: 120_000 });
  for (const width of [1280, 390]) {
    test(`no axe violation at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/contact-us", "/form-requests", "/form-requests?form=homeowner", "/make-payment"]) {
        await page.goto(path);
        await expectNoAxeViolations(page);
      }
      // The error states too.
      await page.goto("/make-payment");
      await page.getByRole("button", { name: "Continue to Secure Payment" }).click();
      await expect(page.getByTestId("error-summary")).toBeVisible();
      await expectNoAxeViolations(page);
      await page.goto("/form-requests?form=cpa");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(page.getByTestId("error-summary")).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }
});
