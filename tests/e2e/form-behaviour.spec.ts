import crypto from "node:crypto";
import type { Locator, Page, Request } from "@playwright/test";
import { draftKey } from "../../app/components/forms/draft";
import { SUCCESS_MESSAGE } from "../../app/features/applications/ApplicationForm";
import { APPLICATION_DRAFT_FORM } from "../../app/features/applications/draft";
import { CONTACT_FAILURE, CONTACT_SUCCESS } from "../../app/features/contact/contact-info";
import { REQUEST_SUCCESS } from "../../app/features/form-requests/messages";
import { field, sign } from "./application-form";
import { createAccount, expect, MEMBER_PASSWORD, test } from "./fixtures";
import { expectFocusLandsInView, expectWhollyInViewBelowHeader } from "./in-view";

/*
 * What every form does alike (components/forms): Enter sends once and shows what a click
 * shows; a refused send is announced (role="alert"), takes the focus and is wholly in view
 * below the sticky header, on a desktop and on a phone (where the header is taller); the
 * first click on the send button counts even when the field just left shows an error; the
 * long application keeps a draft and warns before it is left.
 */

const unique = () => crypto.randomBytes(4).toString("hex");
const SCREENS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

test.beforeEach(async ({ services }) => {
  await services.database.db
    .deleteFrom("rate_limits")
    .where((eb) => eb.or([eb("key", "like", "submit_%"), eb("key", "like", "application_submit%")]))
    .execute();
});

/** The requests that change something (POST, PUT, PATCH, DELETE) the page sends from now on, as "METHOD path". */
function changes(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (r: Request) => {
    if (r.method() !== "GET" && r.method() !== "HEAD") sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  return sent;
}

/** Marks the loaded page, so a test can tell it was not loaded again (a page post reloads it). */
const markPage = (page: Page) => page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
const pageStillHere = (page: Page) => page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere === true);

/** A JSON refusal the server could give, answered instead of the real call. */
const refuse = (status: number, body: object) => ({ status, contentType: "application/json", body: JSON.stringify(body) });

async function expectFailureAnnounced(alert: Locator) {
  await expect(alert).toHaveAttribute("role", "alert");
  await expect(alert).toBeFocused();
  await expectWhollyInViewBelowHeader(alert);
}

async function fillContact(page: Page) {
  await page.getByLabel("Full Name").fill("Robin Fields");
  await page.getByLabel("Email Address").fill(`robin-${unique()}@example.com`);
  await page.getByLabel("Subject").selectOption("warranty");
  await page.getByLabel("Message", { exact: true }).fill("Is storm damage to my fence covered by the plan?");
}

async function fillApplication(page: Page) {
  await field(page, "Amount of Coverage").fill("250000");
  await field(page, "Applicant Name").fill("Dana Reyes");
  await field(page, "Applicant Date of Birth").fill("1980-04-12");
  await field(page, "Applicant Gender").selectOption("Female");
  await field(page, "Applicant Email").fill(`dana-${unique()}@example.com`);
  await field(page, "Applicant Phone").fill("2035550142");
  await field(page, "Monthly Billing").check();
  await field(page, "I confirm that the information provided is true and correct.").check();
  await sign(page, "applicantSignature");
}

const storedDrafts = (page: Page) =>
  page.evaluate(() =>
    Object.fromEntries(
      Object.keys(localStorage)
        .filter((key) => key.startsWith("aha-draft:"))
        .map((key) => [key, localStorage.getItem(key)]),
    ),
  );

