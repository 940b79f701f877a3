import crypto from "node:crypto";
import type { Locator } from "@playwright/test";
import { MEMBER_BIRTHDATE, expect, test } from "./fixtures";
import type { Services } from "../../app/server/services.server";
import { formatLongDay } from "../../app/features/membership/coverage";

/*
 * Staff's dialogs alike: every field a person must fill is marked "*", every one they may leave
 * empty "(optional)" (on each dialog, Billing and Record payment too); the cancellation's way
 * out says "Keep membership"; Record payment on a member without a plan gives a plan first; the
 * members list writes its paid-through days as every other date.
 */

const uniq = () => crypto.randomBytes(3).toString("hex").toUpperCase();

/**
 * The labels of the dialog's form fields (text, choice and text area; not checkboxes), each
 * ending with " *" or " (optional)".
 */
async function expectFieldsMarked(scope: Locator): Promise<string[]> {
  const labels = await scope.evaluate((root) =>
    [...root.querySelectorAll("form label[for]")].flatMap((label) => {
      const control = document.getElementById(label.getAttribute("for")!);
      if (!control || (control instanceof HTMLInputElement && ["checkbox", "radio", "hidden"].includes(control.type))) return [];
      return [(label.textContent ?? "").replace(/\s+/g, " ").trim()];
    }),
  );
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label, `the label "${label}" says whether it must be filled`).toMatch(/ \*$| \(optional\)$/);
  return labels;
}

async function seedMember(services: Services, tag: string, firstName: string, { plan = true, paid = false, cancelled = false } = {}) {
  const certificate = `${tag}-${uniq()}`;
  const { id } = await services.auth.users.createMember({
    certificate,
    birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
    firstName,
    lastName: "Fields",
  });
  const staff = { id: (await services.auth.createStaff(`seed${uniq().toLowerCase()}`, "correct horse battery", "super_admin")).id };
  const today = services.coverage.today();
  if (plan)
    await services.coverage.setPlan(staff, id, {
      billing: "monthly",
      coverageAmount: 25_000_000,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: today,
    });
  if (paid) await services.coverage.recordPayment(staff, id, { amount: 1995, paidOn: today, method: "check", reference: null });
  if (cancelled) await services.coverage.cancel(staff, id, { cancelledOn: today, reason: "Moved away" });
  return { id, certificate };
}

