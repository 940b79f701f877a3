import type { BrowserContext, Page } from "@playwright/test";
import { sessionCookieName } from "../../app/features/auth/cookie.server";
import type { Services } from "../../app/server/services.server";
import { E2E_BASE } from "./env";
import { deleteSubmissions } from "../support/submission-fixtures";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/** Signs the account in on another browser (a second session of the same account). */
async function addSession(services: Services, context: BrowserContext, userId: number) {
  const user = (await services.auth.users.findById(userId))!;
  const { token } = await services.auth.sessions.create(user, false);
  await context.addCookies([{ name: sessionCookieName(false), value: token, url: E2E_BASE, httpOnly: true, sameSite: "Lax" }]);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `.tmp/screens/account-${name}.png`, fullPage: true, style: "header { position: static !important; }" });

test.describe("my account", () => {
  test("a member reaches their page from the welcome line, sees what they sent and its status, and keeps their contact details", async ({
    page,
    signIn,
    services,
  }) => {
    await services.database.db.deleteFrom("rate_limits").where("key", "like", "submit_%").execute();
    const account = await signIn("member", { firstName: "Robin" });
    await page.goto("/");
    await page.getByTestId("welcome-line").click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("heading", { name: "Hello, Robin Member", level: 1 })).toBeVisible();
    await expect(page.getByTestId("membership-details")).toContainText(account.certificate!);
    await expect(page.getByTestId("membership-details")).toContainText("Active");
    await expect(page.getByText("Nothing yet.")).toBeVisible();

    // A message sent while signed in shows, with each status change staff make.
    const sent = await page.request.post("/api/forms", {
      data: { name: "Robin Member", email: "robin@example.com", phone: "", subject: "warranty", message: "Is my boiler covered?" },
    });
    expect(sent.status()).toBe(201);
    const id = (await sent.json()).id as number;
    await services.submissionAdmin.setStatus({ id: 1 }, "contact_messages", id, "in-review");
    await page.reload();
    const item = page.getByTestId("account-submission");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Contact Form");
    await expect(item).toContainText("In Review");
    await expect(item.getByRole("listitem")).toHaveText(/^In Review: /);

    // Contact details: a wrong one is refused beside its field; good ones are kept.
    await page.getByLabel("E-mail").fill("robin@");
    await page.getByRole("button", { name: "Save contact details" }).click();
    await expect(page.getByText("Enter an e-mail address like name@example.com.").first()).toBeVisible();
    // A new address needs a link sent to it (email-change.spec.ts): this site sends no mail, and says so.
    await page.getByLabel("E-mail").fill("robin@example.com");
    await page.getByRole("button", { name: "Save contact details" }).click();
    await expect(
      page.getByText("Your e-mail address cannot be changed here: this site sends no mail. Please contact us to change it.").first(),
    ).toBeVisible();
    await page.getByLabel("E-mail").fill("");
    // Digits typed as they come are shown formatted like every other phone number of the site.
    await page.getByLabel("Phone").fill("2035550199");
    await page.getByLabel("Address line 1").focus();
    await expect(page.getByLabel("Phone")).toHaveValue("(203) 555-0199");
    await page.getByLabel("Address line 1").fill("12 Elm Street");
    await page.getByLabel("City").fill("Stamford");
    await page.getByLabel("State").fill("ct");
    await page.getByLabel("ZIP Code").fill("06905");
    await page.getByRole("button", { name: "Save contact details" }).click();
    await expect(page.getByRole("status").filter({ hasText: "saved" })).toHaveText("Your contact details were saved.");
    await page.reload();
    await expect(page.getByLabel("State")).toHaveValue("CT");
    await expect(page.getByLabel("Phone")).toHaveValue("(203) 555-0199");
    await expectNoAxeViolations(page);
    await shot(page, "desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page);
    await shot(page, "phone");
    await deleteSubmissions(services.database, "contact_messages", [id]);
  });

  test("'Sign out everywhere' ends the member's sessions in other browsers and keeps this one", async ({
    page,
    browser,
    signIn,
    services,
  }) => {
    const me = await signIn("member", { firstName: "Sasha" });
    const elsewhere = await browser.newContext();
    await addSession(services, elsewhere, me.userId);
    const other = await elsewhere.newPage();
    await other.goto("/account");
    await expect(other.getByRole("heading", { name: "Hello, Sasha Member", level: 1 })).toBeVisible();

    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByTestId("sign-out-everywhere-message")).toHaveText(
      "Signed out everywhere else: 1 other session was ended. This browser stays signed in.",
    );
    await other.reload();
    await expect(other.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
    await expect(other.getByTestId("welcome-line")).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Hello, Sasha Member", level: 1 })).toBeVisible();
    await elsewhere.close();
  });

  test("'Sign out everywhere' on the staff dashboard ends the staff member's other sessions", async ({
    page,
    browser,
    signIn,
    services,
  }) => {
    const me = await signIn("limited_admin");
    const elsewhere = await browser.newContext();
    await addSession(services, elsewhere, me.userId);
    const other = await elsewhere.newPage();
    await other.goto("/admin/dashboard");
    await expect(other).toHaveURL(/\/admin\/dashboard$/);

    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page.getByText("Signed out everywhere else: 1 other session was ended. This browser stays signed in.")).toBeVisible();
    await other.reload();
    await expect(other.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await elsewhere.close();
  });

  test("staff have no account page: the address takes them to their dashboard", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/account");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
});

test("the address's City, State and ZIP Code labels stay on one line and their inputs line up, on a desktop and a phone", async ({
  page,
  signIn,
}) => {
  await signIn("member");
  for (const width of [1280, 1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/account");
    const form = page.locator("form", { has: page.getByRole("button", { name: "Save contact details" }) });
    await expect(form).toBeVisible();
    const fields = await form.evaluate((el) =>
      ["email", "city", "state", "zip"].map((name) => {
        const input = el.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
        const label = el.querySelector(`label[for="${input.id}"]`)!;
        return { name, labelHeight: label.getBoundingClientRect().height, inputTop: Math.round(input.getBoundingClientRect().top) };
      }),
    );
    const [email, city, state, zip] = fields;
    for (const field of [city, state, zip]) expect(field.labelHeight, `${field.name} at ${width} px`).toBe(email.labelHeight);
    // One row (City, State, ZIP) or two (City; State and ZIP), each lined up.
    expect(state.inputTop, `State and ZIP at ${width} px`).toBe(width === 390 ? state.inputTop : zip.inputTop);
    if (width === 1280) expect(city.inputTop).toBe(state.inputTop);
    await form.screenshot({ path: `.tmp/screens/account-address-${width}.png` });
  }
});
