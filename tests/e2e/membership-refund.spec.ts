import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { MEMBER_BIRTHDATE, expect, test } from "./fixtures";
import type { Services } from "../../app/server/services.server";
import { addDays, firstOfNextMonth, formatCents, formatLongDay } from "../../app/features/membership/coverage";
import { daysInMonth, dayParts, isoDate } from "../../app/platform/dates";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `.tmp/screens/membership-refund-${name}.png`, fullPage: true, style: "header { position: static !important; }" });

const uniq = () => crypto.randomBytes(3).toString("hex").toUpperCase();

/** Bob, on the annual plan, paid $99.00 four months ago (by staff, so the payment can be refunded). */
async function paidAnnualMember(services: Services, tag: string) {
  const certificate = `${tag}-${uniq()}`;
  const { id } = await services.auth.users.createMember({
    certificate,
    birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
    firstName: "Bob",
    lastName: "Refunded",
  });
  const staff = await services.auth.createStaff(`seed${uniq().toLowerCase()}`, "correct horse battery", "super_admin");
  const today = services.coverage.today();
  const paidOn = addDays(today, -120);
  await services.coverage.setPlan(staff, id, {
    billing: "annual",
    coverageAmount: null,
    beneficiaryName: null,
    beneficiaryRelationship: null,
    approvedOn: paidOn,
  });
  await services.coverage.recordPayment(staff, id, { amount: 9900, paidOn, method: "card", reference: `R-${tag}` });
  return { id, certificate, paidOn, today };
}