test("the membership's dialogs mark their fields alike, say 'Keep membership', and give a plan before a payment", async ({
  page,
  signIn,
  services,
}) => {
  test.slow();
  const tag = `DF${uniq()}`;
  const paid = await seedMember(services, tag, "Paula", { paid: true });
  const none = await seedMember(services, tag, "Nolan", { plan: false });
  const gone = await seedMember(services, tag, "Gina", { cancelled: true });
  const paidThrough = (await services.coverage.view(paid.id)).coverage.paidThrough!;
  await signIn("super_admin");
  await page.goto(`/admin/members?q=${tag}`);

  // The members list: "Paid through October 31, 2026", as every other date reads.
  const paidRow = page.getByRole("row").filter({ hasText: paid.certificate });
  await expect(paidRow).toContainText(`Paid through ${formatLongDay(paidThrough)}`);
  await expect(paidRow).not.toContainText(paidThrough);

  // Record payment on a member without a plan: Give plan first, saying why; then the payment.
  await page.getByRole("button", { name: `Record payment ${none.certificate}` }).click();
  const givePlan = page.getByRole("dialog", { name: "Give plan", exact: true });
  await expect(givePlan).toContainText("this member has none yet: give one, then record the payment");
  expect(await expectFieldsMarked(givePlan)).toEqual(expect.arrayContaining(["Billing *", "Approved on *", "Coverage amount (optional)"]));
  await givePlan.getByLabel("Billing").selectOption("annual");
  await givePlan.getByRole("button", { name: "Save plan" }).click();
  await expect(givePlan).toBeHidden();
  const recordPayment = page.getByRole("dialog", { name: "Record payment", exact: true });
  await expect(recordPayment.getByLabel("Amount")).toHaveValue("99.00");
  expect(await expectFieldsMarked(recordPayment)).toEqual(["Amount *", "Paid on *", "Method *", "Reference (optional)"]);
  // Opened from the row: closing it unsaved closes the membership too.
  await recordPayment.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // A member with a plan: every form of the membership.
  await page.getByRole("button", { name: `Membership ${paid.certificate}` }).click();
  const membership = page.getByRole("dialog", { name: "Membership of Paula Fields", exact: true });
  await membership.getByRole("button", { name: "Record payment", exact: true }).click();
  expect(await expectFieldsMarked(recordPayment)).toEqual(["Amount *", "Paid on *", "Method *", "Reference (optional)"]);
  await recordPayment.getByRole("button", { name: "Cancel", exact: true }).click();
  await membership.getByRole("button", { name: "Change plan" }).click();
  const changePlan = page.getByRole("dialog", { name: "Change plan", exact: true });
  expect(await expectFieldsMarked(changePlan)).toContain("Billing *");
  await changePlan.getByRole("button", { name: "Cancel", exact: true }).click();
  await membership.getByRole("button", { name: /^Refund the payment of/ }).click();
  const refund = page.getByRole("dialog", { name: "Refund payment", exact: true });
  expect(await expectFieldsMarked(refund)).toEqual(expect.arrayContaining(["Refunded on *", "Reason *"]));
  await refund.getByRole("button", { name: "Cancel", exact: true }).click();

  // Cancelling: beside "Cancel membership", the way out says "Keep membership", in the form and in its confirmation.
  await membership.getByRole("button", { name: "Cancel membership" }).click();
  const cancel = page.getByRole("dialog", { name: "Cancel membership", exact: true });
  expect(await expectFieldsMarked(cancel)).toEqual(["Cancelled on *", "Reason *"]);
  await expect(cancel.getByRole("button", { name: /membership|cancel/i })).toHaveText(["Keep membership", "Cancel membership"]);
  await cancel.getByLabel("Reason").fill("Asked to leave");
  await cancel.getByRole("button", { name: "Cancel membership" }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm cancellation", exact: true });
  await expect(confirm.getByRole("button", { name: "Keep membership" })).toBeFocused();
  await expect(confirm.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);
  await page.screenshot({ path: ".tmp/screens/admin-dialogs-keep-membership.png" });
  await confirm.getByRole("button", { name: "Keep membership" }).click();
  await expect(confirm).toBeHidden();
  await cancel.getByRole("button", { name: "Keep membership" }).click();
  await expect(cancel).toBeHidden();
  expect((await services.coverage.view(paid.id)).events).toEqual([]);
  await membership.getByRole("button", { name: "Close dialog" }).click();

  await page.getByRole("button", { name: `Membership ${gone.certificate}` }).click();
  await page.getByRole("dialog", { name: "Membership of Gina Fields", exact: true }).getByRole("button", { name: "Reinstate" }).click();
  const reinstate = page.getByRole("dialog", { name: "Reinstate membership", exact: true });
  expect(await expectFieldsMarked(reinstate)).toEqual(["Reinstated on *", "Reason (optional)"]);
});

test("the other staff dialogs mark their fields alike: member, staff, feed, video and a submission's note", async ({
  page,
  signIn,
  services,
}) => {
  test.slow();
  const tag = `DG${uniq()}`;
  const member = await seedMember(services, tag, "Edith", { plan: false });
  const admin = await signIn("super_admin");
  const dialog = page.getByRole("dialog");
  const close = () => dialog.getByRole("button", { name: "Cancel", exact: true }).click();

  await page.goto(`/admin/members?q=${tag}`);
  await page.getByRole("button", { name: `Edit ${member.certificate}` }).click();
  await expectFieldsMarked(dialog);
  await close();

  await page.goto("/admin/members?tab=staff");
  await page.getByRole("button", { name: "Add Staff" }).first().click();
  expect(await expectFieldsMarked(dialog)).toEqual(["Username *", "Role *", "Password *"]);
  await close();
  await page.getByRole("button", { name: `Reset password for ${admin.username}` }).click();
  expect(await expectFieldsMarked(dialog)).toEqual(["New password *"]);
  await close();

  await page.goto("/admin/rss");
  await page.getByRole("tabpanel", { name: /RSS/ }).getByRole("button", { name: "Add Feed" }).first().click();
  expect(await expectFieldsMarked(dialog)).toEqual(["Name *", "URL *", "Category *"]);
  await close();

  await page.goto("/admin/dashboard?tab=videos");
  await page
    .getByRole("tabpanel", { name: /Videos/ })
    .getByRole("button", { name: "Add Video" })
    .first()
    .click();
  expect(await expectFieldsMarked(dialog)).toEqual([
    "Title *",
    "YouTube URL or video ID *",
    "Category *",
    "Duration (optional)",
    "Description (optional)",
  ]);
  await close();

  const { id } = await services.submissions.repository.insert("contact", {
    name: `Note ${tag}`,
    email: `note.${tag.toLowerCase()}@example.com`,
    phone: null,
    subject: "general",
    message: "Hello",
  });
  await page.goto(`/admin/dashboard?tab=submissions&view=contact_${id}`);
  const note = dialog.locator("form", { has: page.getByRole("button", { name: /note/i }) });
  expect(await expectFieldsMarked(note)).toEqual(["Add a note *"]);
});
