import crypto from "node:crypto";
import { MEMBER_BIRTHDATE, expect, expectNoAxeViolations, test } from "./fixtures";
import type { Services } from "../../app/server/services.server";
import { formatLongDay, todayIn } from "../../app/features/membership/coverage";
import { ONLINE_ACTOR } from "../../app/features/membership/service.server";

const uniq = () => crypto.randomBytes(3).toString("hex").toUpperCase();

/** A member with a monthly plan (and an address unless `email` is null). */
async function memberWithPlan(services: Services, certificate: string, email: string | null) {
  const { id } = await services.auth.users.createMember({
    certificate,
    birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
    firstName: "Robin",
    lastName: "Reminded",
    email,
  });
  const at = new Date().toISOString();
  await services.database.db
    .insertInto("membership_plans")
    .values({ user_id: id, billing: "monthly", approved_on: null, carried_paid_through: "2027-02-28", created_at: at, updated_at: at })
    .execute();
  return id;
}

test.describe("reminder e-mails in member administration", () => {
  for (const [label, width, height] of [
    ["desktop", 1280, 900],
    ["phone", 390, 844],
  ] as const) {
    test(`staff see a member's reminder mails with their state, and who has no address (${label})`, async ({ page, signIn, services }) => {
      await page.setViewportSize({ width, height });
      const tag = `0RM${uniq()}`;
      const id = await memberWithPlan(services, `${tag}-1`, "robin@example.org");
      await memberWithPlan(services, `${tag}-2`, null);
      const at = "2027-03-01T15:00:00.000Z";
      const row = (kind: string, period: string, status: string, extra: Record<string, unknown>) => ({
        user_id: id,
        kind,
        period,
        due_on: period,
        status,
        attempts: 1,
        next_attempt_at: null,
        created_at: at,
        updated_at: at,
        ...extra,
      });
      await services.database.db
        .insertInto("membership_reminders")
        .values([
          row("past-due", "2027-02-28", "sent", { sent_to: "robin@example.org", sent_at: at }),
          row("lapsed", "2027-02-28", "failed", {
            attempts: 2,
            last_error: "451 4.3.0 Mailbox busy, try again later",
            next_attempt_at: "2099-04-01T15:02:00.000Z",
          }),
          row("due-soon", "2027-01-31", "dropped", { attempts: 0, last_error: "No longer due: the membership changed before it was sent" }),
        ])
        .execute();

      await signIn("limited_admin");
      await page.goto(`/admin/members?q=${tag.toLowerCase()}`);
      await expect(page.getByTestId("members-row")).toHaveCount(2);

      // Who gets none: listed below the members.
      const without = page.getByRole("region", { name: "Members without an e-mail address" });
      await expect(without).toContainText(`${tag}-2`);
      await expect(without).not.toContainText(`${tag}-1`);

      await page.getByRole("button", { name: `Membership ${tag}-1` }).click();
      const dialog = page.getByRole("dialog", { name: /^Membership of / });
      const mails = dialog.getByRole("region", { name: "Payment reminders" });
      const items = mails.getByTestId("reminder-mails").getByRole("listitem");
      await expect(items).toHaveCount(3);
      // Newest first.
      await expect(items.nth(0)).toContainText("Payment due soon (paid through January 31, 2027)");
      await expect(items.nth(0)).toContainText("Not sent");
      await expect(items.nth(1)).toContainText("Lapsed (paid through February 28, 2027)");
      await expect(items.nth(1)).toContainText("451 4.3.0 Mailbox busy, try again later. Next try");
      await expect(items.nth(1)).toContainText("Failed");
      await expect(items.nth(2)).toContainText("Past due (paid through February 28, 2027)");
      await expect(items.nth(2)).toContainText("To robin@example.org on");
      await expect(items.nth(2)).toContainText("Sent");
      await expect(mails).toContainText("This site sends no reminders: mail is not configured.");
      await expectNoAxeViolations(page);
      await mails.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `.tmp/reminder-mails-${label}.png` });
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: `Membership ${tag}-2` }).click();
      await expect(page.getByRole("dialog", { name: /^Membership of / })).toContainText(
        "No e-mail address on file: this member gets no reminders.",
      );
      await expect(page.getByRole("dialog", { name: /^Membership of / })).toContainText("No reminders yet.");
      await page.keyboard.press("Escape");
      await without.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `.tmp/members-without-email-${label}.png` });
    });
  }

  test("a member who paid online: the receipt names its payment beside the announcement and each reminder kind; both dialogs open", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = `0RP${uniq()}`;
    const { id } = await services.auth.users.createMember({
      certificate: tag,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: "Paige",
      lastName: "Online",
      email: "paige@example.org",
    });
    const staff = await signIn("limited_admin");
    const today = todayIn("America/New_York");
    await services.coverage.setPlan({ id: staff.userId }, id, {
      billing: "annual",
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: today,
    });
    // Paid online, as the webhook records it: the receipt's period is the payment's id.
    await services.database.db
      .transaction()
      .execute((trx) =>
        services.coverage.recordPaymentIn(trx, ONLINE_ACTOR, id, { amount: 9900, paidOn: today, method: "online", reference: `pi_${tag}` }),
      );
    const payment = await services.database.db
      .selectFrom("membership_payments")
      .select("id")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    const at = "2027-03-01T15:00:00.000Z";
    const row = (kind: string, period: string) => ({
      user_id: id,
      kind,
      period,
      due_on: "2027-03-01",
      status: "sent",
      attempts: 1,
      next_attempt_at: null,
      sent_to: "paige@example.org",
      sent_at: at,
      created_at: at,
      updated_at: at,
    });
    await services.database.db
      .insertInto("membership_reminders")
      .values([
        row("first-payment", "2027-01-10"),
        row("due-soon", "2027-01-31"),
        row("past-due", "2027-02-28"),
        row("lapsed", "2027-03-31"),
        row("announcement", "424242"),
        row("payment-received", String(payment.id)),
      ])
      .execute();

    await page.goto(`/admin/members?q=${tag.toLowerCase()}`);
    await page.getByRole("button", { name: `Membership ${tag}` }).click();
    const dialog = page.getByRole("dialog", { name: /^Membership of / });
    const items = dialog.getByRole("region", { name: "Payment reminders" }).getByTestId("reminder-mails").getByRole("listitem");
    // Newest first; the announcement is staff's mail to members, read on its own progress page.
    await expect(items).toHaveCount(5);
    await expect(items.nth(0)).toContainText(`Payment received ($99.00 paid ${formatLongDay(today)})`);
    await expect(items.nth(1)).toContainText("Lapsed (paid through March 31, 2027)");
    await expect(items.nth(2)).toContainText("Past due (paid through February 28, 2027)");
    await expect(items.nth(3)).toContainText("Payment due soon (paid through January 31, 2027)");
    await expect(items.nth(4)).toContainText("First payment awaited (approved January 10, 2027)");
    await expect(dialog).toContainText(`pi_${tag}`);
    // Staff read times in the association's zone, named (15:00 UTC on March 1 is 10 AM in New York).
    await expect(items.nth(0)).toContainText("10:00 AM EST");

    await dialog.getByRole("button", { name: "Record payment" }).click();
    const record = page.getByRole("dialog", { name: "Record payment", exact: true });
    await expect(record.getByLabel("Amount")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
