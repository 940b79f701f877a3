import crypto from "node:crypto";
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { deleteSubmissions, insertApplication } from "../support/submission-fixtures";
import { decodeBody, startSmtp } from "../support/smtp";
import { startSecondSite } from "./second-site";
import type { Services } from "../../app/server/services.server";

const uniq = () => crypto.randomBytes(3).toString("hex").toLowerCase();
const message = (page: Page) => page.getByTestId("admin-message");
const rows = (page: Page) => page.getByTestId("submissions-row");

async function openTab(page: Page) {
  await page.goto("/admin/dashboard?tab=submissions");
  await expect(page.getByRole("heading", { name: "Form & Application Submissions", level: 2 })).toBeVisible();
}

async function search(page: Page, text: string) {
  await page.getByLabel("Search submissions").fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

async function contactMessages(services: Services, tag: string, n: number) {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const row = await services.submissions.repository.insert("contact", {
      name: `Bulk ${tag} Person${i}`,
      email: `bulk${i}.${tag}@example.com`,
      phone: null,
      subject: "General Inquiry",
      message: `Message ${i} from the bulk test, long enough to be cut in the details column of the admin table.`,
    });
    ids.push(row.id);
  }
  return ids;
}

/** The element's text wraps onto more than one line, and every line after the first starts with "@" or ".". */
async function expectEmailWrapsAtDots(email: Locator) {
  const lines = await email.evaluate((el) => {
    const chars: Array<{ c: string; top: number }> = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        chars.push({ c: node.textContent![i], top: Math.round(range.getBoundingClientRect().top) });
      }
    }
    const out: string[] = [];
    chars.forEach((ch, i) => {
      if (i === 0 || ch.top > chars[i - 1].top) out.push("");
      out[out.length - 1] += ch.c;
    });
    return out;
  });
  expect(lines.length, lines.join(" / ")).toBeGreaterThan(1);
  for (const line of lines.slice(1)) expect(line, lines.join(" / ")).toMatch(/^[@.]/);
}

/** Lets the page handle whatever has arrived: two animation frames. */
const afterTwoFrames = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

// The sticky header would be painted mid-page on a full-page capture.
const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: `.tmp/screens/submissions-${name}.png`, fullPage, style: "header { position: static !important; }" });

