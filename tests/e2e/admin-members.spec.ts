import crypto from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { MEMBER_BIRTHDATE, STAFF_PASSWORD, expect, expectNoAxeViolations, test } from "./fixtures";
import type { Services } from "../../app/server/services.server";
import { expectInViewBelowHeader } from "./in-view";

const uniq = () => crypto.randomBytes(3).toString("hex").toUpperCase();

/** Members whose certificate numbers start with the tag (so parallel tests never see each other's). */
async function seedMembers(services: Services, tag: string, count: number) {
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const { id } = await services.auth.users.createMember({
      certificate: `${tag}-${String(i).padStart(3, "0")}`,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: i === 7 ? `Rosalind${tag}` : "Sam",
      lastName: `Tester${i}`,
    });
    ids.push(id);
  }
  return ids;
}

const message = (page: Page) => page.getByTestId("admin-message");
const memberRow = (page: Page, certificate: string) =>
  page.getByTestId("members-row").filter({ has: page.getByRole("rowheader", { name: certificate, exact: true }) });

async function search(page: Page, text: string) {
  await page.getByLabel("Search members").fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

test.describe("member administration", () => {
  test("a limited admin searches, pages, deactivates, deletes with confirmation and exports members", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(90_000);
    const tag = `MB${uniq()}`;
    const ids = await seedMembers(services, tag, 30);
    await services.auth.users.recordLogin(ids[0], "2024-05-01T10:30:00.000Z");
    // One of them is signed in right now.
    const signedIn = await services.auth.sessions.create({ id: ids[1], role: "user" }, false);

    await signIn("limited_admin");
    await page.goto("/admin/dashboard");
    await page.getByRole("link", { name: "Members", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/members$/);
    await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
    // No staff or audit sections for a limited admin.
    await expect(page.getByRole("tab", { name: /Staff/ })).toHaveCount(0);

    await search(page, tag.toLowerCase());
    await expect(page).toHaveURL(new RegExp(`q=${tag.toLowerCase()}`));
    await expect(page.getByText("Showing 1-25 of 30 · Page 1 of 2")).toBeVisible();
    await expect(page.getByTestId("members-row")).toHaveCount(25);
    const first = memberRow(page, `${tag}-001`);
    await expect(first).toContainText("Sam Tester1");
    await expect(first).toContainText("Active");
    await expect(first).toContainText("May 1, 2024");
    await expect(memberRow(page, `${tag}-002`)).toContainText("Never");
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Showing 26-30 of 30 · Page 2 of 2")).toBeVisible();
    await expect(page.getByTestId("members-row")).toHaveCount(5);
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.getByLabel("Rows per page").first().selectOption("10");
    await expect(page.getByText("Showing 1-10 of 30 · Page 1 of 3")).toBeVisible();

    // Sorting by certificate number, descending, on the server.
    await page.getByRole("button", { name: "Certificate number" }).click();
    await expect(page.getByRole("columnheader", { name: "Certificate number" })).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByTestId("members-row").first().getByRole("rowheader")).toHaveText(`${tag}-030`);

    // Search by name.
    await search(page, `rosalind${tag.toLowerCase()} tester7`);
    await expect(page.getByTestId("members-row")).toHaveCount(1);
    await expect(memberRow(page, `${tag}-007`)).toBeVisible();

    // Deactivate asks first, naming the member and what follows (issue 48); Cancel changes nothing.
    await search(page, `${tag}-002`);
    const second = memberRow(page, `${tag}-002`);
    await second.getByRole("button", { name: `Deactivate ${tag}-002` }).click();
    const deactivate = page.getByRole("dialog", { name: "Deactivate Member" });
    await expect(deactivate).toContainText(`Deactivate member ${tag}-002 (Sam Tester2)?`);
    await expect(deactivate).toContainText(
      "They are signed out everywhere at once and cannot sign in until the account is activated again.",
    );
    await expect(deactivate).toContainText(
      "No membership reminders, payment receipts or announcements are sent to them, including mail already waiting.",
    );
    await expect(deactivate.getByRole("button", { name: "Cancel" })).toBeFocused();
    await deactivate.getByRole("button", { name: "Cancel" }).click();
    await expect(deactivate).toBeHidden();
    await expect(second).toContainText("Active");
    expect(await services.auth.userForSession(signedIn.token, false)).not.toBeNull();
    // Confirmed: the member's open session ends at once.
    await second.getByRole("button", { name: `Deactivate ${tag}-002` }).click();
    await deactivate.getByRole("button", { name: "Deactivate" }).click();
    await expect(message(page)).toHaveText(`${tag}-002 is now inactive.`);
    await expect(second).toContainText("Inactive");
    expect(await services.auth.userForSession(signedIn.token, false)).toBeNull();
    await page.getByLabel("Status").selectOption("inactive");
    await expect(page.getByTestId("members-row")).toHaveCount(1);
    await page.getByLabel("Status").selectOption("all");
    await second.getByRole("button", { name: `Activate ${tag}-002` }).click();
    await expect(second).toContainText("Active");

    // Delete asks first; Cancel keeps the member.
    await search(page, `${tag}-003`);
    const third = memberRow(page, `${tag}-003`);
    await third.getByRole("button", { name: `Delete ${tag}-003` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Member" });
    await expect(dialog).toContainText(`Delete member ${tag}-003 (Sam Tester3)?`);
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(await services.auth.users.findById(ids[2])).toBeDefined();
    await third.getByRole("button", { name: `Delete ${tag}-003` }).click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(message(page)).toHaveText(`Member ${tag}-003 was deleted.`);
    await expect(page.getByText("No members match this search.")).toBeVisible();
    expect(await services.auth.users.findById(ids[2])).toBeUndefined();

    // Export the filtered list.
    await search(page, tag);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, "utf8");
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "certificate_number,first_name,last_name,email,status,coverage_status,paid_through,last_login_at,created_at,phone,address1,address2,city,state,zip,plan,coverage_amount",
    );
    expect(lines).toHaveLength(30); // header + 29 (one deleted)
    // In the order on screen (certificate number, descending).
    expect(lines[1]).toMatch(new RegExp(`^${tag}-030,Sam,Tester30,,active,No plan on record,,,`));
    expect(lines[29]).toMatch(new RegExp(`^${tag}-001,Sam,Tester1,,active,No plan on record,,2024-05-01T10:30:00.000Z,`));
    expect(csv).not.toContain(`${tag}-003`);
    const digest = (await services.auth.users.findById(ids[0]))!.birthdate_digest!;
    expect(csv).not.toContain(digest);
  });

  test("a super_admin manages staff accounts and reads the audit log", async ({ page, signIn, services }) => {
    test.setTimeout(180_000);
    const tag = uniq().toLowerCase();
    const me = await signIn("super_admin");
    const core = await services.auth.createStaff(`core-${tag}`, STAFF_PASSWORD, "super_admin", true);
    await page.goto("/admin/members?tab=staff");
    await expect(page.getByRole("tab", { name: "Staff Accounts" })).toHaveAttribute("aria-selected", "true");
    const staffRow = (name: string) =>
      page.getByTestId("staff-row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });

    // The core admin and I can be neither demoted nor removed here.
    await expect(staffRow(`core-${tag}`)).toContainText("Core admin");
    await expect(page.getByRole("combobox", { name: `Role for core-${tag}` })).toBeDisabled();
    await expect(page.getByRole("button", { name: `Remove core-${tag}` })).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: `Role for ${me.username}` })).toBeDisabled();
    await expect(page.getByRole("button", { name: `Remove ${me.username}` })).toHaveCount(0);

    // Add: the password rule is checked before anything is sent.
    await page.getByRole("button", { name: "Add Staff" }).click();
    const add = page.getByRole("dialog", { name: "Add Staff" });
    await add.getByLabel("Username").fill(`helper-${tag}`);
    await add.getByLabel("Password").fill("too-short");
    await add.getByRole("button", { name: "Add Staff" }).click();
    await expect(add.getByText("Password must be at least 12 characters")).toBeVisible();
    await expect(add.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page);
    await add.getByLabel("Password").fill("a-long-enough-password");
    await add.getByLabel("Role").selectOption("limited_admin");
    await add.getByRole("button", { name: "Add Staff" }).click();
    await expect(message(page)).toHaveText(`Staff account helper-${tag} was added.`);
    await expect(staffRow(`helper-${tag}`)).toBeVisible();
    const helper = (await services.auth.users.findStaffByUsername(`helper-${tag}`))!;
    expect(helper.role).toBe("limited_admin");

    // Change the role: making a super admin asks first, and Cancel changes nothing.
    const roleSelect = page.getByRole("combobox", { name: `Role for helper-${tag}` });
    await roleSelect.selectOption("super_admin");
    const promote = page.getByRole("dialog", { name: "Make Super Admin" });
    await expect(promote).toContainText(`Make helper-${tag} a super admin?`);
    await expect(promote.getByRole("button", { name: "Cancel" })).toBeFocused();
    await promote.getByRole("button", { name: "Cancel" }).click();
    await expect(promote).toBeHidden();
    await expect(roleSelect).toHaveValue("limited_admin");
    expect((await services.auth.users.findById(helper.id))!.role).toBe("limited_admin");
    await roleSelect.selectOption("super_admin");
    await promote.getByRole("button", { name: "Make super admin" }).click();
    await expect(message(page)).toHaveText(`helper-${tag} is now a super admin.`);
    await expect(promote).toBeHidden();
    expect((await services.auth.users.findById(helper.id))!.role).toBe("super_admin");

    // Reset the password: their session ends.
    const helperSession = await services.auth.sessions.create(helper, false);
    await page.getByRole("button", { name: `Reset password for helper-${tag}` }).click();
    const reset = page.getByRole("dialog", { name: "Reset Password" });
    await reset.getByLabel("New password").fill("another-long-password");
    await reset.getByRole("button", { name: "Reset Password" }).click();
    await expect(message(page)).toHaveText(`Password reset for helper-${tag}. Their sessions have ended.`);
    expect(await services.auth.userForSession(helperSession.token, false)).toBeNull();

    // Remove, after confirming.
    await page.getByRole("button", { name: `Remove helper-${tag}` }).click();
    const remove = page.getByRole("dialog", { name: "Remove Staff Account" });
    await remove.getByRole("button", { name: "Remove" }).click();
    await expect(message(page)).toHaveText(`Staff account helper-${tag} was removed.`);
    await expect(staffRow(`helper-${tag}`)).toHaveCount(0);
    expect(await services.auth.users.findById(helper.id)).toBeUndefined();
    expect(await services.auth.users.findById(core.id)).toBeDefined();

    // The audit log: newest first, filtered by person and action.
    await page.getByRole("tab", { name: "Audit Log" }).click();
    await expect(page).toHaveURL(/tab=audit/);
    await page.getByLabel("Person").selectOption({ label: me.username! });
    const rows = page.getByTestId("audit-row");
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0)).toContainText("Removed staff account");
    await expect(rows.nth(1)).toContainText("Reset staff password");
    await expect(rows.nth(2)).toContainText("Changed staff role");
    await expect(rows.nth(2)).toContainText("limited_admin → super_admin");
    await expect(rows.nth(3)).toContainText("Added staff account");
    await expect(rows.nth(3)).toContainText(`helper-${tag}`);
    await page.getByLabel("Action").selectOption({ label: "Reset staff password" });
    await expect(rows).toHaveCount(1);
    await expectNoAxeViolations(page);
  });

  test("the audit log's filters are kept in the address: a reload or a shared link shows the same entries", async ({
    page,
    signIn,
    services,
  }) => {
    const me = await signIn("super_admin");
    const tag = uniq();
    await services.audit.record({ actorId: me.userId, action: "members.export", rowCount: 1, details: { q: tag } });
    await services.audit.record({ actorId: me.userId, action: "feeds.retry", target: { type: "feed", id: null, label: `Feed ${tag}` } });
    await page.goto("/admin/members?tab=audit");
    await page.getByLabel("Person").selectOption({ label: me.username! });
    await page.getByLabel("Action").selectOption({ label: "Retried RSS feed" });
    await expect(page).toHaveURL(new RegExp(`[?&]actor=${me.userId}(&|$)`));
    await expect(page).toHaveURL(/[?&]action=feeds\.retry(&|$)/);
    const rows = page.getByTestId("audit-row");
    await expect(rows.filter({ hasText: `Feed ${tag}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Exported members" })).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel("Action")).toHaveValue("feeds.retry");
    await expect(page.getByLabel("Person")).toHaveValue(String(me.userId));
    await expect(rows.filter({ hasText: `Feed ${tag}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Exported members" })).toHaveCount(0);
    // A value that is no filter is left out rather than shown as one.
    await page.goto("/admin/members?tab=audit&action=nope&page=-3");
    await expect(page.getByLabel("Action")).toHaveValue("");
    await expect(rows.first()).toBeVisible();
  });

  for (const [device, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test(`a limited admin edits a member's name, contact details and birthdate, then finds them by e-mail (${device})`, async ({
      page,
      signIn,
      services,
    }) => {
      test.setTimeout(180_000);
      const tag = `ED${uniq()}`;
      const [id] = await seedMembers(services, tag, 1);
      const certificate = `${tag}-001`;
      const signedIn = await services.auth.sessions.create({ id, role: "user" }, false);
      await page.setViewportSize(viewport);
      await signIn("limited_admin");
      await page.goto(`/admin/members?q=${tag}`);
      await page.getByRole("button", { name: `Edit ${certificate}` }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Member" });
      await expect(dialog).toContainText(`Certificate number ${certificate}`);
      await expect(dialog.getByLabel("First name")).toHaveValue("Sam");
      await expect(dialog.getByLabel("Last name")).toHaveValue("Tester1");
      // The birthdate on file is never shown.
      await expect(dialog.getByLabel("New birthdate")).toHaveValue("");
      await expectNoAxeViolations(page);
      if (device === "phone") {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }

      // Checked in the browser by the contract's schema, beside the field.
      await dialog.getByLabel("E-mail").fill("not an address");
      await dialog.getByLabel("New birthdate").fill("02/30/1975");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.getByText("Enter an e-mail address like name@example.com.")).toBeVisible();
      await expect(
        dialog.getByText("Birthdate must be a real date written YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD"),
      ).toBeVisible();
      await expect(dialog.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");

      await dialog.getByLabel("Last name").fill("Hopper");
      await dialog.getByLabel("E-mail").fill(`grace.${tag.toLowerCase()}@example.com`);
      await dialog.getByLabel("City").fill("Arlington");
      await dialog.getByLabel("New birthdate").fill("03/09/1975");
      const saving = page.waitForResponse((r) => r.url().endsWith(`/api/admin/members/${id}`) && r.request().method() === "PUT");
      await dialog.getByRole("button", { name: "Save" }).click();
      expect((await saving).status()).toBe(200);
      await expect(dialog).toBeHidden();
      await expect(message(page)).toHaveText(`Member ${certificate} was saved.`);
      const row = page.getByTestId(device === "phone" ? "members-card" : "members-row").first();
      await expect(row).toContainText("Sam Hopper");
      await expect(row).toContainText(`grace.${tag.toLowerCase()}@example.com`);

      const saved = (await services.auth.users.findById(id))!;
      expect(saved).toMatchObject({
        last_name: "Hopper",
        city: "Arlington",
        birthdate_digest: services.auth.digestBirthdate("1975-03-09"),
      });
      // Signed in with the old birthdate: signed out.
      expect(await services.auth.userForSession(signedIn.token, false)).toBeNull();
      const { entries } = await services.audit.list({ action: "members.update", page: 1, pageSize: 100 });
      const entry = entries.find((e) => e.target_id === id)!;
      expect(entry.details).toEqual({ fields: ["last_name", "birthdate", "email", "city"] });
      expect(JSON.stringify(entry)).not.toMatch(/1975|030975/);

      // Opened again: the new values, the birthdate blank.
      await page.getByRole("button", { name: `Edit ${certificate}` }).click();
      await expect(dialog.getByLabel("Last name")).toHaveValue("Hopper");
      await expect(dialog.getByLabel("New birthdate")).toHaveValue("");
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("button", { name: `Edit ${certificate}` })).toBeFocused();

      await search(page, `GRACE.${tag}@EXAMPLE`);
      const found = page.getByTestId(device === "phone" ? "members-card" : "members-row");
      await expect(found).toHaveCount(1);
      await expect(found).toContainText(certificate);
    });
  }

  test("phones get cards instead of a table, without sideways scrolling", async ({ page, signIn, services }) => {
    const tag = `PH${uniq()}`;
    await seedMembers(services, tag, 3);
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn("super_admin");
    await page.goto(`/admin/members?q=${tag}`);
    await expect(page.getByTestId("members-card")).toHaveCount(3);
    await expect(page.getByTestId("members-table")).toBeHidden();
    await expect(page.getByTestId("members-card").first()).toContainText("Last sign-in");
    await expect(page.getByRole("button", { name: `Deactivate ${tag}-001` })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await page.getByRole("tab", { name: /Staff/ }).click();
    await expect(page.getByTestId("staff-card").first()).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("the audit log fits a 390 px phone, its Action filter included (issue 48: it was 516 px wide)", async ({ page, signIn }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn("super_admin");
    await page.goto("/admin/members?tab=audit");
    await expect(page.getByLabel("Action")).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      action: document.getElementById("audit-action")!.getBoundingClientRect().right,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.action).toBeLessThanOrEqual(widths.viewport);
    // Every action can still be chosen.
    await page.getByLabel("Action").selectOption({ index: 1 });
    await expect(page).toHaveURL(/action=/);
  });

  test("members and anonymous visitors cannot open the page", async ({ page, signIn }) => {
    await page.goto("/admin/members");
    await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
    await signIn("member");
    await page.goto("/admin/members");
    await expect(page).toHaveURL(/\/$/);
  });

  test("the list always answers the controls shown: a search cleared and a status picked at once", async ({ page, signIn, services }) => {
    // "000" sorts these first, so they are on the first page of the whole list.
    const tag = `000${uniq()}`;
    const ids = await seedMembers(services, tag, 3);
    await services.database.db.updateTable("users").set({ is_active: 0 }).where("id", "in", [ids[1], ids[2]]).execute();
    await signIn("limited_admin");
    await page.goto(`/admin/members?q=${tag}-001`);
    const list = page.getByTestId("members-list");
    const box = page.getByLabel("Search members");
    const status = page.getByLabel("Status");
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(page.getByTestId("members-row")).toHaveCount(1);

    // Clear the box and pick a status well within the search's pause.
    await box.fill("");
    await status.selectOption("inactive");
    await expect(page).toHaveURL((url) => url.searchParams.get("status") === "inactive" && !url.searchParams.has("q"));
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(box).toHaveValue("");
    await expect(status).toHaveValue("inactive");
    await expect(memberRow(page, `${tag}-002`)).toBeVisible();
    await expect(memberRow(page, `${tag}-003`)).toBeVisible();
    await expect(page.getByTestId("members-row").filter({ hasNotText: "Inactive" })).toHaveCount(0);
    await expect(page).toHaveURL((url) => url.searchParams.get("status") === "inactive" && !url.searchParams.has("q"));

    // An answer to an older query never replaces a newer one.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/members?*", async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get("q") === tag && !url.searchParams.has("status")) await held;
      await route.continue().catch(() => {});
    });
    const isOlder = (r: { url(): string }) => r.url().includes(`q=${tag}`) && !r.url().includes("status=");
    await status.selectOption("all");
    await box.fill(tag);
    await box.press("Enter");
    await expect(page).toHaveURL((url) => url.searchParams.get("q") === tag && !url.searchParams.has("status"));
    const olderDone = Promise.race([page.waitForEvent("requestfailed", isOlder), page.waitForEvent("requestfinished", isOlder)]);
    const newer = page.waitForResponse((r) => r.url().includes("/api/admin/members?") && r.url().includes("status=active"));
    await status.selectOption("active");
    await newer;
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(page.getByTestId("members-row")).toHaveCount(1);
    release();
    await olderDone;
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await expect(page.getByTestId("members-row")).toHaveCount(1);
    await expect(memberRow(page, `${tag}-001`)).toBeVisible();
    await expect(status).toHaveValue("active");
    await page.unroute("**/api/admin/members?*");
  });

  test("on a phone, the message about a member deleted far down the list comes into view and is announced", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = `RV${uniq()}`;
    await seedMembers(services, tag, 12);
    await page.setViewportSize({ width: 390, height: 700 });
    await signIn("limited_admin");
    await page.goto(`/admin/members?q=${tag}`);
    const last = page.getByTestId("members-card").filter({ hasText: `${tag}-012` });
    await last.getByRole("button", { name: `Delete ${tag}-012` }).click();
    await page.getByRole("dialog", { name: "Delete Member" }).getByRole("button", { name: "Delete" }).click();
    await expect(message(page)).toHaveText(`Member ${tag}-012 was deleted.`);
    await expectInViewBelowHeader(message(page));
    await expect(page.getByRole("status").filter({ has: message(page) })).toHaveCount(1);
    await expect(page.getByTestId("members-card")).toHaveCount(11);
    await expectInViewBelowHeader(message(page));
  });
});
