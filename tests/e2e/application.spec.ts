import crypto from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { MESSAGES } from "../../app/features/applications/contract";
import { SUCCESS_MESSAGE } from "../../app/features/applications/ApplicationForm";
import { E2E_BASE } from "./env";
import { field, sign, signature } from "./application-form";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { storedByEmail } from "../support/submission-fixtures";

const unique = () => crypto.randomBytes(4).toString("hex");

// Each test signs in its own user, so the per-user limits never trip; clear them anyway for retries.
test.beforeEach(async ({ services }) => {
  await services.database.db
    .deleteFrom("rate_limits")
    .where((eb) => eb.or([eb("key", "like", "application_submit%"), eb("key", "like", "case_lookup%")]))
    .execute();
});

async function fillRequired(page: Page, email: string) {
  await field(page, "Amount of Coverage").fill("250000");
  await field(page, "Applicant Name").fill("Dana Reyes");
  await field(page, "Applicant Date of Birth").fill("1980-04-12");
  await field(page, "Applicant Gender").selectOption("Female");
  await field(page, "Applicant Email").fill(email);
  await field(page, "Applicant Phone").fill("2035550142");
  await field(page, "Monthly Billing").check();
  await field(page, "I confirm that the information provided is true and correct.").check();
}

const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  const texts = await Promise.all(describedBy.split(" ").map((id) => field.page().locator(`[id="${id}"]`).innerText()));
  expect(texts.join(" | ")).toContain(message);
}