test.describe("admin submissions", () => {
  test("an admin finds an application by search, opens it, sees the signatures, changes its status and deletes it", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(60_000);
    const tag = uniq();
    const db = services.database.db;
    const appId = await insertApplication(services.database, {
      applicant_name: `Marisol Quintero${tag}`,
      email: `marisol.${tag}@example.com`,
      case_number: "4477120",
      beneficiary_name: "Ana Quintero",
    });
    await services.submissions.repository.insert("homeowner", {
      first_name: "Other",
      last_name: `Person${tag}`,
      email: `other.${tag}@example.com`,
      phone: null,
      address1: "12 Harbor Boulevard",
      address2: null,
      city: "Portland",
      state: "ME",
      zip: "04101",
      materials_requested: "Welcome kit",
      notes: null,
      member_id: null,
    });

    await signIn("limited_admin");
    await openTab(page);
    // Case-insensitive search on the name.
    await search(page, `MARISOL QUINTERO${tag.toUpperCase()}`);
    await expect(rows(page)).toHaveCount(1);
    const row = rows(page).first();
    await expect(row.getByRole("rowheader")).toContainText(`Marisol Quintero${tag}`);
    await expect(row.getByRole("rowheader")).toContainText(`application_${appId}`);
    await expect(row).toContainText("Membership Application");
    // Coverage in dollars, the phone as (XXX) XXX-XXXX, "Co-Applicant" spelled one way.
    await expect(row).toContainText("Coverage: $250,000.00 | Case: 4477120 | Co-Applicant: Casey Applicant | Benef...");
    await expect(row).toContainText("(555) 123-4567");
    const status = row.getByRole("combobox", { name: `Status of Marisol Quintero${tag}` });
    await expect(status).toHaveValue("pending");
    await expect(status).toHaveAttribute("data-status-color", "yellow");
    await shot(page, "desktop-list");
    await expectNoAxeViolations(page);

    // The detail dialog: every field and the four signatures, really decoded (CSP allows data: images).
    await row.getByRole("button", { name: `View Marisol Quintero${tag}` }).click();
    const dialog = page.getByRole("dialog", { name: `Membership Application: Marisol Quintero${tag}` });
    await expect(dialog).toBeVisible();
    // Labels and values as staff read them, not as stored.
    const value = (label: string) => dialog.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
    await expect(value("Beneficiary Relationship")).toHaveText("Child");
    await expect(value("Applicant Date of Birth")).toHaveText("Apr 2, 1980");
    await expect(value("Co-Applicant Date of Birth")).toHaveText("Sep 17, 1982");
    await expect(value("Amount of Coverage")).toHaveText("$250,000.00");
    await expect(value("Applicant Phone")).toHaveText("(555) 123-4567");
    await expect(value("Co-Applicant Phone")).toHaveText("(555) 765-4321");
    await expect(value("Automatic Checking")).toHaveText("Yes");
    const submitted = await value("Submitted").textContent();
    // In the association's zone (New York), named (issue 48).
    expect(submitted).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/);
    await expect(dialog).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
    await expect(dialog).not.toContainText(/Co-applicant/);
    for (const label of ["Applicant Signature", "Co-Applicant Signature", "ACH Applicant Signature", "ACH Co-Applicant Signature"]) {
      const img = dialog.getByRole("img", { name: label, exact: true });
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(160);
    }
    await dialog.getByRole("heading", { name: "Signatures" }).scrollIntoViewIfNeeded();
    await shot(page, "desktop-detail", false);
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // Status change: the row is disabled with a spinner while the call is in flight.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/forms", async (route) => {
      if (route.request().method() === "PUT") await held;
      await route.continue();
    });
    await status.selectOption("approved");
    await expect(status).toBeDisabled();
    await expect(row).toHaveAttribute("aria-busy", "true");
    await expect(row.getByRole("img", { name: "Updating" })).toBeVisible();
    await expect(row.getByRole("button", { name: `Delete Marisol Quintero${tag}` })).toBeDisabled();
    release();
    await expect(status).toBeEnabled();
    await expect(status).toHaveValue("approved");
    await expect(status).toHaveAttribute("data-status-color", "green");
    await expect(row.getByRole("img", { name: "Updating" })).toHaveCount(0);
    await page.unroute("**/api/admin/forms");
    const stored = await db
      .selectFrom("submissions")
      .select("status")
      .where("source", "=", "applications")
      .where("row_id", "=", appId)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe("approved");
    // The status filter finds it under its new status.
    await page.getByLabel("Status", { exact: true }).selectOption("approved");
    await expect(rows(page)).toHaveCount(1);

    // Delete asks first; Cancel keeps it.
    await row.getByRole("button", { name: `Delete Marisol Quintero${tag}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Submission" });
    await expect(confirm).toContainText("Are you sure you want to delete this submission? This action cannot be undone.");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(rows(page)).toHaveCount(1);
    await row.getByRole("button", { name: `Delete Marisol Quintero${tag}` }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(message(page)).toHaveText("Successfully deleted 1 submission(s)");
    await expect(page.getByText("No submissions found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria.")).toBeVisible();
    expect(await db.selectFrom("applications").select("id").where("id", "=", appId).executeTakeFirst()).toBeUndefined();
    await shot(page, "desktop-empty");
    // Messages clear themselves after 5 seconds.
    await expect(message(page)).toBeHidden({ timeout: 8_000 });
  });

  test("the detail dialog keeps the status history and staff's internal notes, on desktop and phone", async ({
    page,
    signIn,
    services,
  }) => {
    // Two sizes, a reload and two axe scans: room on a busy machine.
    test.slow();
    const tag = uniq();
    const [id] = await contactMessages(services, `notes${tag}`, 1);
    const account = await signIn("limited_admin");
    await openTab(page);
    await search(page, `notes${tag}`);
    await expect(rows(page)).toHaveCount(1);
    await rows(page)
      .first()
      .getByRole("button", { name: /^View / })
      .click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Status history" })).toBeVisible();
    await expect(dialog).toContainText("No status changes yet.");
    await expect(dialog).toContainText("No notes yet.");

    // A status change made in the dialog shows in its history, with who and when.
    await dialog.getByRole("combobox", { name: "Submission status" }).selectOption("in-review");
    await expect(dialog.getByTestId("status-history")).toContainText("Pending → In Review");
    await expect(dialog.getByTestId("status-history")).toContainText(account.username!);

    // An empty note is refused beside its field; a note is kept with its author and time.
    await dialog.getByRole("button", { name: "Add note" }).click();
    await expect(dialog.getByText("Write a note first")).toBeVisible();
    await dialog.getByLabel("Add a note").fill("Called back on Tuesday.\nWill send the brochure.");
    await dialog.getByRole("button", { name: "Add note" }).click();
    const notes = dialog.getByTestId("submission-notes");
    await expect(notes).toContainText("Called back on Tuesday.");
    await expect(notes).toContainText(account.username!);
    await expect(dialog.getByLabel("Add a note")).toHaveValue("");
    await expectNoAxeViolations(page);
    await dialog.getByRole("heading", { name: "Internal notes" }).scrollIntoViewIfNeeded();
    await shot(page, "desktop-notes", false);

    // Kept: after a reload on a phone the open submission (kept in the address) opens again.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole("dialog").getByTestId("submission-notes")).toContainText("Will send the brochure.");
    await expect(page.getByRole("dialog").getByTestId("status-history")).toContainText("Pending → In Review");
    // The dialog reopened from the address fetches its submission; axe waits for the page to settle.
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
    await page.getByRole("dialog").getByRole("heading", { name: "Internal notes" }).scrollIntoViewIfNeeded();
    await shot(page, "phone-notes", false);
    await deleteSubmissions(services.database, "contact_messages", [id]);
  });

  test("keyboard focus stays on the status control after a row's change, and returns to the row after a change in the dialog and Esc", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    const ids = await contactMessages(services, `focus${tag}`, 2);
    await signIn("limited_admin");
    await openTab(page);
    await search(page, `focus${tag}`);
    await expect(rows(page)).toHaveCount(2);
    const row = rows(page).first();

    // A row's status, changed from the keyboard: the dropdown keeps the focus through the save.
    const status = row.getByRole("combobox", { name: /^Status of / });
    await status.focus();
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/admin/forms") && r.request().method() === "PUT");
    await status.selectOption("approved");
    expect((await saved).status()).toBe(200);
    await expect(row).not.toHaveAttribute("aria-busy", "true");
    await expect(status).toHaveValue("approved");
    await expect(status).toBeFocused();

    // The dialog opened from the keyboard, a status change in it, then Esc: back on the row's View button.
    const view = row.getByRole("button", { name: /^View / });
    await view.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Status history" })).toBeVisible();
    const inDialog = page.waitForResponse((r) => r.url().endsWith("/api/admin/forms") && r.request().method() === "PUT");
    await dialog.getByRole("combobox", { name: "Submission status" }).focus();
    await dialog.getByRole("combobox", { name: "Submission status" }).selectOption("completed");
    expect((await inDialog).status()).toBe(200);
    await expect(dialog.getByTestId("status-history")).toContainText("Approved → Completed");
    await expect(dialog.getByRole("combobox", { name: "Submission status" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(view).toBeFocused();
    await deleteSubmissions(services.database, "contact_messages", ids);
  });

  test("the open submission is in the address: Back closes the dialog, Close goes back, a reload opens it again", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    test.slow();
    const ids = await contactMessages(services, `history${tag}`, 1);
    const ref = `contact_${ids[0]}`;
    await signIn("limited_admin");
    await openTab(page);
    await search(page, `history${tag}`);
    await expect(rows(page)).toHaveCount(1);
    // The list follows the search before the address has it: wait for the address, then keep it.
    await expect.poll(() => new URL(page.url()).searchParams.get("search")).toBe(`history${tag}`);
    const listAddress = page.url();
    const view = rows(page)
      .first()
      .getByRole("button", { name: /^View / });
    const dialog = page.getByRole("dialog");

    // Opened: its id is pushed into the address; Back closes it and stays on the dashboard's list.
    await view.click();
    await expect(dialog).toBeVisible();
    await expect.poll(() => new URL(page.url()).searchParams.get("view")).toBe(ref);
    expect(new URL(page.url()).searchParams.get("search")).toBe(`history${tag}`);
    await page.goBack();
    await expect(dialog).toBeHidden();
    expect(page.url()).toBe(listAddress);
    await expect(rows(page)).toHaveCount(1);
    await expect(view).toBeFocused();

    // Forward opens it again; its close button goes back.
    await page.goForward();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close dialog" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => page.url()).toBe(listAddress);

    // A reload with the id in the address opens it; closing it leaves the list, focus on its row.
    await view.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("view")).toBe(ref);
    await page.reload();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Bulk history${tag} Person1`);
    await expect(dialog.getByRole("heading", { name: "Internal notes" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect.poll(() => new URL(page.url()).searchParams.get("view")).toBeNull();
    await expect(view).toBeFocused();

    // An address naming a submission that is not there: the list, and a message.
    await page.goto(`/admin/dashboard?tab=submissions&view=contact_999999999`);
    await expect(message(page)).toHaveText("Submission not found");
    await expect(dialog).toHaveCount(0);
    await expect.poll(() => new URL(page.url()).searchParams.get("view")).toBeNull();
    await deleteSubmissions(services.database, "contact_messages", ids);
  });

  test("on a slowed device the address keeps the tab, the search and the open submission, opened and closed in every way", async ({
    page,
    signIn,
    services,
  }) => {
    test.slow();
    const tag = uniq();
    const [id] = await contactMessages(services, `slow${tag}`, 1);
    const ref = `contact_${id}`;
    const search = `slow${tag}`;
    await signIn("super_admin");
    const cdp = await page.context().newCDPSession(page);
    const addressOf = () => {
      const url = new URL(page.url());
      return { path: url.pathname, query: Object.fromEntries([...url.searchParams].sort(([a], [b]) => a.localeCompare(b))) };
    };
    const listAddress = { path: "/admin/dashboard", query: { search, tab: "submissions" } };
    const openAddress = { path: "/admin/dashboard", query: { search, tab: "submissions", view: ref } };
    const dialog = page.getByRole("dialog");
    const box = page.getByLabel("Search submissions");

    // Esc "at once": before the address has the dialog's id.
    const tries: { find: "pause" | "enter" | "status"; close: "escape" | "escape at once" | "button" | "back" }[] = [
      { find: "pause", close: "escape" },
      { find: "enter", close: "button" },
      { find: "status", close: "escape at once" },
      { find: "pause", close: "back" },
      { find: "enter", close: "escape at once" },
    ];
    for (const [n, { find, close }] of tries.entries()) {
      const attempt = `try ${n + 1} (${find}, ${close})`;
      // The dashboard opens on RSS for a super admin: the tab, the search and the dialog are all written on the slowed device.
      await page.goto("/admin/dashboard");
      await expect(page.getByRole("tab", { name: /RSS/ })).toHaveAttribute("aria-selected", "true");
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
      await page.getByRole("tab", { name: /Form/ }).click();
      await box.fill(search);
      if (find === "enter") await box.press("Enter");
      if (find === "status") await page.getByLabel("Status", { exact: true }).selectOption("pending");
      const expectedList = find === "status" ? { ...listAddress, query: { ...listAddress.query, status: "pending" } } : listAddress;
      const expectedOpen = find === "status" ? { ...openAddress, query: { ...openAddress.query, status: "pending" } } : openAddress;
      // No waiting for the address: the row is clicked as soon as the list shows it.
      await expect(rows(page)).toHaveCount(1);
      await rows(page)
        .first()
        .getByRole("button", { name: /^View / })
        .click();
      await expect(dialog).toBeVisible();
      if (close === "escape at once") await page.keyboard.press("Escape");
      else {
        await expect.poll(addressOf, { message: `${attempt}: opened` }).toEqual(expectedOpen);
        if (close === "escape") await page.keyboard.press("Escape");
        else if (close === "button") await dialog.getByRole("button", { name: "Close dialog" }).click();
        else await page.goBack();
      }
      await expect(dialog).toBeHidden();
      await expect.poll(addressOf, { message: `${attempt}: closed` }).toEqual(expectedList);
      await expect(page.getByRole("tab", { name: /Form/ })).toHaveAttribute("aria-selected", "true");
      await expect(rows(page)).toHaveCount(1);
      await expect(box).toHaveValue(search);
      // Nothing still on its way changes it afterwards.
      await expect(page.getByTestId("submissions-list")).toHaveAttribute("aria-busy", "false");
      await afterTwoFrames(page);
      expect(addressOf(), `${attempt}: settled`).toEqual(expectedList);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    }
    await deleteSubmissions(services.database, "contact_messages", [id]);
  });

  test("staff assign a submission in its dialog and find it under 'Assigned to me', on desktop and phone", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    const [mine, other] = await contactMessages(services, `assign${tag}`, 2);
    const account = await signIn("limited_admin");
    await openTab(page);
    await search(page, `assign${tag}`);
    await expect(rows(page)).toHaveCount(2);

    // Assigned to oneself in the dialog: the row says so at once.
    await rows(page)
      .filter({ hasText: `contact_${mine}` })
      .getByRole("button", { name: /^View / })
      .click();
    const dialog = page.getByRole("dialog");
    const assignee = dialog.getByRole("combobox", { name: "Assigned to" });
    await expect(assignee).toHaveValue("");
    await assignee.selectOption({ label: account.username! });
    await expect(rows(page).filter({ hasText: `contact_${mine}` })).toContainText(`Assigned to ${account.username}`);
    await expectNoAxeViolations(page);
    await shot(page, "desktop-assign", false);
    await page.keyboard.press("Escape");

    // The filter keeps only this person's, is in the address, and survives a reload.
    await page.getByRole("checkbox", { name: "Assigned to me" }).check();
    await expect(page).toHaveURL(/assigned=me/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(`contact_${mine}`);
    await page.reload();
    await expect(page.getByRole("checkbox", { name: "Assigned to me" })).toBeChecked();
    await expect(rows(page)).toHaveCount(1);
    await shot(page, "desktop-assigned-to-me", false);

    // On a phone: unassigned from the dialog, it leaves the filtered list.
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole("button", { name: /^View / })
      .first()
      .click();
    await expect(page.getByRole("dialog").getByRole("combobox", { name: "Assigned to" })).toHaveValue(String(account.userId));
    await shot(page, "phone-assign", false);
    await page.getByRole("dialog").getByRole("combobox", { name: "Assigned to" }).selectOption({ label: "Nobody" });
    await page.keyboard.press("Escape");
    await expect(page.getByText("No submissions found")).toBeVisible();
    await expect(
      services.database.db.selectFrom("submission_assignments").select("user_id").where("submission_id", "in", [mine, other]).execute(),
    ).resolves.toEqual([]);
    await deleteSubmissions(services.database, "contact_messages", [mine, other]);
  });

  test("where the site can send mail, staff reply to the sender from the dialog, and the reply is kept with the notes", async ({
    page,
    signIn,
    services,
  }) => {
    // A second instance of the build starts inside the test: room for a busy machine.
    test.slow();
    const tag = uniq();
    const [id] = await contactMessages(services, `reply${tag}`, 1);
    await signIn("limited_admin");
    // Without SMTP_URL (the browser tests' site) there is no reply form.
    await openTab(page);
    await search(page, `reply${tag}`);
    await page
      .getByRole("button", { name: /^View / })
      .first()
      .click();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Internal notes" })).toBeVisible();
    await expect(page.getByRole("dialog").getByRole("heading", { name: "Reply by e-mail" })).toHaveCount(0);

    const smtp = await startSmtp();
    const site = await startSecondSite({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    try {
      await page.goto(`${site.url}/admin/dashboard?tab=submissions`);
      await search(page, `reply${tag}`);
      await page
        .getByRole("button", { name: /^View / })
        .first()
        .click();
      const dialog = page.getByRole("dialog");
      const email = `bulk1.reply${tag}@example.com`;
      await expect(dialog.getByRole("heading", { name: "Reply by e-mail" })).toBeVisible();
      await expect(dialog).toContainText(`To ${email}.`);
      await expect(dialog.getByLabel("Subject")).toHaveValue("Re: your contact form");
      await dialog.getByRole("button", { name: "Send e-mail" }).click();
      await expect(dialog.getByText("Write a message first")).toBeVisible();
      await dialog.getByLabel("Message").fill("Thank you for writing.\nYour plan covers it.");
      await dialog.getByRole("button", { name: "Send e-mail" }).click();
      await expect(dialog.getByRole("status").filter({ hasText: "E-mail sent" })).toHaveText(`E-mail sent to ${email}.`);
      await expect(dialog.getByTestId("submission-notes")).toContainText(`E-mail to ${email}: Re: your contact form`);
      await expect(dialog.getByLabel("Message")).toHaveValue("");
      expect(smtp.received.map((m) => m.to)).toEqual([[email]]);
      expect(decodeBody(smtp.received[0].raw)).toContain("Your plan covers it.");
      await expectNoAxeViolations(page);
      await dialog.getByRole("heading", { name: "Reply by e-mail" }).scrollIntoViewIfNeeded();
      await shot(page, "desktop-reply", false);

      // On a phone the form and the kept reply fit the dialog's width.
      await page.setViewportSize({ width: 390, height: 844 });
      await dialog.getByRole("heading", { name: "Reply by e-mail" }).scrollIntoViewIfNeeded();
      expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await expectNoAxeViolations(page);
      await shot(page, "phone-reply", false);
    } finally {
      await site.close();
      await smtp.close();
      await deleteSubmissions(services.database, "contact_messages", [id]);
    }
  });

  test("an approved application becomes a member in one step, and the member links back to it", async ({ page, signIn, services }) => {
    const tag = uniq();
    const appId = await insertApplication(services.database, {
      applicant_name: `Morgan Member${tag}`,
      dob: "1979-05-06",
      email: `morgan.${tag}@example.com`,
    });
    await signIn("limited_admin");
    await openTab(page);
    await search(page, `Morgan Member${tag}`);
    await page.getByRole("button", { name: `View Morgan Member${tag}` }).click();
    const dialog = page.getByRole("dialog");
    const membership = dialog.getByTestId("membership");
    await expect(membership).toContainText("Approve the application to make the applicant a member.");
    await expect(membership.getByRole("button", { name: "Create member" })).toHaveCount(0);

    await dialog.getByRole("combobox", { name: "Submission status" }).selectOption("approved");
    await membership.getByRole("button", { name: "Create member" }).click();
    await expect(membership.getByRole("status")).toContainText(/^Member [A-Z0-9-]+ created\. E-mail is not set up on this site/);
    const certificate = (await membership.getByRole("status").innerText()).split(" ")[1];
    await expect(membership).toContainText(`Member ${certificate}`);
    await expectNoAxeViolations(page);
    await membership.scrollIntoViewIfNeeded();
    await shot(page, "desktop-membership", false);
    await page.setViewportSize({ width: 390, height: 844 });
    await membership.scrollIntoViewIfNeeded();
    expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, "phone-membership", false);
    await page.setViewportSize({ width: 1280, height: 720 });

    const user = await services.database.db
      .selectFrom("users")
      .selectAll()
      .where("certificate_number", "=", certificate)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ first_name: "Morgan", last_name: `Member${tag}` });
    const link = await services.database.db
      .selectFrom("applications")
      .select("member_user_id")
      .where("id", "=", appId)
      .executeTakeFirstOrThrow();
    expect(Number(link.member_user_id)).toBe(user.id);
    await membership.getByRole("link", { name: "Open in member administration" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/members\\?q=${certificate}`));
    await expect(page.getByText(certificate).first()).toBeVisible();
    await services.database.db.deleteFrom("users").where("id", "=", user.id).execute();
    await deleteSubmissions(services.database, "applications", [appId]);
  });

  test("an application in an existing member's name: the match and its risk first, nothing done until staff choose to link", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(120_000);
    const tag = uniq();
    const db = services.database.db;
    const existing = await services.auth.users.createMember({
      certificate: `OLD-${tag.toUpperCase()}`,
      birthdateDigest: services.auth.digestBirthdate("1966-06-16"),
      firstName: "Riley",
      lastName: `Match${tag}`,
    });
    const linked = await insertApplication(services.database, {
      applicant_name: `Riley Match${tag}`,
      dob: "1966-06-16",
      email: `attacker.${tag}@example.com`,
      status: "approved",
    });
    try {
      await signIn("limited_admin");
      await openTab(page);
      await search(page, `Match${tag}`);
      await page.getByRole("button", { name: `View Riley Match${tag}`, exact: true }).click();
      const dialog = page.getByRole("dialog");
      const membership = dialog.getByTestId("membership");
      await membership.getByRole("button", { name: "Create member" }).click();
      // Nothing is done yet: the match, where a welcome would go, and the explicit choice.
      const match = membership.getByTestId("membership-match");
      await expect(match.getByRole("heading", { name: "A member with this name and birthdate exists" })).toBeFocused();
      await expect(match).toContainText(`Riley Match${tag}, certificate OLD-${tag.toUpperCase()}`);
      await expect(match).toContainText("They have no e-mail address on record: no welcome e-mail would be sent.");
      await expect(match).toContainText("Anyone who knows a member's name and birthday can apply in their name.");
      // The member has no plan: what the application's plan would set, given only if staff tick it.
      const planBox = match.getByTestId("membership-match-plan");
      await expect(planBox).toContainText("They have no plan on record. This application's plan would set:");
      await expect(planBox).toContainText("Coverage amount: $250,000.00");
      await expect(planBox).toContainText("Beneficiary: Jordan Heir (Child)");
      await expect(planBox).toContainText("Co-insured: Casey Applicant");
      await expect(planBox.getByRole("checkbox", { name: /^Give Riley Match/ })).not.toBeChecked();
      expect(await db.selectFrom("applications").select("member_user_id").where("id", "=", linked).executeTakeFirstOrThrow()).toEqual({
        member_user_id: null,
      });
      await expectNoAxeViolations(page);
      await match.scrollIntoViewIfNeeded();
      await shot(page, "desktop-membership-match", false);
      await page.setViewportSize({ width: 390, height: 844 });
      await match.scrollIntoViewIfNeeded();
      expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await shot(page, "phone-membership-match", false);

      // Cancel leaves everything as it was; then the link, chosen from the keyboard.
      await match.getByRole("button", { name: "Cancel" }).click();
      await expect(match).toHaveCount(0);
      await membership.getByRole("button", { name: "Create member" }).click();
      await match.getByRole("button", { name: `Link to Riley Match${tag} (OLD-${tag.toUpperCase()})` }).focus();
      await page.keyboard.press("Enter");
      await expect(membership.getByRole("status")).toHaveText(
        `Linked to the existing member OLD-${tag.toUpperCase()}. Their plan was left as it is. This member has no e-mail address on record, so no welcome e-mail was sent: tell the member their certificate number yourself.`,
      );
      expect(await db.selectFrom("membership_plans").select("user_id").where("user_id", "=", existing.id).execute()).toEqual([]);
      await shot(page, "phone-membership-linked", false);
      await page.setViewportSize({ width: 1280, height: 720 });
      expect(
        Number(
          (await db.selectFrom("applications").select("member_user_id").where("id", "=", linked).executeTakeFirstOrThrow()).member_user_id,
        ),
      ).toBe(existing.id);
    } finally {
      await deleteSubmissions(services.database, "applications", [linked]);
      await db.deleteFrom("users").where("id", "=", existing.id).execute();
    }
  });

  test("a match whose name mixes scripts is marked where staff choose to link (issue 39)", async ({ page, signIn, services }) => {
    const tag = uniq();
    // "Rіley" with a Cyrillic і: reads as "Riley".
    const name = `R\u0456ley Mixed${tag}`;
    const existing = await services.auth.users.createMember({
      certificate: `MIX-${tag.toUpperCase()}`,
      birthdateDigest: services.auth.digestBirthdate("1966-06-16"),
      firstName: "R\u0456ley",
      lastName: `Mixed${tag}`,
    });
    const appId = await insertApplication(services.database, { applicant_name: name, dob: "1966-06-16", status: "approved" });
    try {
      await signIn("limited_admin");
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await openTab(page);
        await search(page, `Mixed${tag}`);
        await page.getByRole("button", { name: `View ${name}`, exact: true }).click();
        const membership = page.getByRole("dialog").getByTestId("membership");
        await membership.getByRole("button", { name: "Create member" }).click();
        const match = membership.getByTestId("membership-match-member");
        await expect(match.getByTestId("mixed-scripts")).toContainText("⚠ mixed scripts");
        await expect(match.getByTestId("mixed-scripts")).toContainText("this name mixes Latin and Cyrillic letters");
        await expectNoAxeViolations(page);
        await match.scrollIntoViewIfNeeded();
        await shot(page, `${width}-membership-match-mixed-scripts`, false);
        await page.keyboard.press("Escape");
      }
    } finally {
      await services.database.db.deleteFrom("users").where("id", "=", existing.id).execute();
      await deleteSubmissions(services.database, "applications", [appId]);
    }
  });

  test("linking to a member without a plan, staff tick to give the application's plan: it is given, and said", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(120_000);
    const tag = uniq();
    const db = services.database.db;
    const existing = await services.auth.users.createMember({
      certificate: `GIVE-${tag.toUpperCase()}`,
      birthdateDigest: services.auth.digestBirthdate("1966-06-16"),
      firstName: "Riley",
      lastName: `Given${tag}`,
    });
    const linked = await insertApplication(services.database, {
      applicant_name: `Riley Given${tag}`,
      dob: "1966-06-16",
      status: "approved",
    });
    try {
      await signIn("limited_admin");
      await openTab(page);
      await search(page, `Given${tag}`);
      await page.getByRole("button", { name: `View Riley Given${tag}`, exact: true }).click();
      const membership = page.getByRole("dialog").getByTestId("membership");
      await membership.getByRole("button", { name: "Create member" }).click();
      const match = membership.getByTestId("membership-match");
      await match.getByRole("checkbox", { name: /^Give Riley Given/ }).check();
      await match.getByRole("button", { name: `Link to Riley Given${tag} (GIVE-${tag.toUpperCase()})` }).click();
      await expect(membership.getByRole("status")).toContainText(
        `Linked to the existing member GIVE-${tag.toUpperCase()}. The plan from this application was given to them.`,
      );
      expect(
        await db
          .selectFrom("membership_plans")
          .select(["billing", "coverage_cents", "beneficiary_name"])
          .where("user_id", "=", existing.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ billing: "monthly", coverage_cents: 25_000_000, beneficiary_name: "Jordan Heir" });
    } finally {
      await deleteSubmissions(services.database, "applications", [linked]);
      await db.deleteFrom("users").where("id", "=", existing.id).execute();
    }
  });

  test("an application in an existing member's name, where staff choose a new member: a new number and the application's details", async ({
    page,
    signIn,
    services,
  }) => {
    test.setTimeout(120_000);
    const tag = uniq();
    const db = services.database.db;
    const existing = await services.auth.users.createMember({
      certificate: `OLD-${tag.toUpperCase()}`,
      birthdateDigest: services.auth.digestBirthdate("1966-06-16"),
      firstName: "Riley",
      lastName: `Twin${tag}`,
      email: `riley.${tag}@example.com`,
    });
    const fresh = await insertApplication(services.database, {
      applicant_name: `Riley Twin${tag}`,
      dob: "1966-06-16",
      email: `riley.${tag}@example.com`,
      status: "approved",
    });
    try {
      await signIn("limited_admin");
      await openTab(page);
      await search(page, `Twin${tag}`);
      await page.getByRole("button", { name: `View Riley Twin${tag}`, exact: true }).click();
      const membership = page.getByRole("dialog").getByTestId("membership");
      await membership.getByRole("button", { name: "Create member" }).click();
      await expect(membership.getByTestId("membership-match")).toContainText(
        "Their e-mail address on record is the same as this application's.",
      );
      await membership.getByTestId("membership-match").getByRole("button", { name: "Create a new member" }).click();
      await expect(membership.getByRole("status")).toContainText(/^Member [A-Z0-9-]+ created\. E-mail is not set up on this site/);
      const certificate = (await membership.getByRole("status").innerText()).split(" ")[1];
      expect(certificate).not.toBe(`OLD-${tag.toUpperCase()}`);
      const made = await db.selectFrom("users").selectAll().where("certificate_number", "=", certificate).executeTakeFirstOrThrow();
      expect(made).toMatchObject({ email: `riley.${tag}@example.com`, phone: "5551234567", city: "Springfield" });
      const link = await db.selectFrom("applications").select("member_user_id").where("id", "=", fresh).executeTakeFirstOrThrow();
      expect(Number(link.member_user_id)).toBe(made.id);
      await db.deleteFrom("users").where("id", "=", made.id).execute();
    } finally {
      await deleteSubmissions(services.database, "applications", [fresh]);
      await db.deleteFrom("users").where("id", "=", existing.id).execute();
    }
  });

  test("bulk delete needs a selection and a confirmation; a filter change clears the selection", async ({ page, signIn, services }) => {
    test.setTimeout(60_000);
    const tag = uniq();
    const ids = await contactMessages(services, tag, 3);
    await signIn("super_admin");
    await openTab(page);
    await search(page, `bulk ${tag}`);
    await expect(rows(page)).toHaveCount(3);

    await page.getByRole("button", { name: "Delete Selected" }).click();
    await expect(message(page)).toHaveText("Please select at least one submission to delete.");
    await page.getByRole("button", { name: "Dismiss message" }).click();
    await expect(message(page)).toHaveCount(0);

    // A filter change clears the selection.
    await page.getByRole("checkbox", { name: `Select Bulk ${tag} Person1` }).check();
    await expect(page.getByText("1 selected")).toBeVisible();
    await page.getByLabel("Type", { exact: true }).selectOption("contact-form");
    await expect(page.getByText("1 selected")).toHaveCount(0);
    await expect(page.getByRole("checkbox", { name: `Select Bulk ${tag} Person1` })).not.toBeChecked();

    await page.getByRole("checkbox", { name: "Select all submissions on this page" }).check();
    await expect(page.getByText("3 selected")).toBeVisible();
    await page.getByRole("button", { name: "Delete Selected (3)" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Submissions" });
    await expect(confirm).toContainText("Are you sure you want to delete 3 submission(s)? This action cannot be undone.");
    await expectNoAxeViolations(page);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(rows(page)).toHaveCount(3);
    await page.getByRole("button", { name: "Delete Selected (3)" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(message(page)).toHaveText("Successfully deleted 3 submission(s)");
    await expect(page.getByText("No submissions found")).toBeVisible();
    const left = await services.database.db.selectFrom("contact_messages").select("id").where("id", "in", ids).execute();
    expect(left).toEqual([]);
  });

  test("export downloads the filtered list as CSV", async ({ page, signIn, services }) => {
    const tag = uniq();
    await contactMessages(services, tag, 2);
    await signIn("limited_admin");
    await openTab(page);
    await search(page, `bulk ${tag}`);
    await expect(rows(page)).toHaveCount(2);
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs
      .readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("id,type,formType,submissionDate,status,applicantName,applicantEmail,applicantPhone,coverageAmount,details");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`Bulk ${tag} Person2`);
  });

  test("phones get cards without sideways scrolling", async ({ page, signIn, services }) => {
    const tag = uniq();
    await insertApplication(services.database, { applicant_name: `Phone Applicant${tag}`, email: `phone.${tag}@example.com` });
    await contactMessages(services, tag, 2);
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn("limited_admin");
    await openTab(page);
    await expect(page.getByRole("tab", { name: "Forms" })).toBeVisible();
    await search(page, tag);
    const cards = page.getByTestId("submissions-card");
    await expect(cards).toHaveCount(3);
    await expect(page.getByTestId("submissions-table")).toBeHidden();
    // Newest first: the application was stored before the two messages.
    await expect(cards.last()).toContainText(`Phone Applicant${tag}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, "mobile-list");
    await expectNoAxeViolations(page);
    await cards
      .last()
      .getByRole("button", { name: `View Phone Applicant${tag}` })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("img", { name: "Applicant Signature", exact: true }).scrollIntoViewIfNeeded();
    await expect(dialog.getByRole("img", { name: "Applicant Signature", exact: true })).toBeVisible();
    await shot(page, "mobile-detail", false);
    await expectNoAxeViolations(page);
  });

  test("labels for stored values, phones and e-mail addresses wrapped where they may, details for every request", async ({
    page,
    signIn,
    services,
  }) => {
    const tag = uniq();
    const repo = services.submissions.repository;
    await repo.insert("contact", {
      name: `Billing Person${tag}`,
      email: `billing.person.${tag}@accounts-department.example-insurance-company.com`,
      phone: "2035551234",
      subject: "billing",
      message: "About my invoice",
    });
    await repo.insert("cpa", {
      first_name: "Bare",
      last_name: `Cpa${tag}`,
      email: `bare.${tag}@example.com`,
      phone: null,
      firm_name: null,
      city: null,
      state: null,
      zip: null,
      notes: null,
      member_id: null,
    });
    await insertApplication(services.database, { applicant_name: `Child Beneficiary${tag}`, beneficiary_relationship: "child" });
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn("limited_admin");
    await openTab(page);
    await search(page, tag);
    const cards = page.getByTestId("submissions-card");
    await expect(cards).toHaveCount(3);

    const contact = cards.filter({ hasText: `Billing Person${tag}` });
    await expect(contact).toContainText("(203) 555-1234");
    // The long address wraps only before "@" or a dot, never inside a name.
    await expectEmailWrapsAtDots(contact.getByTestId("email-text"));

    await expect(cards.filter({ hasText: `Bare Cpa${tag}` })).toContainText("No firm, location or notes given");

    await contact.getByRole("button", { name: `View Billing Person${tag}` }).click();
    const dialog = page.getByRole("dialog", { name: `Contact Form: Billing Person${tag}` });
    const value = (label: string) => dialog.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
    await expect(value("Subject")).toHaveText("Billing Inquiry");
    await expect(value("Phone")).toHaveText("(203) 555-1234");
    await expectEmailWrapsAtDots(value("Email").getByTestId("email-text"));
    await shot(page, "mobile-contact-detail", false);
    await page.keyboard.press("Escape");

    await cards
      .filter({ hasText: `Child Beneficiary${tag}` })
      .getByRole("button", { name: `View Child Beneficiary${tag}` })
      .click();
    const application = page.getByRole("dialog", { name: `Membership Application: Child Beneficiary${tag}` });
    await expect(application.locator("dt", { hasText: /^Beneficiary Relationship$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText(
      "Child",
    );
  });

  test("the list always answers the controls shown: a search cleared and a type picked at once", async ({ page, signIn, services }) => {
    const tag = uniq();
    const repo = services.submissions.repository;
    await repo.insert("contact", {
      name: `Mia ${tag}`,
      email: `mia.${tag}@example.com`,
      phone: null,
      subject: "general",
      message: "Hello",
    });
    await repo.insert("cpa", {
      first_name: "Request",
      last_name: `One${tag}`,
      email: `one.${tag}@example.com`,
      phone: null,
      firm_name: "Ledger",
      city: null,
      state: null,
      zip: null,
      notes: null,
      member_id: null,
    });
    await repo.insert("homeowner", {
      first_name: "Request",
      last_name: `Two${tag}`,
      email: `two.${tag}@example.com`,
      phone: null,
      address1: null,
      address2: null,
      city: null,
      state: null,
      zip: null,
      materials_requested: "Guide",
      notes: null,
      member_id: null,
    });
    await signIn("limited_admin");
    await page.goto(`/admin/dashboard?tab=submissions&search=Mia+${tag}`);
    const list = page.getByTestId("submissions-list");
    const box = page.getByLabel("Search submissions");
    const type = page.getByLabel("Type", { exact: true });
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(rows(page)).toHaveCount(1);
    await expect(box).toHaveValue(`Mia ${tag}`);

    // Clear the box and pick a type well within the search's pause.
    await box.fill("");
    await type.selectOption("form-request");
    await expect(page).toHaveURL((url) => url.searchParams.get("type") === "form-request" && !url.searchParams.has("search"));
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(box).toHaveValue("");
    await expect(type).toHaveValue("form-request");
    await expect(rows(page).filter({ hasText: tag })).toHaveCount(2);
    await expect(rows(page).filter({ hasNotText: /CPA Request|Material Request/ })).toHaveCount(0);
    await expect(page).toHaveURL((url) => url.searchParams.get("type") === "form-request" && !url.searchParams.has("search"));

    // An answer to an older query never replaces a newer one: hold the search's answer back
    // until the answer to search + status has arrived.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/admin/submissions?*", async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get("search") === tag && url.searchParams.get("status") === "all") await held;
      await route.continue().catch(() => {});
    });
    await type.selectOption("all");
    await box.fill(tag);
    await box.press("Enter");
    await expect(page).toHaveURL((url) => url.searchParams.get("search") === tag);
    const isOlder = (r: { url(): string }) => r.url().includes(`search=${tag}`) && r.url().includes("status=all");
    // The older request either is cancelled (the page aborts it) or finishes once released.
    const olderDone = Promise.race([page.waitForEvent("requestfailed", isOlder), page.waitForEvent("requestfinished", isOlder)]);
    const newer = page.waitForResponse((r) => r.url().includes("/api/admin/submissions?") && r.url().includes("status=completed"));
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await newer;
    await expect(list).toHaveAttribute("aria-busy", "false");
    await expect(page.getByText("No submissions found")).toBeVisible();
    release();
    await olderDone;
    await afterTwoFrames(page);
    await expect(page.getByText("No submissions found")).toBeVisible();
    await expect(rows(page)).toHaveCount(0);
    await expect(page.getByLabel("Status", { exact: true })).toHaveValue("completed");
    await expect(page).toHaveURL((url) => url.searchParams.get("status") === "completed" && url.searchParams.get("search") === tag);
    await page.unroute("**/api/admin/submissions?*");
  });
});