test.describe("Enter in a text field sends the form once and shows what a click shows", () => {
  test("contact form", async ({ page }) => {
    await page.goto("/contact-us");
    await fillContact(page);
    await markPage(page);
    const sent = changes(page);
    await page.getByLabel("Full Name").press("Enter");
    await expect(page.getByTestId("contact-success")).toHaveText(CONTACT_SUCCESS);
    expect(await pageStillHere(page)).toBe(true);
    expect(sent).toEqual(["POST /api/forms"]);
  });

  for (const [kind, path] of [
    ["cpa", "/api/submit-cpa-request"],
    ["homeowner", "/api/submit-material-request"],
  ] as const) {
    test(`form request (${kind})`, async ({ page }) => {
      await page.goto(`/form-requests?form=${kind}`);
      await page.getByLabel("Full Name").fill("Lee Park");
      await page.getByLabel("Email Address").fill(`lee-${unique()}@example.com`);
      await markPage(page);
      const sent = changes(page);
      await page.getByLabel("Email Address").press("Enter");
      await expect(page.getByTestId("request-success")).toHaveText(REQUEST_SUCCESS);
      expect(await pageStillHere(page)).toBe(true);
      expect(sent).toEqual([`POST ${path}`]);
    });
  }

  test("account contact details", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/account");
    await page.getByLabel("Phone").fill("(203) 555-0199");
    await markPage(page);
    const sent = changes(page);
    await page.getByLabel("Phone").press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "saved" })).toHaveText("Your contact details were saved.");
    expect(await pageStillHere(page)).toBe(true);
    expect(sent).toEqual(["PUT /api/account/contact"]);
  });

  test("member login", async ({ page, services }) => {
    const { certificate } = await createAccount(services, "member");
    await page.goto("/login");
    await page.getByLabel("Certificate Number").fill(certificate!);
    await page.getByLabel("Date of Birth", { exact: true }).fill(MEMBER_PASSWORD);
    const sent = changes(page);
    await page.getByLabel("Date of Birth", { exact: true }).press("Enter");
    await expect(page).toHaveURL(/\/knowledge-center$/);
    await expect(page.getByTestId("welcome-line")).toBeVisible();
    expect(sent).toEqual(["POST /api/auth/login"]);
  });

  test("membership application, which then forgets its draft", async ({ page, signIn }) => {
    const me = await signIn("member");
    await page.goto("/application");
    await fillApplication(page);
    expect(Object.keys(await storedDrafts(page))).toEqual([draftKey(APPLICATION_DRAFT_FORM, me.userId)]);
    await markPage(page);
    const sent = changes(page);
    await field(page, "Applicant Name").press("Enter");
    await expect(page.getByTestId("application-success")).toHaveText(SUCCESS_MESSAGE);
    expect(await pageStillHere(page)).toBe(true);
    expect(sent).toEqual(["POST /api/applications"]);
    expect(await storedDrafts(page)).toEqual({});
  });
});

