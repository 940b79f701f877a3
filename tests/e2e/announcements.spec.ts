import crypto from "node:crypto";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { decodeBody, freePort, startSmtp } from "../support/smtp";
import { startSecondSite } from "./second-site";
import { ANNOUNCEMENT_MESSAGES } from "../../app/features/announcements/contract";
import type { Services } from "../../app/server/services.server";
import { MEMBER_BIRTHDATE } from "./fixtures";
import { formatZonedDateTime } from "../../app/platform/dates";

/**
 * Issue 41: a super admin writes an announcement, sees the live count of its audience,
 * previews it as a member, sends a test to their own address, sends it after the confirmation
 * and watches the progress reach sent. The browser tests' site sends no mail: a second
 * instance of the build, on the same database, mails the test's own SMTP server.
 */

/** Members of a state no other test uses (the audience), cleared of any earlier run's first. */
async function membersIn(services: Services, state: string, tag: string) {
  const { db } = services.database;
  await db.updateTable("users").set({ state: null }).where("state", "=", state).execute();
  const made: Array<{ id: number; certificate: string; first: string; email: string | null }> = [];
  for (const [i, email] of [`ann1-${tag}@example.org`, `ann2-${tag}@example.org`, `ann3-${tag}@example.org`, null].entries()) {
    const certificate = `AN${tag}${i + 1}`.toUpperCase();
    const first = `Ann${i + 1}${tag}`;
    const { id } = await services.auth.users.createMember({
      certificate,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: first,
      lastName: "Announced",
      email,
    });
    await db.updateTable("users").set({ state }).where("id", "=", id).execute();
    made.push({ id, certificate, first, email });
  }
  return made;
}

for (const [label, width, height, state] of [
  ["desktop", 1280, 900, "QD"],
  ["phone", 390, 844, "QP"],
] as const) {
  test(`a super admin writes, previews, tests and sends an announcement, and watches it reach sent (${label})`, async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height });
    const tag = crypto.randomBytes(3).toString("hex");
    const members = await membersIn(services, state, tag);
    const boss = await signIn("super_admin");
    const bossAddress = `boss-${tag}@example.org`;
    await services.database.db.updateTable("users").set({ email: bossAddress }).where("id", "=", boss.userId).execute();

    const smtp = await startSmtp();
    const port = await freePort();
    const site = await startSecondSite({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL: `http://127.0.0.1:${port}` }, { port });
    try {
      await page.goto(`${site.url}/admin?tab=announcements`);
      await expect(page.getByRole("tab", { name: width < 640 ? "News" : "Announcements" })).toHaveAttribute("aria-selected", "true");
      await page.getByRole("button", { name: "New announcement" }).click();
      await expect(page.getByRole("heading", { name: "New announcement" })).toBeVisible();

      const subject = `Storm season ${tag}`;
      await page.getByLabel("Subject").fill(subject);
      const message = page.getByLabel("Message");
      // An unknown merge field is refused with its name, before anything is sent.
      await message.fill("Hello {nickname}");
      await message.blur();
      await expect(page.getByText(ANNOUNCEMENT_MESSAGES.unknownField("nickname"))).toBeVisible();
      await message.fill("Hello {first_name},\n\nYour membership {membership_id}: check your shutters before the storm season.");
      await message.blur();
      await expect(page.getByText(ANNOUNCEMENT_MESSAGES.unknownField("nickname"))).toHaveCount(0);

      // The live count follows the audience.
      await page.getByLabel("States").selectOption([state]);
      await expect(page.getByTestId("audience-count")).toHaveText(
        "Reaches 4 members · 1 without an e-mail address · 0 opted out · 3 will receive it",
      );
      await page.getByTestId("audience-count").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `.tmp/announcements-editor-${width}.png`, fullPage: true });
      if (label === "desktop") await expectNoAxeViolations(page);

      // Preview as a chosen member: their values filled in.
      await page.getByLabel("Preview and test as (Membership ID)").fill(members[1].certificate);
      await page.getByRole("button", { name: "Preview" }).click();
      const preview = page.getByRole("dialog", { name: "Preview" });
      await expect(preview.getByTestId("preview-subject")).toHaveText(subject);
      await expect(preview.getByTestId("preview-text")).toContainText(`Hello ${members[1].first},`);
      await expect(preview.getByTestId("preview-text")).toContainText(`Your membership ${members[1].certificate}:`);
      await page.screenshot({ path: `.tmp/announcements-preview-${width}.png` });
      await page.keyboard.press("Escape");
      await expect(preview).toHaveCount(0);

      // Send test: to the staff member's own address.
      await page.getByRole("button", { name: "Send test" }).click();
      await expect(page.getByTestId("announcement-message")).toContainText(`A test was sent to ${bossAddress}.`);
      await expect.poll(() => smtp.received.filter((m) => m.to.includes(bossAddress)).length).toBe(1);

      // Send now: the confirmation names the count.
      await page.getByRole("button", { name: "Send now" }).click();
      const confirm = page.getByRole("dialog", { name: "Send now" });
      await expect(confirm).toContainText(`Send “${subject}” to 3 members now?`);
      await confirm.getByRole("button", { name: "Send now" }).click();

      const progress = page.getByTestId("announcement-progress");
      await expect(progress).toBeVisible();
      await page.screenshot({ path: `.tmp/announcements-progress-${width}.png`, fullPage: true });
      // Four rows when sending started: three sent, the member without an address skipped with the reason.
      await expect(page.getByTestId("announcement-status")).toHaveText("Sent", { timeout: 30_000 });
      await expect(page.getByTestId("announcement-sent-of")).toHaveText("Sent 3 of 4");
      await expect(progress).toContainText("No e-mail address on file: 1");
      await page.screenshot({ path: `.tmp/announcements-sent-${width}.png`, fullPage: true });
      if (label === "desktop") await expectNoAxeViolations(page);

      // Each recipient got one mail with their own values; the member without an address none.
      for (const m of members.filter((x) => x.email)) {
        const mails = smtp.received.filter((r) => r.to.includes(m.email!));
        expect(mails, m.email!).toHaveLength(1);
        const body = decodeBody(mails[0].raw);
        expect(body).toContain(`Hello ${m.first},`);
        expect(body).toContain(`Your membership ${m.certificate}:`);
        expect(mails[0].raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
      }

      // The list shows it sent, with its progress.
      await page.getByRole("button", { name: "Back to announcements" }).click();
      await expect(page.locator("button:visible", { hasText: subject })).toBeVisible();
      await page.screenshot({ path: `.tmp/announcements-list-${width}.png`, fullPage: true });
    } finally {
      await site.close();
      await smtp.close();
    }
  });
}

