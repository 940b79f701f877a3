import type { Page } from "@playwright/test";
import { addMonthsKeepingMonthEnd, firstOfNextMonth, formatLongDay, todayIn } from "../../app/features/membership/coverage";
import { ONLINE_TEXTS } from "../../app/features/membership/online/texts";
import { checkoutSession, event, signed, STRIPE_TEST_ENV } from "../support/stripe-events";
import { createAccount, expect, test } from "./fixtures";
import { startSecondSite } from "./second-site";

/** This spec's own instance of the built site, with online payments configured (read at start-up). */
const SITE_PORT = Number(process.env.E2E_STRIPE_PORT ?? 3241);

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `.tmp/screens/online-${name}.png`, fullPage: true, style: "header { position: static !important; }" });

test.describe("dues paid online", () => {
  test.describe.configure({ mode: "default" });
  let site: Awaited<ReturnType<typeof startSecondSite>>;
  test.beforeAll(async () => {
    test.setTimeout(180_000); // starts a second copy of the site
    site = await startSecondSite(STRIPE_TEST_ENV, { port: SITE_PORT });
  });
  test.afterAll(async () => site?.close());

  for (const width of [1280, 390] as const) {
    test(`a member's Make a Payment opens their plan's link; after the signed checkout My account shows the new dates and autopay (${width}px)`, async ({
      page,
      signIn,
      services,
    }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const staff = await createAccount(services, "limited_admin");
      const member = await signIn("member", { firstName: "Casey" });
      const today = todayIn("America/New_York");
      await services.coverage.setPlan({ id: staff.userId }, member.userId, {
        billing: "monthly",
        coverageAmount: null,
        beneficiaryName: null,
        beneficiaryRelationship: null,
        approvedOn: today,
      });
      await services.database.db.updateTable("users").set({ email: "casey@example.com" }).where("id", "=", member.userId).execute();

      // The payment page is Stripe's: the browser's request to it is answered here, and nothing leaves the machine.
      let opened: URL | null = null;
      await page.route("https://buy.stripe.com/**", (route) => {
        opened = new URL(route.request().url());
        return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Stripe Checkout</title><h1>Pay</h1>" });
      });

      await page.goto(`${site.url}/account`);
      const section = page.getByTestId("coverage");
      await expect(section.getByTestId("coverage-status")).toHaveText("Awaiting first payment");
      await expect(section.getByTestId("autopay")).toContainText("Autopay: Off");
      await shot(page, `account-before-${width}`);
      await section.getByRole("link", { name: "Make a Payment" }).click();
      await expect(page).toHaveTitle("Stripe Checkout");
      const reference = await services.online.paymentReference(member.userId);
      expect(`${opened!.origin}${opened!.pathname}`).toBe(STRIPE_TEST_ENV.STRIPE_LINK_MONTHLY);
      expect(opened!.searchParams.get("client_reference_id")).toBe(reference);
      expect(opened!.searchParams.get("prefilled_email")).toBe("casey@example.com");

      // Back at the site before the event: it says so and waits, without reloading.
      await page.goto(`${site.url}/account?paid=1`);
      await expect(page.getByTestId("paid-notice")).toContainText(ONLINE_TEXTS.beingRecorded);
      await shot(page, `account-waiting-${width}`);
      const sub = `sub_${member.userId}e2e`;
      const { payload, header } = signed(
        event(
          "checkout.session.completed",
          checkoutSession({ clientReference: reference, amount: 1995, mode: "subscription", subscription: sub }),
        ),
      );
      const res = await fetch(`${site.url}/api/payments/stripe/webhook`, {
        method: "POST",
        body: payload,
        headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
      });
      expect(res.status).toBe(200);
      await expect(page.getByTestId("paid-notice")).toContainText(ONLINE_TEXTS.recorded);
      await expect(section.getByTestId("coverage-status")).toHaveText(`Starts ${formatLongDay(firstOfNextMonth(today))}`);
      await expect(section.getByTestId("autopay")).toContainText("Autopay: On");
      await expect(section.getByRole("link", { name: "Manage autopay" })).toHaveAttribute(
        "href",
        STRIPE_TEST_ENV.STRIPE_CUSTOMER_PORTAL_URL,
      );
      expect(new URL(page.url()).search).toBe("");
      await shot(page, `account-paid-${width}`);

      // The card's next charge, as the subscription's events give it, beside the plan's next payment due:
      // one sentence says the charge is how that payment is paid (issue 48).
      const nextCharge = addMonthsKeepingMonthEnd(today, 1);
      const nextDue = firstOfNextMonth(firstOfNextMonth(today));
      await services.database.db
        .updateTable("membership_online")
        .set({ autopay_next_charge_on: nextCharge })
        .where("user_id", "=", member.userId)
        .execute();
      await page.reload();
      await expect(section.getByTestId("autopay")).toHaveText(
        `Autopay: On: your card is charged automatically on ${formatLongDay(nextCharge)} for the payment due ${formatLongDay(nextDue)}: nothing to do.Manage autopay`,
      );
      await expect(section.getByTestId("coverage-details")).toContainText(`Next payment due${formatLongDay(nextDue)}: $19.95`);
      await shot(page, `account-autopay-${width}`);
    });
  }

  test("a visitor's Make a Payment keeps the hand-off; staff see Unmatched payments", async ({ page, signIn, services }) => {
    await page.goto(`${site.url}/`);
    await page.getByRole("button", { name: "Make a Payment" }).first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");

    const { payload, header } = signed(
      event("checkout.session.completed", checkoutSession({ clientReference: "pay_nobody", amount: 2992 })),
    );
    await fetch(`${site.url}/api/payments/stripe/webhook`, {
      method: "POST",
      body: payload,
      headers: { "Stripe-Signature": header },
    });
    await signIn("super_admin");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.url}/admin/members?tab=unmatched`);
      await expect(page.getByRole("heading", { name: "Unmatched payments" })).toBeVisible();
      await expect(page.getByText("No member has this payment reference").first()).toBeVisible();
      await shot(page, `unmatched-${width}`);
    }
    await page.getByRole("button", { name: "Assign" }).first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await shot(page, "assign-dialog");
    void services;
  });

  test("a limited admin reads that a super admin assigns unmatched payments, on the list and in the dashboard's banner", async ({
    browser,
    signIn,
  }) => {
    const { payload, header } = signed(
      event("checkout.session.completed", checkoutSession({ clientReference: "pay_nobody_2", amount: 2992 })),
    );
    await fetch(`${site.url}/api/payments/stripe/webhook`, { method: "POST", body: payload, headers: { "Stripe-Signature": header } });
    const context = await browser.newContext();
    await signIn("limited_admin", { context });
    const page = await context.newPage();
    await page.goto(`${site.url}/admin/members?tab=unmatched`);
    const list = page.getByRole("region", { name: "Unmatched payments" });
    await expect(list.getByText("No member has this payment reference").first()).toBeVisible();
    await expect(list.getByTestId("unmatched-who")).toHaveText(
      "A super admin assigns these payments to their members or marks them handled.",
    );
    await expect(list.getByRole("button", { name: /Assign|Mark handled/ })).toHaveCount(0);
    await shot(page, "unmatched-limited");
    await page.goto(`${site.url}/admin`);
    await expect(
      page.getByRole("status").filter({ hasText: /unmatched online payments? waits? for a super admin to assign (it|them)\./ }),
    ).toBeVisible();
    await shot(page, "dashboard-limited");
    await context.close();
  });
});