test.describe("a refused send is announced, takes the focus and is wholly in view below the sticky header", () => {
  for (const screen of SCREENS) {
    test(`contact form (${screen.name})`, async ({ page }) => {
      await page.setViewportSize(screen);
      await page.goto("/contact-us");
      await fillContact(page);
      // Refused with a field's message: the alert and the summary under it; the alert takes the focus.
      await page.route("**/api/forms", (route) =>
        route.fulfill(
          refuse(400, {
            success: false,
            error: "Please correct the highlighted fields.",
            details: { email: "Please enter a valid email address, like name@example.com" },
          }),
        ),
      );
      const send = page.getByRole("button", { name: "Send Message" });
      await send.click();
      const alert = page.getByTestId("contact-failure");
      await expect(alert.locator("p").first()).toHaveText(CONTACT_FAILURE);
      await expectFailureAnnounced(alert);
      await expect(page.getByTestId("error-summary")).toBeVisible();

      // Refused again (too many): announced again.
      await page.unroute("**/api/forms");
      await page.route("**/api/forms", (route) =>
        route.fulfill(refuse(429, { success: false, error: "Too many submissions. Please try again later." })),
      );
      await page.getByLabel("Email Address").fill(`robin-${unique()}@example.com`);
      await send.click();
      await expect(alert).toContainText("Too many submissions. Please try again later.");
      await expectFailureAnnounced(alert);
      await page.screenshot({ path: `.tmp/shots/contact-failure-${screen.name}.png` });
    });

    test(`form request (${screen.name})`, async ({ page }) => {
      await page.setViewportSize(screen);
      await page.goto("/form-requests?form=cpa");
      await page.getByLabel("Full Name").fill("Lee Park");
      await page.getByLabel("Email Address").fill("lee@example.com");
      await page.getByLabel("Additional Information").fill("2024 premium statement, please.");
      await page.route("**/api/submit-cpa-request", (route) =>
        route.fulfill(refuse(429, { success: false, error: "Too many submissions. Please try again later." })),
      );
      await page.getByRole("button", { name: "Submit Request" }).click();
      const alert = page.getByTestId("request-failure");
      await expect(alert).toHaveText(
        "There was an error submitting your request: HTTP 429: Too many submissions. Please try again later. Please try again.",
      );
      await expectFailureAnnounced(alert);
      await page.screenshot({ path: `.tmp/shots/request-failure-${screen.name}.png` });
    });

    test(`membership application (${screen.name})`, async ({ page, signIn }) => {
      await page.setViewportSize(screen);
      await signIn("member");
      await page.goto("/application");
      await fillApplication(page);
      await page.route("**/api/applications", (route) =>
        route.fulfill(refuse(429, { success: false, error: "Too many applications. Please try again later." })),
      );
      await page.getByRole("button", { name: "Submit Application" }).click();
      const alert = page.getByTestId("application-failure");
      await expect(alert).toHaveText("Submission failed: Too many applications. Please try again later.");
      await expectFailureAnnounced(alert);
      await page.screenshot({ path: `.tmp/shots/application-failure-${screen.name}.png` });
    });

    test(`account contact details (${screen.name})`, async ({ page, signIn }) => {
      await page.setViewportSize(screen);
      await signIn("member");
      await page.goto("/account");
      await page.getByLabel("Phone").fill("(203) 555-0199");
      await page.route("**/api/account/contact", (route) =>
        route.fulfill(refuse(429, { success: false, error: "Too many requests. Please try again in a minute." })),
      );
      await page.getByRole("button", { name: "Save contact details" }).click();
      await expectFailureAnnounced(page.getByRole("alert").filter({ hasText: "Too many requests" }));
    });
  }

  test("member login", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/login");
    await page.getByLabel("Certificate Number").fill("AHA000000");
    await page.getByLabel("Date of Birth", { exact: true }).fill("010101");
    await page.route("**/api/auth/login", (route) =>
      route.fulfill(refuse(401, { success: false, error: "Invalid certificate number or date of birth" })),
    );
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectFailureAnnounced(page.getByRole("alert").filter({ hasText: "Invalid certificate number or date of birth" }));
  });

  test("an admin dialog (Add Feed)", async ({ page, signIn }) => {
    await signIn("super_admin");
    await page.goto("/admin/rss");
    await page.getByRole("tabpanel", { name: /RSS/ }).getByRole("button", { name: "Add Feed" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Feed" });
    await dialog.getByLabel("Name").fill(`Porch Pros ${unique()}`);
    await dialog.getByLabel("URL").fill(`https://porch.example.org/${unique()}/feed.xml`);
    await page.route("**/api/rss/feeds", (route) =>
      route.request().method() === "POST"
        ? route.fulfill(refuse(409, { success: false, error: "A feed with this URL already exists" }))
        : route.fallback(),
    );
    await dialog.getByRole("button", { name: "Add Feed" }).click();
    const alert = dialog.getByRole("alert");
    await expect(alert).toContainText("A feed with this URL already exists");
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport({ ratio: 1 });
  });
});

test.describe("signed in on a phone, where the header's top bar wraps, what a form brings into view lands below the header at once", () => {
  const PHONE = { width: 390, height: 844 };
  const SUMMARY = '[data-testid="error-summary"]';

  /** The signed-in header at this width is taller than a visitor's (its top bar wraps): the case the rule must follow. */
  async function expectTallHeader(page: Page) {
    const height = await page.locator("header").evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeGreaterThan(110);
  }

  test("membership application: 'Please correct the following:' from the send button at the bottom, then a refusal", async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize(PHONE);
    await signIn("member");
    await page.goto("/application");
    await expectTallHeader(page);
    const send = page.getByRole("button", { name: "Submit Application" });
    await expectFocusLandsInView(page, SUMMARY, () => send.click());
    await expect(page.locator(SUMMARY).locator("p").first()).toHaveText("Please correct the following:");
    // A few problems left: a short list, sent again from the bottom of the page.
    await field(page, "Amount of Coverage").fill("250000");
    await field(page, "Applicant Name").fill("Dana Reyes");
    await field(page, "Applicant Date of Birth").fill("1980-04-12");
    await field(page, "Applicant Gender").selectOption("Female");
    await field(page, "Applicant Email").fill(`dana-${unique()}@example.com`);
    await field(page, "Applicant Phone").fill("2035550142");
    await expectFocusLandsInView(page, SUMMARY, () => send.click());
    await expect(page.locator(SUMMARY).getByRole("listitem")).toHaveCount(3);
    // A refusal from the server: its alert.
    await fillApplication(page);
    await page.route("**/api/applications", (route) =>
      route.fulfill(refuse(429, { success: false, error: "Too many applications. Please try again later." })),
    );
    await expectFocusLandsInView(page, '[data-testid="application-failure"]', () => send.click());
    await page.screenshot({ path: ".tmp/shots/application-summary-phone-signed-in.png" });
  });

  test("contact form", async ({ page, signIn }) => {
    await page.setViewportSize(PHONE);
    await signIn("member");
    await page.goto("/contact-us");
    await expectTallHeader(page);
    await expectFocusLandsInView(page, SUMMARY, () => page.getByRole("button", { name: "Send Message" }).click());
    await expect(page.locator(SUMMARY)).toContainText("Please correct");
    await page.screenshot({ path: ".tmp/shots/contact-summary-phone-signed-in.png" });
  });

  test("form requests: the chosen form's title, then the summary", async ({ page, signIn }) => {
    await page.setViewportSize(PHONE);
    await signIn("member");
    await page.goto("/form-requests");
    await expectTallHeader(page);
    await expectFocusLandsInView(page, "#request-form-title", () =>
      page
        .getByRole("link", { name: /CPA Request/ })
        .first()
        .click(),
    );
    await expectFocusLandsInView(page, SUMMARY, () => page.getByRole("button", { name: "Submit Request" }).click());
    await page.screenshot({ path: ".tmp/shots/request-summary-phone-signed-in.png" });
  });

  test("account contact details", async ({ page, signIn }) => {
    await page.setViewportSize(PHONE);
    await signIn("member");
    await page.goto("/account");
    await expectTallHeader(page);
    await page.getByLabel("E-mail").fill("robin@");
    await expectFocusLandsInView(page, SUMMARY, () => page.getByRole("button", { name: "Save contact details" }).click());
  });

  test("an admin dialog (Add Feed), which lies over the header: its alert in the dialog's view", async ({ page, signIn }) => {
    await page.setViewportSize(PHONE);
    await signIn("super_admin");
    await page.goto("/admin/rss");
    await expectTallHeader(page);
    await page.getByRole("tabpanel", { name: /RSS/ }).getByRole("button", { name: "Add Feed" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add Feed" });
    await dialog.getByLabel("Name").fill(`Porch Pros ${unique()}`);
    await dialog.getByLabel("URL").fill(`https://porch.example.org/${unique()}/feed.xml`);
    await page.route("**/api/rss/feeds", (route) =>
      route.request().method() === "POST"
        ? route.fulfill(refuse(409, { success: false, error: "A feed with this URL already exists" }))
        : route.fallback(),
    );
    await expectFocusLandsInView(page, '[role="dialog"] [role="alert"]', () => dialog.getByRole("button", { name: "Add Feed" }).click());
    await expect(dialog.getByRole("alert")).toContainText("A feed with this URL already exists");
  });
});

/**
 * A person's click near a button's top edge: the press, the page drawing what the press caused
 * (two frames, as a press lasts a moment), then the release where the press was.
 */
async function pressAndRelease(page: Page, button: Locator) {
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  await page.mouse.move(box.x + 12, box.y + 4);
  await page.mouse.down();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.mouse.up();
}

test.describe("the first click on the send button counts when the field just left is wrong", () => {
  test("contact form", async ({ page }) => {
    await page.goto("/contact-us");
    await fillContact(page);
    const email = page.getByLabel("Email Address");
    await email.fill("robin@");
    await expect(email).toBeFocused();
    const sent = changes(page);
    await pressAndRelease(page, page.getByRole("button", { name: "Send Message" }));
    const summary = page.getByTestId("error-summary");
    await expect(summary).toBeFocused();
    await expect(summary.getByRole("link")).toHaveText(["Email Address: Please enter a valid email address, like name@example.com"]);
    await expect(email).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  test("account contact details", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/account");
    const email = page.getByLabel("E-mail");
    await email.fill("robin@");
    await expect(email).toBeFocused();
    await pressAndRelease(page, page.getByRole("button", { name: "Save contact details" }));
    await expect(page.getByTestId("error-summary")).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
  });

  test("a field left for another field is still checked at once", async ({ page }) => {
    await page.goto("/contact-us");
    const email = page.getByLabel("Email Address");
    await email.fill("robin@");
    await page.getByLabel("Full Name").click();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter a valid email address, like name@example.com")).toBeVisible();
  });
});

test.describe("the membership application keeps a draft and warns before it is left", () => {
  // A long form, drawn signatures and reloads, on a shared two-core machine.
  test.describe.configure({ timeout: 120_000 });
  test("a reload brings back what was typed, never the signatures or card details", async ({ page, signIn }) => {
    const me = await signIn("member");
    await page.goto("/application");
    await field(page, "Applicant Name").fill("Dana Reyes");
    await field(page, "Applicant Email").fill("dana@example.com");
    await field(page, "City").fill("Stamford");
    await field(page, "Beneficiary Name").fill("Sam Reyes");
    await field(page, "Use Credit Card").check();
    await page.getByLabel("Name on Card").fill("DANA REYES");
    await sign(page, "applicantSignature");

    const stored = await storedDrafts(page);
    const key = draftKey(APPLICATION_DRAFT_FORM, me.userId);
    expect(Object.keys(stored)).toEqual([key]);
    expect(JSON.parse(stored[key]!)).toMatchObject({ applicantName: "Dana Reyes", city: "Stamford", beneficiaryName: "Sam Reyes" });
    expect(stored[key]).not.toContain("data:image");
    expect(stored[key]).not.toContain("DANA REYES");
    expect(JSON.parse(stored[key]!)).not.toHaveProperty("paymentUseCreditCard");

    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(dialogs).toEqual(["beforeunload"]);
    await expect(page.getByTestId("application-draft-restored")).toBeVisible();
    await expect(field(page, "Applicant Name")).toHaveValue("Dana Reyes");
    await expect(field(page, "Applicant Email")).toHaveValue("dana@example.com");
    await expect(field(page, "City")).toHaveValue("Stamford");
    await expect(field(page, "Beneficiary Name")).toHaveValue("Sam Reyes");
    await expect(page.getByLabel("Name on Card")).toHaveValue("");
    await expect(field(page, "Use Credit Card")).not.toBeChecked();
    await expect(page.getByTestId("signature-applicantSignature").locator("canvas")).not.toHaveAttribute("data-signed", "true");

    await page.getByRole("button", { name: "Discard draft" }).click();
    await expect(field(page, "Applicant Name")).toHaveValue("");
    expect(await storedDrafts(page)).toEqual({});
  });

  test("a link inside the site asks first; leaving keeps the draft; signing out removes it", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/application");
    await field(page, "Applicant Name").fill("Dana Reyes");
    const contact = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" });
    await contact.click();
    const question = page.getByRole("dialog", { name: "Leave the application?" });
    await expect(question).toBeVisible();
    await expect(question.getByRole("button", { name: "Stay on this page" })).toBeFocused();
    await question.getByRole("button", { name: "Stay on this page" }).click();
    await expect(question).toHaveCount(0);
    await expect(page).toHaveURL(/\/application$/);
    await expect(field(page, "Applicant Name")).toHaveValue("Dana Reyes");

    await contact.click();
    await question.getByRole("button", { name: "Leave this page" }).click();
    await expect(page).toHaveURL(/\/contact-us$/);
    await page.goto("/application");
    await expect(field(page, "Applicant Name")).toHaveValue("Dana Reyes");
    await expect(page.getByTestId("application-draft-restored")).toBeVisible();

    await page.getByRole("button", { name: "Log Out" }).click();
    await question.getByRole("button", { name: "Leave this page" }).click();
    await expect(page.getByRole("link", { name: "Member Login" })).toBeVisible();
    expect(await storedDrafts(page)).toEqual({});
  });

  test("the next member to sign in on this browser never sees the last one's draft", async ({ page, context, signIn }) => {
    await signIn("member");
    await page.goto("/application");
    await field(page, "Applicant Name").fill("Dana Reyes");
    await expect.poll(async () => Object.keys(await storedDrafts(page)).length).toBe(1);
    await context.clearCookies();
    await signIn("member", { firstName: "Kim" });
    await page.goto("/application");
    await expect(page.getByTestId("welcome-line")).toHaveText("Welcome, Kim Member");
    await expect(field(page, "Applicant Name")).toHaveValue("");
    await expect(page.getByTestId("application-draft-restored")).toHaveCount(0);
  });
});