test("a super admin allows a limited admin to write announcements in Staff, and the tab appears for them", async ({
  page,
  browser,
  signIn,
  services,
}) => {
  // Two browsers signed in, a dialog and the tab's code fetched on demand: room for a busy machine.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn("super_admin");
  const helperContext = await browser.newContext();
  try {
    const helper = await signIn("limited_admin", { context: helperContext });
    const helperPage = await helperContext.newPage();
    // Not yet allowed: no tab, and the API refuses.
    await helperPage.goto("/admin");
    await expect(helperPage.getByRole("tab", { name: "Form & Application Submissions" })).toBeVisible();
    await expect(helperPage.getByRole("tab", { name: "Announcements" })).toHaveCount(0);

    await page.goto("/admin/members?tab=staff");
    await page.getByRole("button", { name: `Settings for ${helper.username}` }).click();
    const dialog = page.getByRole("dialog", { name: "Staff Settings" });
    await dialog.getByLabel("E-mail").fill("not an address");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toContainText("Enter an e-mail address like name@example.com.");
    await dialog.getByLabel("E-mail").fill(`${helper.username}@example.org`);
    await dialog.getByLabel("May write and send announcements").check();
    await page.screenshot({ path: ".tmp/announcements-staff-settings-1280.png" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    // The message clears itself after 5 s (the spec's admin messages): read it before the list's reload.
    await expect(page.getByText(`Settings saved for ${helper.username}.`)).toBeVisible();
    const row = page.getByTestId("staff-row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${helper.username}`) }) });
    await expect(row).toContainText(`${helper.username}@example.org`);
    await expect(row).toContainText("Announcements");

    // Allowed now: the tab shows (the dashboard kept for limited admins asks the API once), and it opens.
    await helperPage.goto("/admin");
    await helperPage.getByRole("tab", { name: "Announcements" }).click();
    await expect(helperPage.getByRole("button", { name: "New announcement" })).toBeVisible();
    const allowed = await services.database.db
      .selectFrom("staff_permissions")
      .select("permission")
      .where("user_id", "=", helper.userId)
      .execute();
    expect(allowed.map((r) => r.permission)).toEqual(["announcements"]);
  } finally {
    await helperContext.close();
  }
});

for (const [label, width, height] of [
  ["desktop", 1280, 900],
  ["phone", 390, 844],
] as const) {
  test(`a member stops and restarts announcements on My account (${label})`, async ({ page, signIn, services }) => {
    await page.setViewportSize({ width, height });
    const member = await signIn("member");
    await page.goto("/account");
    const section = page.getByRole("region", { name: "Announcements" });
    await expect(section).toContainText("Reminders and receipts about your own coverage are always sent; this does not stop them.");
    const box = section.getByLabel("Send me announcements from the association");
    // Read after the page: enabled once the choice has arrived.
    await expect(box).toBeEnabled();
    await expect(box).toBeChecked();
    await box.uncheck();
    await expect(section.getByTestId("announcements-choice-message")).toHaveText(
      "You will no longer receive announcements from the association.",
    );
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.tmp/announcements-account-${width}.png` });
    const optedOut = () =>
      services.database.db.selectFrom("announcement_opt_outs").select("user_id").where("user_id", "=", member.userId).execute();
    expect(await optedOut()).toHaveLength(1);
    await page.reload();
    await expect(
      page.getByRole("region", { name: "Announcements" }).getByLabel("Send me announcements from the association"),
    ).toBeEnabled();
    await expect(
      page.getByRole("region", { name: "Announcements" }).getByLabel("Send me announcements from the association"),
    ).not.toBeChecked();
    await page.getByRole("region", { name: "Announcements" }).getByLabel("Send me announcements from the association").check();
    await expect(page.getByTestId("announcements-choice-message")).toHaveText("You will receive announcements from the association.");
    expect(await optedOut()).toHaveLength(0);
  });
}

test.describe("staff whose browser is in another zone than the association's", () => {
  // The association's zone is New York (TIME_ZONE's default); this browser is in Tokyo.
  test.use({ timezoneId: "Asia/Tokyo" });

  test("every time of the Announcements tab is the association's, named; an announcement's screen has its own address (reload, Back)", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(120_000);
    const boss = await signIn("super_admin");
    const tag = crypto.randomBytes(3).toString("hex");
    const { db } = services.database;
    const hour = 3_600_000;
    const scheduledAt = new Date(Math.ceil((Date.now() + 20 * 24 * hour) / hour) * hour).toISOString();
    const startedAt = new Date(Math.floor((Date.now() - 48 * hour) / hour) * hour + 7 * 60_000).toISOString();
    const finishedAt = new Date(Date.parse(startedAt) + 5 * 60_000).toISOString();
    const row = (subject: string, status: string, times: Record<string, string | null>) => ({
      subject,
      body: "Hello {first_name}",
      audience: JSON.stringify({ statuses: ["covered"], plans: [], states: [], joinedAfter: null, joinedBefore: null }),
      status,
      recipients: status === "sent" ? 0 : null,
      created_by: boss.userId,
      updated_by: boss.userId,
      sent_by: boss.userId,
      created_at: startedAt,
      updated_at: startedAt,
      scheduled_at: null,
      started_at: null,
      finished_at: null,
      cancelled_at: null,
      ...times,
    });
    const scheduled = `Scheduled ${tag}`;
    const sent = `Sent ${tag}`;
    await db
      .insertInto("announcements")
      .values(row(scheduled, "scheduled", { scheduled_at: scheduledAt }))
      .execute();
    await db
      .insertInto("announcements")
      .values(row(sent, "sent", { started_at: startedAt, finished_at: finishedAt }))
      .execute();
    const ny = (iso: string) => formatZonedDateTime(iso, "America/New_York")!;
    // Not what this browser's own zone reads: the test shows the zone that is used.
    expect(ny(scheduledAt)).not.toBe(await page.evaluate((iso) => new Date(iso).toLocaleString("en-US"), scheduledAt));
    expect(ny(scheduledAt)).toMatch(/ E[SD]T$/);

    await page.goto("/admin/dashboard?tab=announcements");
    const list = page.getByTestId("announcements-table");
    const scheduledRow = page.getByTestId("announcements-row").filter({ hasText: scheduled });
    await expect(scheduledRow).toContainText(`Scheduled for ${ny(scheduledAt)}`);
    await expect(page.getByTestId("announcements-row").filter({ hasText: sent })).toContainText(`Started ${ny(startedAt)}`);

    // The editor: its banner says the same time, and it has an address of its own.
    await scheduledRow.getByRole("button", { name: scheduled }).click();
    await expect(page.getByRole("heading", { name: "Edit announcement" })).toBeVisible();
    await expect(page).toHaveURL(/[?&]tab=announcements/);
    await expect(page).toHaveURL(/[?&]id=\d+/);
    const editor = page.url();
    await expect(page.getByText(`Goes out ${ny(scheduledAt)} (America/New_York)`)).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Edit announcement" })).toBeVisible();
    await expect(page.getByLabel("Subject")).toHaveValue(scheduled);
    expect(page.url()).toBe(editor);
    // Back returns to the list, still on the tab.
    await page.goBack();
    await expect(list).toBeVisible();
    await expect(page).not.toHaveURL(/[?&]id=/);
    await expect(page).toHaveURL(/[?&]tab=announcements/);

    // The progress page: the same zone, its own address, Back to announcements returns.
    await page.getByTestId("announcements-row").filter({ hasText: sent }).getByRole("button", { name: sent }).click();
    await expect(page.getByRole("heading", { name: sent })).toBeVisible();
    await expect(page.getByText(`Started ${ny(startedAt)}`)).toBeVisible();
    await expect(page.getByText(`Finished ${ny(finishedAt)}`)).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: sent })).toBeVisible();
    await expect(page.getByText(`Finished ${ny(finishedAt)}`)).toBeVisible();
    await page.getByRole("button", { name: "Back to announcements" }).click();
    await expect(list).toBeVisible();
    await expect(page).not.toHaveURL(/[?&]id=/);
    // A new one is an address too; Back leaves it.
    await page.getByRole("button", { name: "New announcement" }).click();
    await expect(page.getByRole("heading", { name: "New announcement" })).toBeVisible();
    await expect(page).toHaveURL(/[?&]id=new/);
    await page.goBack();
    await expect(list).toBeVisible();
  });
});
