import type { Page } from "@playwright/test";
import { addDays, formatLongDay } from "../../app/features/membership/coverage";
import type { Services } from "../../app/server/services.server";
import { createAccount, expect, expectNoAxeViolations, test } from "./fixtures";

/*
 * A household covered by one certificate (issue 39): staff record the co-insured in the
 * Membership dialog; the member's card lists both people, and its check shows each one's first
 * name and last initial, with the one date both say the same way and the day of the check.
 */
const VIEWPORTS = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `.tmp/screens/household-${name}.png`, fullPage: true, style: "header { position: static !important; }" });

const SAM = {
  firstName: "Sam",
  lastName: "Quintero",
  birthdate: "1984-07-09",
  gender: "Male" as const,
  email: "sam.q@example.com",
  phone: "(555) 123-4567",
};

/** A monthly plan approved 40 days ago, a year paid the day after: covered today. */
async function coveredPlan(services: Services, staff: { id: number }, memberId: number) {
  const approvedOn = addDays(services.coverage.today(), -40);
  await services.coverage.setPlan(staff, memberId, {
    billing: "monthly",
    coverageAmount: 25_000_000,
    beneficiaryName: null,
    beneficiaryRelationship: null,
    approvedOn,
  });
  await services.coverage.recordPayment(staff, memberId, {
    amount: 1995 * 12,
    paidOn: addDays(approvedOn, 1),
    method: "card",
    reference: null,
  });
}

