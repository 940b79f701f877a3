import type { Page } from "@playwright/test";
import { addDays, formatCents, formatLongDay, todayIn } from "../../app/features/membership/coverage";
import type { Services } from "../../app/server/services.server";
import { createAccount, expect, expectNoAxeViolations, test, type SignedIn } from "./fixtures";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `.tmp/screens/membership-${name}.png`, fullPage: true, style: "header { position: static !important; }" });

/** The association's calendar day, as the server computes coverage (TIME_ZONE's default). */
const today = () => todayIn("America/New_York");

test.describe("my account: coverage and proof of coverage", () => {
  // One after the other: every look-up of /verify counts against this machine's one address.
  test.describe.configure({ mode: "default" });
  let staff: { id: number };
  test.beforeEach(async ({ services }) => {
    staff = { id: (await createAccount(services, "limited_admin")).userId };
    // Every verification costs the address a point; these tests come from one address.
    await services.database.db.deleteFrom("rate_limits").where("key", "like", "verify_lookup%").execute();
  });

  /**
   * A monthly member approved two months ago, $250,000 of coverage: three months paid by card,
   * one more by check that was refunded. Real rows, through the same service staff use.
   */
  async function coveredMember(services: Services, member: SignedIn) {
    const approvedOn = addDays(today(), -60);
    await services.coverage.setPlan(staff, member.userId, {
      billing: "monthly",
      coverageAmount: 25_000_000,
      beneficiaryName: "Sam Member",
      beneficiaryRelationship: "spouse",
      approvedOn,
    });
    await services.coverage.recordPayment(staff, member.userId, {
      amount: 5985,
      paidOn: addDays(approvedOn, 1),
      method: "card",
      reference: `PP-${member.certificate}`,
    });
    const check = await services.coverage.recordPayment(staff, member.userId, {
      amount: 1995,
      paidOn: addDays(approvedOn, 20),
      method: "check",
      reference: null,
    });
    const checkId = check.payments.find((p) => p.method === "check")!.id;
    await services.coverage.refund(staff, checkId, { amount: null, refundedOn: addDays(approvedOn, 25), reason: "Paid twice" });
    return { view: await services.coverage.forMember(member.userId), approvedOn };
  }

  for (const width of [1280, 390] as const) {
    test(`a member sees their coverage, pays the amount due and prints their card (${width}px)`, async ({ page, signIn, services }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const member = await signIn("member", { firstName: "Robin" });
      const { view, approvedOn } = await coveredMember(services, member);
      const coverage = view.coverage;
      expect(coverage.label).toBe("Covered");

      await page.goto("/account");
      const section = page.getByTestId("coverage");
      await expect(section.getByTestId("coverage-status")).toHaveText("Covered");
      const details = section.getByTestId("coverage-details");
      const row = (label: string) => details.locator(`dt:text-is("${label}") + dd`);
      await expect(row("Plan")).toHaveText("Monthly ($19.95 a month)");
      await expect(row("Amount of coverage")).toHaveText("$250,000.00");
      await expect(row("Coverage effective")).toHaveText(formatLongDay(coverage.effectiveOn!));
      await expect(row("Paid through")).toHaveText(formatLongDay(coverage.paidThrough!));
      await expect(row("Next payment due")).toHaveText(`${formatLongDay(coverage.nextDue!.on)}: $19.95`);

      // The history, newest first: the refund as a refund of the check, the check marked refunded.
      const history = section.getByTestId("payment-history").locator("tbody tr");
      await expect(history).toHaveCount(3);
      await expect(history.nth(0)).toHaveAttribute("data-kind", "refund");
      await expect(history.nth(0)).toContainText(`Refund of the payment of ${formatLongDay(addDays(approvedOn, 20))}`);
      await expect(history.nth(0)).toContainText("-$19.95");
      await expect(history.nth(1)).toContainText("Payment by check (refunded)");
      await expect(history.nth(2)).toContainText(`Payment by card · Ref. PP-${member.certificate}`);
      await expect(history.nth(2)).toContainText(formatCents(5985));

      // The proof-of-coverage card: what it proves, and the QR code the server drew.
      const card = page.getByTestId("proof-card");
      await expect(card).toContainText("Robin Member");
      await expect(card).toContainText(member.certificate!);
      await expect(card).toContainText("Covered");
      await expect(card).toContainText("$250,000.00");
      await expect(card).toContainText(formatLongDay(coverage.paidThrough!));
      const qr = card.getByTestId("proof-card-qr");
      await expect(qr.locator("svg path")).toHaveCount(2);
      const qrBox = (await qr.boundingBox())!;
      expect(qrBox.width).toBeGreaterThanOrEqual(140);
      const verifyUrl = (await card.getByTestId("proof-card-link").getAttribute("href"))!;
      expect(verifyUrl).toMatch(new RegExp(`^${page.url().replace(/\/account$/, "")}/verify/[A-Za-z0-9_-]{43}$`));
      await expectNoAxeViolations(page);
      await shot(page, `account-${width}`);
      await card.screenshot({ path: `.tmp/screens/membership-card-${width}.png` });
      await section.screenshot({ path: `.tmp/screens/membership-coverage-${width}.png` });

      // Make a Payment: the hand-over, with the membership ID and the amount due filled in.
      await section.getByRole("button", { name: "Make a Payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Leaving Our Site" });
      await expect(dialog.getByTestId("payment-member-id")).toHaveText(member.certificate!);
      await expect(dialog.getByTestId("payment-amount")).toHaveText("$19.95");
      await expect(dialog.getByTestId("payment-details")).toContainText("Membership Fees");
      await expectNoAxeViolations(page);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      // Printed (or saved as PDF), the page is the card alone, on one page.
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("heading", { name: "Coverage", exact: true })).toBeHidden();
      await expect(page.getByTestId("welcome-line")).toBeHidden();
      await expect(page.locator("footer").last()).toBeHidden();
      await expect(card).toBeVisible();
      await page.screenshot({ path: `.tmp/screens/membership-print-${width}.png`, fullPage: true });
      for (const format of ["Letter", "A4"]) {
        const pdf = await page.pdf({ format, printBackground: true });
        expect(pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g), format).toHaveLength(1);
      }
      await page.emulateMedia({ media: "screen" });

      // The card's code opens the public page: covered, first name, last initial, through when.
      const verify = await page.goto(verifyUrl);
      expect(verify!.status()).toBe(200);
      expect(verify!.headers()["cache-control"]).toContain("no-store");
      const main = page.locator("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Covered");
      await expect(main).toContainText("Robin M.");
      await expect(main).toContainText(formatLongDay(coverage.paidThrough!));
      await expect(main).not.toContainText(member.certificate!);
      await expect(main).not.toContainText("Robin Member");
      await expect(main).not.toContainText("250,000");
      await expectNoAxeViolations(page);
      await shot(page, `verify-covered-${width}`);
    });
  }

  for (const width of [1280, 390] as const) {
    test(`a payment refunded in part shows how much; a reinstated term says why a payment is owed (${width}px)`, async ({
      page,
      signIn,
      services,
    }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const member = await signIn("member", { firstName: "Morgan" });
      const superAdmin = { id: (await createAccount(services, "super_admin")).userId };
      const approvedOn = addDays(today(), -100);
      await services.coverage.setPlan(staff, member.userId, {
        billing: "monthly",
        coverageAmount: null,
        beneficiaryName: null,
        beneficiaryRelationship: null,
        approvedOn,
      });
      const paidOn = addDays(approvedOn, 2);
      const paid = await services.coverage.recordPayment(staff, member.userId, { amount: 23940, paidOn, method: "card", reference: null });
      const paymentId = paid.payments[0].id;
      await services.coverage.refund(staff, paymentId, { amount: 1995, refundedOn: addDays(paidOn, 5), reason: "Goodwill" });

      await page.goto("/account");
      const section = page.getByTestId("coverage");
      await expect(section.getByTestId("coverage-status")).toHaveText("Covered");
      const history = section.getByTestId("payment-history").locator("tbody tr");
      await expect(history.nth(1)).toContainText("Payment by card ($19.95 of $239.40 refunded)");
      await expect(history.nth(1)).toContainText("$239.40");
      await expect(history.nth(0)).toContainText(`Refund of the payment of ${formatLongDay(paidOn)}`);
      await expect(history.nth(0)).toContainText("-$19.95");
      await expectNoAxeViolations(page);
      await section.screenshot({ path: `.tmp/screens/membership-partial-refund-${width}.png` });

      // Cancelled and reinstated today, what was left of the earlier term refunded: the member is told why a payment is owed.
      await services.coverage.cancel(superAdmin, member.userId, { cancelledOn: today(), reason: "By mistake" });
      const reinstated = await services.coverage.reinstate(superAdmin, member.userId, {
        reinstatedOn: today(),
        reason: null,
        earlierPayments: "refund",
      });
      const refunded = reinstated.payments[0].refundedCents;
      expect(refunded).toBeGreaterThan(1995);
      await page.reload();
      await expect(section.getByTestId("coverage-status")).toHaveText("Awaiting first payment");
      await expect(section).toContainText(
        `Your membership was reinstated on ${formatLongDay(today())} as a new term. Payments made before then belong to the earlier term (see your payment history), so your coverage begins again on the 1st of the month after we receive this term's first payment.`,
      );
      await expect(history.nth(2)).toContainText(`Payment by card (${formatCents(refunded)} of $239.40 refunded)`);
      await expect(history.nth(0)).toContainText(`-${formatCents(refunded - 1995)}`);
      await expect(section.getByRole("button", { name: "Make a Payment" })).toBeVisible();
      await expectNoAxeViolations(page);
      await section.screenshot({ path: `.tmp/screens/membership-reinstated-${width}.png` });
    });
  }

  test("a new code replaces the card's old one, after the member confirms", async ({ page, signIn, services }) => {
    const member = await signIn("member", { firstName: "Avery" });
    await coveredMember(services, member);
    await page.goto("/account");
    const card = page.getByTestId("proof-card");
    const oldUrl = (await card.getByTestId("proof-card-link").getAttribute("href"))!;

    // Cancel keeps the code; the confirmation says what happens to printed cards.
    await page.getByRole("button", { name: "New code" }).click();
    const confirm = page.getByRole("dialog", { name: "Make a new code?" });
    await expect(confirm).toContainText("every card you printed or saved before stops working");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await expectNoAxeViolations(page);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(card.getByTestId("proof-card-link")).toHaveAttribute("href", oldUrl);

    await page.getByRole("button", { name: "New code" }).click();
    await confirm.getByRole("button", { name: "Make a new code" }).click();
    await expect(page.getByTestId("proof-card-message")).toHaveText(
      "Your card has a new code. Cards printed or saved before no longer verify.",
    );
    await expect(card.getByTestId("proof-card-link")).not.toHaveAttribute("href", oldUrl);
    const newUrl = (await card.getByTestId("proof-card-link").getAttribute("href"))!;

    const old = await page.goto(oldUrl);
    expect(old!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not verified");
    expect((await page.goto(newUrl))!.status()).toBe(200);
    await expect(page.locator("main").getByRole("heading", { level: 1 })).toHaveText("Covered");
  });

  for (const width of [1280, 390] as const) {
    test(`a lapsed member's card says Not covered; a guessed code is a 404 (${width}px)`, async ({ page, signIn, services }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const member = await signIn("member", { firstName: "Casey" });
      const approvedOn = addDays(today(), -200);
      await services.coverage.setPlan(staff, member.userId, {
        billing: "monthly",
        coverageAmount: null,
        beneficiaryName: null,
        beneficiaryRelationship: null,
        approvedOn,
      });
      await services.coverage.recordPayment(staff, member.userId, { amount: 1995, paidOn: approvedOn, method: "ach", reference: null });
      const { coverage } = await services.coverage.forMember(member.userId);
      expect(coverage.label).toBe("Lapsed");

      await page.goto("/account");
      await expect(page.getByTestId("coverage-status")).toHaveText("Lapsed");
      await expect(page.getByTestId("proof-card")).toContainText("Lapsed");
      await expect(page.getByTestId("proof-card")).toContainText("Not on record");
      const verifyUrl = (await page.getByTestId("proof-card-link").getAttribute("href"))!;

      expect((await page.goto(verifyUrl))!.status()).toBe(200);
      const main = page.locator("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Not covered");
      await expect(main).toContainText("Casey M.");
      await expect(main).toContainText(formatLongDay(coverage.paidThrough!));
      await expectNoAxeViolations(page);
      await shot(page, `verify-not-covered-${width}`);

      const guessed = await page.goto(`/verify/${"A".repeat(43)}`);
      expect(guessed!.status()).toBe(404);
      expect(guessed!.headers()["cache-control"]).toContain("no-store");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not verified");
      await expect(page.getByRole("alert")).toHaveText("This proof of coverage is not valid. It may have been replaced by a newer card.");
      await expectNoAxeViolations(page);
      await shot(page, `verify-guessed-${width}`);
    });
  }

  test("guessing codes is slowed: after 30 look-ups from one address the page answers 429 with Retry-After", async ({ page }) => {
    // A visitor (not signed in) is told too that the answer is not to be kept.
    const first = await page.request.get(`/verify/${"G".repeat(43)}`);
    expect([first.status(), first.headers()["cache-control"]]).toEqual([404, "no-store"]);
    for (let i = 1; i < 30; i++) expect((await page.request.get(`/verify/${"G".repeat(42)}${i % 10}`)).status()).toBe(404);
    const refused = await page.goto(`/verify/${"G".repeat(43)}`);
    expect(refused!.status()).toBe(429);
    expect(Number(refused!.headers()["retry-after"])).toBeGreaterThan(0);
    await expect(page.getByRole("alert")).toHaveText("Too many verifications from your network. Please try again later.");
  });

  test("a member without a plan is told so; a failed load says why and can be tried again", async ({ page, signIn }) => {
    await signIn("member");
    // The first answer is held until the page has shown that it is loading, then fails.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let failures = 1;
    await page.route("**/api/account/membership", async (route) => {
      if (failures-- <= 0) return route.fallback();
      await held;
      await route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: "Service unavailable" }),
      });
    });
    await page.goto("/account");
    const section = page.getByTestId("coverage");
    await expect(section.getByRole("status")).toHaveText("Loading your coverage...");
    await expect(section).toHaveAttribute("aria-busy", "true");
    release();
    await expect(section.getByRole("alert")).toContainText("Could not load your coverage: Service unavailable");
    await expectNoAxeViolations(page);
    await section.getByRole("button", { name: "Try again" }).click();
    await expect(section.getByTestId("coverage-status")).toHaveText("No plan on record");
    await expect(section).toContainText("We have no plan on record for your membership yet.");
    await expect(section).toContainText("No payments recorded yet.");
    await expect(section.getByRole("button", { name: "Make a Payment" })).toHaveCount(0);
    await expect(page.getByTestId("proof-of-coverage")).toContainText(
      "Your proof of coverage card appears here once your membership has a plan on record.",
    );
    await expectNoAxeViolations(page);
    await shot(page, "account-no-plan");
  });
});