test.describe("refunding a payment", () => {
  test("a double click on Refund opens the confirmation once; the form keeps what was typed", async ({ page, signIn, services }) => {
    const tag = `RD${uniq()}`;
    const bob = await paidAnnualMember(services, tag);
    await signIn("super_admin");
    await page.goto(`/admin/members?q=${tag}`);
    await page.getByRole("button", { name: `Membership ${bob.certificate}` }).click();
    const membership = page.getByRole("dialog", { name: "Membership of Bob Refunded", exact: true });
    await membership.getByRole("button", { name: `Refund the payment of ${formatLongDay(bob.paidOn)} (R-${tag})` }).click();
    const refund = page.getByRole("dialog", { name: "Refund payment", exact: true });
    await refund.getByLabel("Amount").fill("40");
    await refund.getByLabel("Reason").fill("Moved away");
    // A real double click: the second press is ignored.
    await refund.getByRole("button", { name: "Refund", exact: true }).dblclick();
    const confirm = page.getByRole("dialog", { name: "Confirm refund", exact: true });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("Refund $40.00 of the payment of");
    await confirm.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(refund.getByLabel("Amount")).toHaveValue("40");
    await expect(refund.getByLabel("Reason")).toHaveValue("Moved away");
    const rows = await services.database.db.selectFrom("membership_payments").select("id").where("user_id", "=", bob.id).execute();
    expect(rows).toHaveLength(1);
  });

  for (const [device, width, height] of [
    ["desktop", 1280, 900],
    ["phone", 390, 844],
  ] as const) {
    test(`a partial refund that ends the coverage says so; the member then reads past due, not awaiting a first payment (${device})`, async ({
      browser,
      page,
      signIn,
      services,
    }) => {
      // Two browsers and a member's page after staff's: slow on a loaded machine.
      test.slow();
      await page.setViewportSize({ width, height });
      // Bob signs in in his own browser; staff in theirs.
      const bob = await signIn("member", { firstName: "Bob" });
      const staffContext = await browser.newContext({ viewport: { width, height } });
      await signIn("super_admin", { context: staffContext });
      const staffPage = await staffContext.newPage();
      const seeder = await services.auth.createStaff(`seed${uniq().toLowerCase()}`, "correct horse battery", "super_admin");
      const today = services.coverage.today();
      const paidOn = addDays(today, -120);
      await services.coverage.setPlan(seeder, bob.userId, {
        billing: "annual",
        coverageAmount: null,
        beneficiaryName: null,
        beneficiaryRelationship: null,
        approvedOn: paidOn,
      });
      await services.coverage.recordPayment(seeder, bob.userId, {
        amount: 9900,
        paidOn,
        method: "card",
        reference: `RB-${bob.certificate}`,
      });

      await staffPage.goto(`/admin/members?q=${bob.certificate}`);
      await staffPage.getByRole("button", { name: `Membership ${bob.certificate}` }).click();
      const membership = staffPage.getByRole("dialog", { name: /^Membership of Bob/ });
      await membership.getByRole("button", { name: `Refund the payment of ${formatLongDay(paidOn)} (RB-${bob.certificate})` }).click();
      const refund = staffPage.getByRole("dialog", { name: "Refund payment", exact: true });
      // A year is bought whole: no part of it keeps him covered, and the form says so.
      await expect(refund.getByTestId("unused-months")).toHaveText(
        "No part of it can be refunded without ending Bob's coverage this month: a year of dues is paid whole.",
      );
      await refund.getByLabel("Amount").fill("40.00");
      await refund.getByLabel("Reason").fill("Goodwill");
      await refund.getByRole("button", { name: "Refund", exact: true }).click();
      const confirm = staffPage.getByRole("dialog", { name: "Confirm refund", exact: true });
      await expect(confirm).toContainText(
        `Refund $40.00 of the payment of ${formatLongDay(paidOn)}? Bob will not be covered after this refund: $59.00 is less than one year of dues. $59.00 of it stays refundable.`,
      );
      await shot(staffPage, `confirm-ends-${device}`);
      await confirm.getByRole("button", { name: "Refund", exact: true }).click();
      await expect(staffPage.getByTestId("membership-message")).toHaveText("Refund of $40.00 recorded. Status: Lapsed.");
      await staffContext.close();

      // Bob: lapsed, why, and the day his payment was due read as past.
      await page.goto("/account");
      const section = page.getByTestId("coverage");
      await expect(section.getByTestId("coverage-status")).toHaveText("Lapsed");
      await expect(section).toContainText(
        "Your membership lapsed. After a refund, what you have paid ($59.00) is less than one year of dues, so your coverage is not in force.",
      );
      await expect(section.getByTestId("coverage-details")).toContainText(`Payment past due since${formatLongDay(paidOn)}: $40.00`);
      await expect(section.getByTestId("coverage-details")).not.toContainText("Next payment due");
      await shot(page, `account-lapsed-${device}`);
    });
  }

  test("Refund the unused months: the amount that keeps the member covered to the end of this month", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = `RU${uniq()}`;
    const certificate = `${tag}-${uniq()}`;
    const { id } = await services.auth.users.createMember({
      certificate,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: "Ann",
      lastName: "Ahead",
    });
    const seeder = await services.auth.createStaff(`seed${uniq().toLowerCase()}`, "correct horse battery", "super_admin");
    const today = services.coverage.today();
    const paidOn = addDays(today, -40);
    await services.coverage.setPlan(seeder, id, {
      billing: "monthly",
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: paidOn,
    });
    // Six months paid: covered from the 1st after the payment.
    await services.coverage.recordPayment(seeder, id, { amount: 6 * 1995, paidOn, method: "card", reference: `RU-${tag}` });
    const [y, m] = dayParts(today);
    const monthEnd = isoDate(y, m, daysInMonth(y, m));
    const effective = firstOfNextMonth(paidOn);
    const [ey, em] = dayParts(effective);
    const used = (y - ey) * 12 + (m - em) + 1;
    const unused = (6 - used) * 1995;

    await signIn("super_admin");
    await page.goto(`/admin/members?q=${tag}`);
    await page.getByRole("button", { name: `Membership ${certificate}` }).click();
    const membership = page.getByRole("dialog", { name: "Membership of Ann Ahead", exact: true });
    await membership.getByRole("button", { name: `Refund the payment of ${formatLongDay(paidOn)} (RU-${tag})` }).click();
    const refund = page.getByRole("dialog", { name: "Refund payment", exact: true });
    await expect(refund.getByTestId("unused-months")).toContainText(`${formatCents(unused)} of it pays for coverage after this month`);
    await refund.getByRole("button", { name: "Refund the unused months" }).click();
    await expect(refund.getByLabel("Amount")).toHaveValue((unused / 100).toFixed(2));
    await refund.getByLabel("Reason").fill("Moving abroad");
    await refund.getByRole("button", { name: "Refund", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Confirm refund", exact: true });
    await expect(confirm).toContainText(`Ann will be covered through ${formatLongDay(monthEnd)} after this refund, not `);
    await shot(page, "unused-months");
    await confirm.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(page.getByTestId("membership-message")).toHaveText(`Refund of ${formatCents(unused)} recorded. Status: Covered.`);
    expect((await services.coverage.forMember(id)).coverage.paidThrough).toBe(monthEnd);
  });
});