for (const [device, viewport] of VIEWPORTS) {
  test.describe(`a household on one certificate (${device})`, () => {
    test.describe.configure({ mode: "default" });
    test.beforeEach(async ({ page, services }) => {
      await page.setViewportSize(viewport);
      // Every verification costs the address a point; these tests come from one address.
      await services.database.db.deleteFrom("rate_limits").where("key", "like", "verify_lookup%").execute();
    });

    test("staff add the co-insured (a web address refused by its field), change and remove them, confirmed", async ({
      page,
      signIn,
      services,
    }) => {
      test.setTimeout(180_000);
      const seeder = { id: (await createAccount(services, "super_admin")).userId };
      const member = await createAccount(services, "member", "Dana");
      await coveredPlan(services, seeder, member.userId);
      await signIn("limited_admin");
      await page.goto(`/admin/members?q=${member.certificate}`);
      await page.getByRole("button", { name: `Membership ${member.certificate}` }).click();
      const dialog = page.getByRole("dialog", { name: "Membership of Dana Member", exact: true });
      const section = dialog.getByRole("region", { name: "Co-insured" });
      await expect(section).toContainText("No co-insured on record.");

      await section.getByRole("button", { name: "Add co-insured" }).click();
      const form = page.getByRole("dialog", { name: "Add co-insured" });
      await form.getByLabel("First name").fill("Pay now at http://evil.example/pay");
      await form.getByLabel("Last name").fill(SAM.lastName);
      await form.getByLabel("Date of birth").fill(SAM.birthdate);
      await form.getByLabel("Gender").selectOption(SAM.gender);
      await form.getByLabel("E-mail").fill(SAM.email);
      await form.getByLabel("Phone").fill("5551234567");
      await form.getByRole("button", { name: "Save co-insured" }).click();
      // By its field, read with it (the label's mark of a required field is not part of its name).
      const first = form.getByRole("textbox", { name: "First name", exact: true });
      await expect(first).toHaveAttribute("aria-invalid", "true");
      const errorId = ((await first.getAttribute("aria-describedby")) ?? "").split(" ")[0];
      await expect(page.locator(`[id="${errorId}"]`)).toHaveText("First name must be a name, not a web or e-mail address.");
      await expectNoAxeViolations(page);
      await shot(page, `add-refused-${device}`);
      expect((await services.coverage.view(member.userId)).coInsured).toBeNull();

      await form.getByLabel("First name").fill(SAM.firstName);
      const saved = page.waitForResponse((r) => r.url().endsWith(`/members/${member.userId}/membership/co-insured`));
      await form.getByRole("button", { name: "Save co-insured" }).click();
      expect((await saved).status()).toBe(200);
      await expect(form).toBeHidden();
      await expect(page.getByTestId("membership-message")).toHaveText("Co-insured Sam Quintero saved.");
      // Add is gone: the focus is on what took its place.
      await expect(section.getByRole("button", { name: "Change co-insured" })).toBeFocused();
      const facts = section.getByTestId("membership-co-insured");
      const row = (label: string) => facts.locator(`dt:text-is("${label}") + dd`);
      await expect(row("Name")).toHaveText("Sam Quintero");
      await expect(row("Date of birth")).toHaveText("July 9, 1984");
      await expect(row("Gender")).toHaveText("Male");
      await expect(row("E-mail")).toHaveText(SAM.email);
      await expect(row("Phone")).toHaveText(SAM.phone);
      expect((await services.coverage.view(member.userId)).coInsured).toEqual(SAM);
      await expectNoAxeViolations(page);
      await shot(page, `dialog-${device}`);
      await section.screenshot({ path: `.tmp/screens/household-dialog-section-${device}.png` });

      // Change: the form opens with what is on record.
      await section.getByRole("button", { name: "Change co-insured" }).click();
      const change = page.getByRole("dialog", { name: "Change co-insured" });
      await expect(change.getByLabel("Last name")).toHaveValue(SAM.lastName);
      await change.getByLabel("E-mail").fill("");
      await change.getByRole("button", { name: "Save co-insured" }).click();
      await expect(change).toBeHidden();
      await expect(row("E-mail")).toHaveText("Not given");

      // Remove: asked first; Cancel keeps them.
      await section.getByRole("button", { name: "Remove", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Remove co-insured?" });
      await expect(confirm).toContainText(`Remove Sam Quintero from the plan of ${member.certificate}?`);
      await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
      await expectNoAxeViolations(page);
      await shot(page, `remove-confirm-${device}`);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await expect(row("Name")).toHaveText("Sam Quintero");
      await section.getByRole("button", { name: "Remove", exact: true }).click();
      await confirm.getByRole("button", { name: "Remove co-insured" }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByTestId("membership-message")).toHaveText("Co-insured Sam Quintero removed. The card lists the member alone.");
      await expect(section).toContainText("No co-insured on record.");
      expect((await services.coverage.view(member.userId)).coInsured).toBeNull();
      await expect(section.getByRole("button", { name: "Add co-insured" })).toBeFocused();
    });

    test("the card lists both people and its check shows each one's first name and last initial; cancelled, both give one end date", async ({
      page,
      signIn,
      services,
    }) => {
      test.setTimeout(120_000);
      const staff = { id: (await createAccount(services, "super_admin")).userId };
      const member = await signIn("member", { firstName: "Robin" });
      await coveredPlan(services, staff, member.userId);
      await services.coverage.setCoInsured(staff, member.userId, SAM);
      const today = services.coverage.today();
      const { coverage } = await services.coverage.view(member.userId);

      await page.goto("/account");
      const card = page.getByTestId("proof-card");
      const field = (label: string) => card.locator(`dt:text-is("${label}") + dd`);
      await expect(field("Member")).toHaveText("Robin Member");
      await expect(field("Co-insured")).toHaveText("Sam Quintero");
      await expect(field("Covered through")).toHaveText(formatLongDay(coverage.paidThrough!));
      await expect(card).not.toContainText("1984");
      await expectNoAxeViolations(page);
      await card.screenshot({ path: `.tmp/screens/household-card-${device}.png` });
      const verifyUrl = (await card.getByTestId("proof-card-link").getAttribute("href"))!;

      await page.goto(verifyUrl);
      const main = page.locator("main");
      const fact = (label: string) => main.getByTestId("verify-facts").locator(`dt:text-is("${label}") + dd`);
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Covered");
      await expect(fact("Member")).toHaveText("Robin M.");
      await expect(fact("Co-insured")).toHaveText("Sam Q.");
      await expect(fact("Covered through")).toHaveText(formatLongDay(coverage.paidThrough!));
      await expect(main.getByTestId("verify-checked")).toHaveText(`Checked ${formatLongDay(today)}`);
      for (const secret of ["Quintero", "Robin Member", "sam.q", "1984", member.certificate!]) await expect(main).not.toContainText(secret);
      await expectNoAxeViolations(page);
      await shot(page, `verify-${device}`);

      // Cancelled today: the card and the check name the same last day, the day before.
      await services.coverage.cancel(staff, member.userId, { cancelledOn: today, reason: "Moved" });
      const ended = formatLongDay(addDays(today, -1));
      await page.goto("/account");
      await expect(field("Status")).toHaveText("Cancelled");
      await expect(field("Coverage ended")).toHaveText(ended);
      await expect(field("Covered through")).toHaveCount(0);
      await card.screenshot({ path: `.tmp/screens/household-card-cancelled-${device}.png` });
      // Cancelling replaced the code: the card shows the new one.
      await page.goto((await card.getByTestId("proof-card-link").getAttribute("href"))!);
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Not covered");
      await expect(fact("Coverage ended")).toHaveText(ended);
      await expect(main.getByTestId("verify-checked")).toHaveText(`Checked ${formatLongDay(today)}`);
      await expectNoAxeViolations(page);
      await shot(page, `verify-cancelled-${device}`);
    });
  });
}