test.describe("membership application", () => {
  test("visitors are asked to log in", async ({ page }) => {
    await page.goto("/application");
    await expect(page.getByText("You must be logged in to access this area")).toBeVisible();
  });

  test("a member fills it in, signs with the mouse and submits: banner, top of page, stored", async ({ page, signIn, services }) => {
    const me = await signIn("member");
    await page.goto("/application");
    await expect(page.getByRole("main").getByRole("heading", { level: 2 })).toHaveText([
      "A. Fill Out and Sign Application",
      "Beneficiary Information",
      "Payment Options",
    ]);
    await expect(page.getByTestId("preview-statement")).toContainText("This is a preview form.");
    await expect(page.getByTestId("legal-footer")).toContainText("Return address:");
    await expect(page.getByTestId("legal-footer")).toContainText("Underwriter:");
    await expect(page.getByTestId("legal-footer")).toContainText("Disclosures:");

    // Defaults and input kinds of the spec.
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    });
    await expect(field(page, "Today's Date")).toHaveValue(today);
    await expect(field(page, "Today's Date")).toHaveAttribute("type", "date");
    await expect(field(page, "Applicant Date of Birth")).toHaveAttribute("type", "date");
    await expect(field(page, "Applicant Email")).toHaveAttribute("type", "email");
    await expect(field(page, "State")).toHaveAttribute("maxlength", "2");
    await expect(field(page, "Applicant Gender").locator("option")).toHaveText(["Select", "Female", "Male", "Other", "Prefer not to say"]);
    await expect(field(page, "Relationship").locator("option")).toHaveText([
      "Select a relationship",
      "Spouse",
      "Child",
      "Parent",
      "Sibling",
      "Other",
    ]);
    await expect(page.locator("canvas")).toHaveCount(4);
    for (const box of await page.locator("canvas").all()) expect((await box.boundingBox())!.height).toBe(200);
    await expect(page.getByLabel(/card number|cvv|expir/i)).toHaveCount(0);
    await expectNoAxeViolations(page);

    const email = `dana-${unique()}@example.com`;
    await fillRequired(page, email);
    await field(page, "State").pressSequentially("ctx");
    await expect(field(page, "State")).toHaveValue("CT");
    await field(page, "ZIP Code").fill("06905");
    await field(page, "Beneficiary Name").fill("Alex Reyes");
    await field(page, "Relationship").selectOption("child");
    await field(page, "Beneficiary Phone").fill("203 555 0144");
    await field(page, "Beneficiary Email").click();
    // Shown as USD with 2 decimals and (XXX) XXX-XXXX once left.
    await expect(field(page, "Amount of Coverage")).toHaveValue("$250,000.00");
    await expect(field(page, "Applicant Phone")).toHaveValue("(203) 555-0142");
    await expect(field(page, "Beneficiary Phone")).toHaveValue("(203) 555-0144");
    await expect(field(page, "State")).toHaveValue("CT");
    await sign(page, "applicantSignature");

    // Clear empties a signature; drawing again fills it.
    await signature(page, "applicantSignature").getByRole("button", { name: /Clear/ }).click();
    await expect(signature(page, "applicantSignature").locator("canvas")).toHaveAttribute("data-signed", "false");
    await sign(page, "applicantSignature");

    const posted = page.waitForRequest((r) => r.url() === `${E2E_BASE}/api/applications` && r.method() === "POST");
    await page.getByRole("button", { name: "Submit Application" }).click();
    const body = (await posted).postDataJSON();
    expect(body).toMatchObject({ applicantName: "Dana Reyes", email, paymentMonthlyBilling: true, coApplicantSignature: null });
    expect(body.applicantSignature).toMatch(/^data:image\/png;base64,/);
    expect(new Date(body.submittedAt).toISOString()).toBe(body.submittedAt);

    await expect(page.getByTestId("application-success")).toHaveText(SUCCESS_MESSAGE);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(5);
    // The form starts over: empty fields, today's date, blank signatures.
    await expect(field(page, "Applicant Name")).toHaveValue("");
    await expect(field(page, "Today's Date")).toHaveValue(today);
    await expect(signature(page, "applicantSignature").locator("canvas")).toHaveAttribute("data-signed", "false");

    const row = await storedByEmail(services.database.db, "applications", email);
    expect(row).toMatchObject({
      applicant_name: "Dana Reyes",
      amount_of_coverage: "250000.00",
      phone: "(203) 555-0142",
      state: "CT",
      beneficiary_relationship: "child",
      todays_date: today,
      submitted_by: me.userId,
      status: "pending",
    });
    // Drawn at the screen's pixel density, a real PNG.
    expect(Buffer.from(row.applicant_signature.split(",")[1], "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  test("lists every problem under 'Please correct the following:', focused, linked to each field", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/application");
    await page.getByRole("button", { name: "Submit Application" }).click();
    const summary = page.getByTestId("error-summary");
    await expect(summary).toBeFocused();
    await expect(summary.locator("p").first()).toHaveText("Please correct the following:");
    await expect(summary.getByRole("listitem")).toHaveText([
      MESSAGES.amountOfCoverage,
      MESSAGES.applicantName,
      MESSAGES.dob,
      MESSAGES.gender,
      MESSAGES.email,
      MESSAGES.phone,
      MESSAGES.paymentOptions,
      MESSAGES.applicantSignature,
      MESSAGES.confirmAccuracy,
    ]);
    await expectFieldError(field(page, "Applicant Name"), MESSAGES.applicantName);
    await expectFieldError(field(page, "Applicant Gender"), MESSAGES.gender);
    // The drawing area is an image to assistive technology (aria-invalid is not allowed there):
    // its description carries the message, and the message sits in its group.
    const pad = signature(page, "applicantSignature");
    await expect(pad.locator("canvas")).toHaveAttribute("aria-describedby", /-error/);
    const padDescription = (await pad.locator("canvas").getAttribute("aria-describedby"))!.split(" ");
    const padTexts = await Promise.all(padDescription.map((id) => page.locator(`[id="${id}"]`).innerText()));
    expect(padTexts.join(" | ")).toContain(MESSAGES.applicantSignature);
    await expect(pad).toContainText(MESSAGES.applicantSignature);
    await expect(field(page, "Monthly Billing").locator("xpath=ancestor::fieldset")).toContainText(MESSAGES.paymentOptions);

    // A link takes focus to its field.
    await summary.getByRole("link", { name: MESSAGES.email }).click();
    await expect(field(page, "Applicant Email")).toBeFocused();
    await summary.getByRole("link", { name: MESSAGES.applicantSignature }).click();
    await expect(signature(page, "applicantSignature").locator("canvas")).toBeFocused();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: ".tmp/application-errors-desktop.png", fullPage: true });
    await expectNoAxeViolations(page);

    // The conditional rules: co-applicant, Automatic Checking, Use Credit Card.
    await field(page, "Co-Applicant Name").fill("Sam Reyes");
    await field(page, "Automatic Checking").check();
    await field(page, "Use Credit Card").check();
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(summary).toBeFocused();
    const items = summary.getByRole("listitem");
    await expect(items).toContainText([
      MESSAGES.achApplicantSignature,
      MESSAGES.achCoApplicantSignature,
      MESSAGES.ccNameOnCard,
      MESSAGES.applicantSignature,
      MESSAGES.coApplicantSignature,
    ]);
    await expect(items.filter({ hasText: MESSAGES.paymentOptions })).toHaveCount(0);

    // Fixing a problem takes it off the list as you go.
    await field(page, "Name on Card").fill("Dana Reyes");
    await expect(items.filter({ hasText: MESSAGES.ccNameOnCard })).toHaveCount(0);
    await sign(page, "achApplicantSignature");
    await expect(items.filter({ hasText: MESSAGES.achApplicantSignature })).toHaveCount(0);
  });

  test("a case lookup fills only the empty fields, with the spec's status texts and masked analytics", async ({
    page,
    signIn,
    services,
  }) => {
    const caseNumber = `${crypto.randomInt(10_000_000, 99_999_999)}`;
    await services.applications.repository.upsertCases([
      {
        case_number: caseNumber,
        first_name: "Kim",
        last_name: "Ode",
        coverage: "300000.00",
        email: "kim@example.com",
        phone: "2035550188",
        address1: "5 Pine Rd",
        city: "Stamford",
        state: "CT",
        zip: "06905",
        gender: "Other",
      },
    ]);
    await signIn("member");
    await page.goto("/application");
    await field(page, "Applicant Name").fill("Typed Name");
    await field(page, "City").fill("Greenwich");

    const status = page.getByTestId("case-status");
    const caseField = field(page, "Case Number");
    await caseField.pressSequentially("12-3");
    await expect(caseField).toHaveValue("123");
    await page.waitForTimeout(700);
    await expect(status).toHaveText("");

    // Whole numbers in one input each: typed key by key on a busy machine, a pause longer than
    // the debounce looks up the first digits (the page is right to), and the events differ.
    await caseField.fill(caseNumber);
    await expect(status).toHaveText("Case loaded");
    await expect(field(page, "Applicant Name")).toHaveValue("Typed Name");
    await expect(field(page, "City")).toHaveValue("Greenwich");
    await expect(field(page, "Applicant Email")).toHaveValue("kim@example.com");
    await expect(field(page, "Amount of Coverage")).toHaveValue("$300,000.00");
    await expect(field(page, "Applicant Phone")).toHaveValue("(203) 555-0188");
    await expect(field(page, "Address Line 1")).toHaveValue("5 Pine Rd");
    await expect(field(page, "State")).toHaveValue("CT");
    await expect(field(page, "ZIP Code")).toHaveValue("06905");
    await expect(field(page, "Applicant Gender")).toHaveValue("Other");

    await caseField.fill("55555123");
    await expect(status).toHaveText("Case not found");

    const events = await page.evaluate(() => (window as unknown as { dataLayer: unknown[] }).dataLayer);
    expect(events).toEqual([
      { event: "case_lookup_success", case_number: `****${caseNumber.slice(-4)}` },
      { event: "case_lookup_not_found", case_number: "****5123" },
    ]);
    expect(JSON.stringify(events)).not.toContain(caseNumber);
  });

  test("a looked-up case clears the errors of the fields it fills; the state shows upper case, as it is stored", async ({
    page,
    signIn,
    services,
  }) => {
    const caseNumber = `${crypto.randomInt(10_000_000, 99_999_999)}`;
    await services.applications.repository.upsertCases([
      {
        case_number: caseNumber,
        first_name: "Lee",
        last_name: "Park",
        coverage: "150000.00",
        email: "lee@example.com",
        phone: "2035550199",
        address1: "9 Elm St",
        city: "Albany",
        state: "ny",
        zip: "12207",
        gender: "Female",
      },
    ]);
    await signIn("member");
    await page.goto("/application");
    await page.getByRole("button", { name: "Submit Application" }).click();
    const summary = page.getByTestId("error-summary");
    await expect(summary).toBeFocused();
    await expectFieldError(field(page, "Applicant Phone"), MESSAGES.phone);
    await expectFieldError(field(page, "Applicant Email"), MESSAGES.email);

    await field(page, "Case Number").pressSequentially(caseNumber);
    await expect(page.getByTestId("case-status")).toHaveText("Case loaded");
    await expect(field(page, "Applicant Phone")).toHaveValue("(203) 555-0199");
    // Every field the case filled is checked again: its message and red border go.
    for (const [label, message] of [
      ["Amount of Coverage", MESSAGES.amountOfCoverage],
      ["Applicant Name", MESSAGES.applicantName],
      ["Applicant Gender", MESSAGES.gender],
      ["Applicant Email", MESSAGES.email],
      ["Applicant Phone", MESSAGES.phone],
    ]) {
      await expect(field(page, label), label).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(message, { exact: true }), label).toHaveCount(0);
    }
    // What the case could not fill is still asked for.
    await expect(summary.getByRole("listitem")).toHaveText([
      MESSAGES.dob,
      MESSAGES.paymentOptions,
      MESSAGES.applicantSignature,
      MESSAGES.confirmAccuracy,
    ]);
    await expectFieldError(field(page, "Applicant Date of Birth"), MESSAGES.dob);

    // The state is stored upper case: the form shows it so, filled in or typed.
    await expect(field(page, "State")).toHaveValue("NY");
    await field(page, "State").fill("");
    await field(page, "State").pressSequentially("ct");
    await expect(field(page, "State")).toHaveValue("CT");
  });

  test("required fields carry '*', the applicant signature and the confirmation too", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/application");
    for (const label of ["Amount of Coverage", "Applicant Name", "Applicant Email", "Applicant Phone", "Today's Date"])
      await expect(page.locator("label").filter({ hasText: new RegExp(`^${label}`) }), label).toHaveText(`${label} *`);
    await expect(signature(page, "applicantSignature").locator("span.field-label")).toHaveText("Applicant Signature * (required)");
    await expect(signature(page, "coApplicantSignature").locator("span.field-label")).toHaveText("Co-Applicant Signature");
    await expect(page.locator("label").filter({ hasText: "I confirm that the information provided is true and correct." })).toHaveText(
      "I confirm that the information provided is true and correct. *",
    );
    await expect(field(page, "I confirm that the information provided is true and correct.")).toHaveAttribute("aria-required", "true");
  });

  test("a failed submission says why and keeps everything typed, signatures included", async ({ page, signIn, services, context }) => {
    const me = await signIn("member");
    await page.goto("/application");
    const email = `keep-${unique()}@example.com`;
    await fillRequired(page, email);
    await field(page, "Co-Applicant Name").fill("Sam Reyes");
    await sign(page, "applicantSignature");
    await sign(page, "coApplicantSignature");
    const drawn = await signature(page, "applicantSignature").locator("input[type=hidden]").inputValue();

    // The session ends on the server (e.g. it expired) before the visitor presses Submit.
    await services.auth.sessions.revoke(me.token);
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByTestId("application-failure")).toHaveText("Submission failed: Authentication required");
    await expect(field(page, "Applicant Name")).toHaveValue("Dana Reyes");
    await expect(field(page, "Amount of Coverage")).toHaveValue("$250,000.00");
    await expect(field(page, "Co-Applicant Name")).toHaveValue("Sam Reyes");
    await expect(field(page, "Monthly Billing")).toBeChecked();
    await expect(signature(page, "applicantSignature").locator("canvas")).toHaveAttribute("data-signed", "true");
    await expect(signature(page, "coApplicantSignature").locator("canvas")).toHaveAttribute("data-signed", "true");
    expect(await signature(page, "applicantSignature").locator("input[type=hidden]").inputValue()).toBe(drawn);

    // Signed in again (in another tab), the same form goes through as it is.
    await context.clearCookies();
    const again = await signIn("member");
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByTestId("application-success")).toBeVisible();
    const row = await storedByEmail(services.database.db, "applications", email);
    expect(row).toMatchObject({ co_applicant_name: "Sam Reyes", submitted_by: again.userId, applicant_signature: drawn });
    expect(row.co_applicant_signature).toMatch(/^data:image\/png;base64,/);
  });

  test("works at 375 px: no sideways scrolling, signing and submitting", async ({ page, signIn, services }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn("member");
    await page.goto("/application");
    expect(await noHorizontalScroll(page)).toBe(true);
    const canvas = signature(page, "applicantSignature").locator("canvas");
    expect((await canvas.boundingBox())!.height).toBe(200);
    await page.screenshot({ path: ".tmp/application-375.png" });
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByTestId("error-summary")).toBeFocused();
    await expect.poll(() => page.getByTestId("error-summary").evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.screenshot({ path: ".tmp/application-375-errors.png" });
    const email = `small-${unique()}@example.com`;
    await fillRequired(page, email);
    await sign(page, "applicantSignature");

    // Turning the phone (a resize) keeps the drawing.
    await page.setViewportSize({ width: 700, height: 400 });
    await expect(canvas).toHaveAttribute("data-signed", "true");
    const inked = await canvas.evaluate((el: HTMLCanvasElement) => {
      const data = el.getContext("2d")!.getImageData(0, 0, el.width, el.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return { n, width: el.width, cssWidth: el.offsetWidth };
    });
    expect(inked.n).toBeGreaterThan(50);
    expect(inked.width).toBe(Math.round(inked.cssWidth * (await page.evaluate(() => window.devicePixelRatio))));
    await page.setViewportSize({ width: 375, height: 800 });

    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByTestId("application-success")).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(5);
    await page.screenshot({ path: ".tmp/application-375-success.png" });
    expect(await services.database.db.selectFrom("applications").select("id").where("email", "=", email).executeTakeFirst()).toBeTruthy();
    await expectNoAxeViolations(page);
  });

  test("before JavaScript loads, a posted form gets the same messages from the server", async ({ browser, signIn }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await signIn("member", { context });
      await page.goto("/application");
      await field(page, "Applicant Name").fill("Dana Reyes");
      await page.getByRole("button", { name: "Submit Application" }).click();
      const summary = page.getByTestId("error-summary");
      await expect(summary).toContainText("Please correct the following:");
      await expect(summary.getByRole("listitem")).toContainText([MESSAGES.amountOfCoverage, MESSAGES.applicantSignature]);
      await expect(summary.getByRole("listitem").filter({ hasText: MESSAGES.applicantName })).toHaveCount(0);
      await expect(field(page, "Applicant Name")).toHaveValue("Dana Reyes");
      // (Playwright's text locators skip <noscript>; the browser shows it with scripting off.)
      expect(await page.content()).toContain("Drawing your signatures needs JavaScript.");
    } finally {
      await context.close();
    }
  });

  test("is crisp on a high-density screen", async ({ browser, signIn }) => {
    const context = await browser.newContext({ deviceScaleFactor: 2, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn("member", { context });
      await page.goto("/application");
      const canvas = signature(page, "applicantSignature").locator("canvas");
      await expect.poll(() => canvas.evaluate((el: HTMLCanvasElement) => el.height)).toBe(400);
      await page.screenshot({ path: ".tmp/application-desktop.png", fullPage: true });
    } finally {
      await context.close();
    }
  });
});
