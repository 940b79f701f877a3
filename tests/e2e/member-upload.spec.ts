import crypto from "node:crypto";
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, STAFF_PASSWORD, test } from "./fixtures";
import { expectInViewBelowHeader } from "./in-view";
import { unclosedQuoteMessage } from "../../app/platform/csv";

const uniq = () => `E${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
const HEADER = "certificate_number,birthdate,first_name,last_name,email";

/** Drops a file on an element the way a browser does: a drop event carrying a DataTransfer. */
async function dropFile(page: Page, target: Locator, name: string, content: string, type: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, content, type }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], name, { type }));
      return dt;
    },
    { name, content, type },
  );
  await target.dispatchEvent("dragover", { dataTransfer });
  await target.dispatchEvent("drop", { dataTransfer });
}

async function downloadTemplate(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV Template" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("user_upload_template.csv");
  return fs.readFileSync((await download.path())!, "utf8");
}

/**
 * The second click of a double click (`detail` 2) on its own, as it reaches the page when the
 * first one's upload has already finished; then a frame, by which the click's updates are drawn.
 * Dispatched on the button itself: the page may still be scrolling its result into view, and a
 * click at the button's last coordinates could land beside it.
 */
async function secondClickOfDoubleClick(page: Page, target: Locator) {
  await target.dispatchEvent("click", { detail: 2 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}

/** The upload POSTs the page sends from now on, as they are sent. */
function uploadPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/api/upload-users") && posts.push(r.url()));
  return posts;
}

const memberRow = (services: Parameters<Parameters<typeof test>[2]>[0]["services"], certificate: string) =>
  services.database.db.selectFrom("users").selectAll().where("certificate_number", "=", certificate).executeTakeFirst();

test.describe("/admin/upload (Admin User Upload, JSON variant)", () => {
  test("template, instructions, admin password field, drop zone and a disabled upload button", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Admin User Upload" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Instructions" })).toBeVisible();
    await expect(page.getByText("Maximum file size: 10MB.")).toBeVisible();
    const template = await downloadTemplate(page);
    const lines = template.trim().split(/\r\n/);
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(9);
    for (const format of [/,\d{4}-\d{2}-\d{2},/, /,\d{2}\/\d{2}\/\d{4},/, /,\d{2}-\d{2}-\d{4},/, /,\d{4}\/\d{2}\/\d{2},/]) {
      expect(lines.filter((l) => format.test(l)).length).toBeGreaterThanOrEqual(2);
    }
    const password = page.getByLabel("Admin Password");
    await expect(password).toHaveAttribute("type", "password");
    await expect(password).toHaveAttribute("placeholder", "Enter admin password if required");
    await expect(page.getByText("CSV files only")).toBeVisible();
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeDisabled();
    await expectNoAxeViolations(page);
  });

  test("drag-and-drop: a non-CSV file is ignored, a CSV shows name, size in KB and the first 5 lines; the result panel lists errors", async ({
    page,
    signIn,
    services,
  }) => {
    await signIn("super_admin");
    await page.goto("/admin/upload");
    const zone = page.getByTestId("drop-zone");
    await dropFile(page, zone, "photo.png", "not a csv", "image/png");
    await expect(page.getByTestId("file-summary")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeDisabled();

    const t = uniq();
    const good = Array.from({ length: 3 }, (_, i) => `${t}G${i},1980-01-1${i},Good,Row${i},`);
    const bad = Array.from({ length: 25 }, (_, i) => `${t}B${i},1980-02-${30 + (i % 2)},Bad,Row${i},`);
    const csv = [HEADER, ...good, ...bad].join("\n") + "\n";
    await dropFile(page, zone, "members.csv", csv, "text/csv");
    const summary = page.getByTestId("file-summary");
    await expect(summary).toContainText("members.csv");
    await expect(summary).toContainText(`(${(Buffer.byteLength(csv) / 1024).toFixed(2)} KB)`);
    await expect(page.getByTestId("file-preview")).toHaveText([HEADER, ...good, bad[0]].join("\n"));

    await page.getByRole("button", { name: "Upload Users" }).click();
    const result = page.getByTestId("upload-result");
    await expect(result.getByRole("heading", { level: 2 })).toHaveText("Upload Partially Successful");
    await expect(result).toContainText("Imported 3 users (3 new, 0 updated, 0 unchanged); 25 rows had errors and were skipped.");
    // A partial import is headed so (not 'Upload Successful') and reads as a warning, the rows skipped beside the rows imported.
    await expect(result).toHaveAttribute("data-tone", "partial");
    await expect(result.getByRole("heading", { level: 2 }).locator("svg.lucide-triangle-alert")).toHaveCount(1);
    await expect(result.getByRole("heading", { level: 2 }).locator("svg.lucide-circle-check")).toHaveCount(0);
    await expect(result.getByTestId("upload-counts")).toHaveText("3 imported, 25 skipped");
    await expect(result.getByText("Total Processed")).toBeVisible();
    await expect(result.locator("dd")).toHaveText(["28", "3", "25", /^\d+(\.\d+)?s$/]);
    await expect(result.getByText("Processing Time")).toBeVisible();
    const errors = page.getByTestId("parsing-errors");
    await expect(errors.getByRole("listitem")).toHaveCount(20);
    await expect(errors.getByRole("listitem").first()).toHaveText('Line 5: birthdate "1980-02-30" is not a real date');
    await expect(errors).toContainText("... and 5 more errors");
    expect(await memberRow(services, `${t}G1`)).toMatchObject({ first_name: "Good", last_name: "Row1", role: "user" });
    await expectNoAxeViolations(page);
  });

  test("a file chosen with the chooser uploads; failures show 'Upload Failed' with the server's reason", async ({
    page,
    signIn,
    services,
  }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    const t = uniq();
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(`${HEADER}\n${t}1,13/40/1980,,,\n`) });
    await page.getByRole("button", { name: "Upload Users" }).click();
    const result = page.getByTestId("upload-result");
    await expect(result.getByRole("heading", { name: "Upload Failed" })).toBeVisible();
    await expect(result).toContainText("No valid user records to import");
    await expect(page.getByTestId("parsing-errors")).toContainText('Line 2: birthdate "13/40/1980" is not a real date');

    // A wrong admin password is refused before anything is imported.
    await input.setInputFiles({ name: "ok.csv", mimeType: "text/csv", buffer: Buffer.from(`${HEADER}\n${t}2,1980-01-15,,,\n`) });
    await page.getByLabel("Admin Password").fill("not the password");
    await page.getByRole("button", { name: "Upload Users" }).click();
    await expect(result.getByRole("heading", { name: "Upload Failed" })).toBeVisible();
    await expect(result).toContainText("Admin password is incorrect");
    expect(await memberRow(services, `${t}2`)).toBeUndefined();

    await page.getByLabel("Admin Password").fill(STAFF_PASSWORD);
    await page.getByRole("button", { name: "Upload Users" }).click();
    await expect(result.getByRole("heading", { name: "Upload Successful" })).toBeVisible();
    await expect(result).toHaveAttribute("data-tone", "success");
    await expect(result.getByTestId("upload-counts")).toHaveCount(0);
    expect(await memberRow(services, `${t}2`)).toBeDefined();
  });

  test("a large file shows the progress bar while it uploads and is processed, then the result", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    const t = uniq();
    const rows = Array.from({ length: 60_000 }, (_, i) => `${t}L${i},1975-0${1 + (i % 9)}-1${i % 10},First,Last,`);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "large.csv", mimeType: "text/csv", buffer: Buffer.from([HEADER, ...rows].join("\n")) });
    // Every progress bar the page draws is written down as it is drawn: on a busy machine the
    // upload and the import can both be over before a check from the test would look.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const label = document.querySelector('[role="progressbar"]')?.getAttribute("aria-label");
        const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim().startsWith("Upload"));
        const state = label && `${label}, ${button?.textContent?.trim()} ${button?.disabled ? "disabled" : "enabled"}`;
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole("button", { name: "Upload Users" }).click();
    await expect(page.getByTestId("upload-result").getByRole("heading", { name: "Upload Successful" })).toBeVisible({ timeout: 25_000 });
    expect(await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)).toEqual([
      "Upload progress, Uploading... disabled",
      "Processing, Uploading... disabled",
    ]);
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.getByTestId("upload-result").locator("dd").first()).toHaveText("60,000");
  });

  test("a network failure shows 'Upload Failed' with 'Upload failed' and the reason", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    await page.route("**/api/upload-users", (route) => route.abort());
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "ok.csv", mimeType: "text/csv", buffer: Buffer.from(`${HEADER}\n${uniq()},1980-01-15,,,\n`) });
    await page.getByRole("button", { name: "Upload Users" }).click();
    const result = page.getByTestId("upload-result");
    await expect(result.getByRole("heading", { name: "Upload Failed" })).toBeVisible();
    await expect(result).toContainText("Upload failed");
    await expect(result).toContainText("Network error: the server could not be reached");
  });

  test("a file that is not CSV, picked with the chooser, is refused as on /admin/users", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    const input = page.locator('input[type="file"]');
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await input.setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
    await expect(page.getByRole("alert")).toHaveText("Please select a CSV file");
    await expect(page.getByTestId("file-summary")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeDisabled();
    // A CSV first, then the picture: the CSV is let go too.
    await input.setInputFiles({ name: "ok.csv", mimeType: "text/csv", buffer: Buffer.from(`${HEADER}\n${uniq()},1980-01-15,,,\n`) });
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeEnabled();
    await input.setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
    await expect(page.getByRole("alert")).toHaveText("Please select a CSV file");
    await expect(page.getByTestId("file-summary")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeDisabled();
  });

  test("a double click uploads once; the result comes into view below the header and is announced", async ({ page, signIn, services }) => {
    await page.setViewportSize({ width: 390, height: 700 });
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    const t = uniq();
    const rows = Array.from({ length: 40 }, (_, i) => `${t}D${i},1980-01-15,Dee,${i},`);
    const filename = `double-${t}.csv`;
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: filename, mimeType: "text/csv", buffer: Buffer.from([HEADER, ...rows].join("\n")) });
    const posts = uploadPosts(page);
    await page.getByRole("button", { name: "Upload Users" }).dblclick();
    const result = page.getByTestId("upload-result");
    await expect(result.getByRole("heading", { name: "Upload Successful" })).toBeVisible();
    await expect(result).toContainText("Imported 40 users (40 new, 0 updated, 0 unchanged).");
    expect(posts).toHaveLength(1);
    const audits = (await services.database.db.selectFrom("audit_log").selectAll().where("action", "=", "members.import").execute()).filter(
      (e) => JSON.parse(e.details ?? "{}").filename === filename,
    );
    expect(audits).toHaveLength(1);
    await expectInViewBelowHeader(result);
    await expect(page.getByRole("status").filter({ has: result })).toHaveCount(1);
  });

  test("uploads from the keyboard; the second click of a double click that comes after the upload has finished does not upload again", async ({
    page,
    signIn,
  }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    const t = uniq();
    await page.locator('input[type="file"]').setInputFiles({
      name: "late.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`${HEADER}\n${t}A,1980-01-15,,,\n${t}B,1981-02-16,,,\n`),
    });
    const posts = uploadPosts(page);
    const button = page.getByRole("button", { name: "Upload Users" });
    await button.focus();
    await page.keyboard.press("Enter");
    const result = page.getByTestId("upload-result");
    await expect(result).toContainText("Imported 2 users (2 new, 0 updated, 0 unchanged).");
    await secondClickOfDoubleClick(page, button);
    await expect(result).toContainText("Imported 2 users (2 new, 0 updated, 0 unchanged).");
    await expect(button).toHaveText("Upload Users");
    expect(posts).toHaveLength(1);
  });

  test("a file over 10MB is refused in the browser", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/upload");
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, "a") });
    await expect(page.getByRole("alert")).toHaveText("File is too large. The maximum size is 10MB.");
    await expect(page.getByRole("button", { name: "Upload Users" })).toBeDisabled();
  });
});

test.describe("/admin/users (User Upload, multipart variant)", () => {
  test("template with 2 rows, requirements with the 10MB limit, header check messages", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { level: 1, name: "User Upload" })).toBeVisible();
    await expect(page.getByText("Maximum file size: 10MB")).toBeVisible();
    const template = await downloadTemplate(page);
    expect(template.trim().split(/\r\n/)).toEqual(["certificate_number,birthdate", "AHA100001,1980-01-15", "AHA100002,1975-03-22"]);

    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByTestId("upload-status")).toHaveText("Error: Please select a valid CSV file first");

    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: "members.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("certificate_number,birthdate\nA,1980-01-01\n"),
    });
    await expect(page.getByTestId("upload-status")).toHaveText("Error: Please select a CSV file");

    await dropFile(page, page.getByTestId("drop-zone"), "wrong.csv", "cert,dob\nA,1980-01-01\n", "text/csv");
    await expect(page.getByRole("alert").filter({ hasText: "CSV must contain" })).toHaveText(
      'CSV must contain "certificate_number" and "birthdate" columns',
    );
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByTestId("upload-status")).toHaveText("Error: Please select a valid CSV file first");

    await input.setInputFiles({ name: "header-only.csv", mimeType: "text/csv", buffer: Buffer.from("certificate_number,birthdate\n") });
    await expect(page.getByRole("alert").filter({ hasText: "CSV must contain" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("drop a CSV: table preview of 5 rows, 'Valid CSV with N user records', upload, success banner, then everything is cleared", async ({
    page,
    signIn,
    services,
  }) => {
    await signIn("super_admin");
    await page.goto("/admin/users");
    const zone = page.getByTestId("drop-zone");
    await dropFile(page, zone, "notes.txt", "hello", "text/plain");
    await expect(page.getByTestId("file-summary")).toHaveCount(0);
    await expect(page.getByTestId("upload-status")).toHaveCount(0);

    const t = uniq();
    const rows = Array.from({ length: 7 }, (_, i) => `${t}${i},0${i + 1}/15/1980`);
    const csv = ["Certificate_Number , BirthDate", ...rows, `${t}0,1990-01-01`].join("\r\n");
    await dropFile(page, zone, "members.csv", csv, "text/csv");
    await expect(page.getByText("Valid CSV with 8 user records")).toBeVisible();
    const table = page.getByTestId("csv-preview");
    await expect(table.getByRole("columnheader")).toHaveText(["Certificate_Number", "BirthDate"]);
    await expect(table.locator("tbody tr")).toHaveCount(5);
    await expect(table.locator("tbody tr").first()).toHaveText(`${t}001/15/1980`);
    await expect(page.getByText("Showing first 5 rows. Total rows: 8")).toBeVisible();
    await expect(page.getByTestId("file-summary")).toContainText(`members.csv (${(Buffer.byteLength(csv) / 1024).toFixed(2)} KB)`);

    await page.getByRole("button", { name: "Upload CSV" }).click();
    const status = page.getByTestId("upload-status");
    await expect(status.locator("p").first()).toHaveText(
      "Partial Success: Imported 7 users (7 new, 0 updated, 0 unchanged); 1 row had errors and was skipped.",
    );
    await expect(page.getByTestId("row-errors")).toContainText(`Line 9: certificate number "${t}0" repeats line 2`);
    await expect(page.getByTestId("file-summary")).toHaveCount(0);
    await expect(page.getByTestId("csv-preview")).toHaveCount(0);
    await expect(page.getByText(/Valid CSV with/)).toHaveCount(0);
    expect(await memberRow(services, `${t}3`)).toMatchObject({ role: "user" });

    // The imported member signs in with the birthdate typed as MMDDYY.
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByLabel("Certificate Number").fill(`${t}3`);
    await page.getByRole("textbox", { name: "Date of Birth" }).fill("041580");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/knowledge-center/);
  });

  test("the preview marks the rows the import will refuse; a partial import reads as a warning", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/users");
    const t = uniq();
    const rows = [
      `${t}1,1980-01-15`,
      `${t}2,1975-03-22`,
      ...Array.from({ length: 38 }, (_, i) => (i % 2 ? `,1980-01-15` : `${t}B${i},1980-02-30`)),
    ];
    await page.locator('input[type="file"]').setInputFiles({
      name: "mixed.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["certificate_number,birthdate", ...rows].join("\n")),
    });
    const check = page.getByTestId("csv-check");
    await expect(check).toContainText("Valid CSV with 40 user records");
    await expect(check).toContainText("38 rows will be skipped by the import: see the list below.");
    const preview = page.getByTestId("csv-preview");
    await expect(preview.getByRole("columnheader")).toHaveText(["certificate_number", "birthdate", "Will be skipped because"]);
    await expect(preview.locator("tbody tr")).toHaveCount(5);
    await expect(preview.locator("tbody tr[data-refused]")).toHaveCount(3);
    await expect(preview.locator("tbody tr").nth(2)).toContainText('birthdate "1980-02-30" is not a real date');
    await expect(preview.locator("tbody tr").nth(3)).toContainText("certificate_number is missing");
    await expect(preview.locator("tbody tr").first()).not.toContainText("skipped");
    const refused = page.getByTestId("refused-rows");
    await expect(refused.getByRole("listitem")).toHaveCount(20);
    await expect(refused.getByRole("listitem").first()).toHaveText('Line 4: birthdate "1980-02-30" is not a real date');
    await expect(refused).toContainText("... and 18 more errors");
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Upload CSV" }).click();
    const status = page.getByTestId("upload-status");
    await expect(status.locator("p").first()).toHaveText(
      "Partial Success: Imported 2 users (2 new, 0 updated, 0 unchanged); 38 rows had errors and were skipped.",
    );
    await expect(status).toHaveAttribute("data-tone", "partial");
    await expect(status.locator("svg.lucide-circle-check")).toHaveCount(0);
    await expect(status.getByTestId("upload-counts")).toHaveText("2 imported, 38 skipped");
  });

  test("from the bottom of a phone screen: one upload for a double click, and the banner in view below the header, announced", async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 390, height: 700 });
    await signIn("limited_admin");
    await page.goto("/admin/users");
    const t = uniq();
    await page.locator('input[type="file"]').setInputFiles({
      name: "bottom.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["certificate_number,birthdate", ...Array.from({ length: 8 }, (_, i) => `${t}${i},1980-01-15`)].join("\n")),
    });
    await expect(page.getByText("Valid CSV with 8 user records")).toBeVisible();
    const button = page.getByRole("button", { name: "Upload CSV" });
    await button.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const posts = uploadPosts(page);
    await button.dblclick();
    const status = page.getByTestId("upload-status");
    await expect(status).toContainText("Success: Imported 8 users (8 new, 0 updated, 0 unchanged).");
    expect(posts).toHaveLength(1);
    await expectInViewBelowHeader(status);
    await expect(page.getByRole("status").filter({ has: status })).toHaveCount(1);
  });

  test("the second click of a double click that comes after the upload has finished leaves the result as it is", async ({
    page,
    signIn,
  }) => {
    await signIn("limited_admin");
    await page.goto("/admin/users");
    const t = uniq();
    await page.locator('input[type="file"]').setInputFiles({
      name: "late.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`certificate_number,birthdate\n${t}A,1980-01-15\n${t}B,1981-02-16\n`),
    });
    await expect(page.getByText("Valid CSV with 2 user records")).toBeVisible();
    const button = page.getByRole("button", { name: "Upload CSV" });
    await button.focus();
    await page.keyboard.press("Enter");
    const status = page.getByTestId("upload-status");
    await expect(status).toContainText("Success: Imported 2 users (2 new, 0 updated, 0 unchanged).");
    // The file was let go with the success: a click of its own now asks for one.
    await secondClickOfDoubleClick(page, button);
    await expect(status).toContainText("Success: Imported 2 users (2 new, 0 updated, 0 unchanged).");
    await button.click();
    await expect(status).toHaveText("Error: Please select a valid CSV file first");
  });

  test("a quoted field left open: both pages refuse the whole file in the import's words, naming its line, and nothing is imported (issue 39)", async ({
    page,
    signIn,
    services,
  }) => {
    await signIn("limited_admin");
    const t = uniq();
    const csv = `${HEADER}\n${t}A,1980-01-15,Ann,,\n${t}B,1980-01-15,"Bo,,\n${t}C,1980-01-15,Cy,,\n`;
    await page.goto("/admin/users");
    await page.locator('input[type="file"]').setInputFiles({ name: "open.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await expect(page.getByRole("alert").filter({ hasText: "quoted field" })).toHaveText(unclosedQuoteMessage(3));
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByTestId("upload-status")).toHaveText("Error: Please select a valid CSV file first");

    // The JSON page sends the file as it is: the server refuses it the same way.
    await page.goto("/admin/upload");
    await page.locator('input[type="file"]').setInputFiles({ name: "open.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload Users" }).click();
    const result = page.getByTestId("upload-result");
    await expect(result.getByRole("heading", { name: "Upload Failed" })).toBeVisible();
    await expect(result).toContainText(unclosedQuoteMessage(3));
    expect(await memberRow(services, `${t}A`)).toBeUndefined();
  });

  test("a server refusal shows '{error}: {details}'", async ({ page, signIn }) => {
    await signIn("limited_admin");
    await page.goto("/admin/users");
    const t = uniq();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from(`certificate_number,birthdate\n${t},2999-01-01\n`) });
    await expect(page.getByText("Valid CSV with 1 user records")).toBeVisible();
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByTestId("upload-status")).toHaveText(
      'Error: No valid user records to import: Line 2: birthdate "2999-01-01" is in the future',
    );
    await expect(page.getByTestId("file-summary")).toBeVisible();
  });

  test("a large file: 'Processing...' and the progress bar, then success; a network failure says 'Upload failed: ...'", async ({
    page,
    signIn,
  }) => {
    await signIn("limited_admin");
    await page.goto("/admin/users");
    const t = uniq();
    const rows = Array.from({ length: 40_000 }, (_, i) => `${t}P${i},1960-12-0${1 + (i % 9)}`);
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({
      name: "large.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["certificate_number,birthdate", ...rows].join("\n")),
    });
    await expect(page.getByText("Valid CSV with 40000 user records")).toBeVisible();
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    await expect(page.getByRole("progressbar")).toBeVisible();
    await expect(page.getByTestId("upload-status")).toContainText("Success: Imported 40,000 users", { timeout: 25_000 });

    await page.route("**/api/upload-users", (route) => route.abort());
    await input.setInputFiles({
      name: "small.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`certificate_number,birthdate\n${t}X,1960-01-01\n`),
    });
    await page.getByRole("button", { name: "Upload CSV" }).click();
    await expect(page.getByTestId("upload-status")).toHaveText("Error: Upload failed: Network error: the server could not be reached");
  });

  test("members are sent away from both pages", async ({ page, signIn }) => {
    await signIn("member");
    for (const path of ["/admin/upload", "/admin/users"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
    }
  });
});

test.describe("a repeated upload", () => {
  test("the same file again within moments shows the first result and says so, on both upload pages", async ({ page, signIn }) => {
    await signIn("limited_admin");
    const t = uniq();
    const csv = `${HEADER}\n${t}1,1980-01-15,Ann,Lee,\n${t}2,1980-01-16,Bo,Ng,\n`;
    await page.goto("/admin/upload");
    const input = page.locator('input[type="file"]');
    await input.setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const upload = page.getByRole("button", { name: "Upload Users" });
    await upload.click();
    const result = page.getByTestId("upload-result");
    await expect(result).toContainText("Imported 2 users (2 new, 0 updated, 0 unchanged).");
    await expect(result.getByTestId("upload-repeated")).toHaveCount(0);
    await upload.click();
    await expect(result.getByTestId("upload-repeated")).toHaveText(
      "You uploaded this file moments ago: this is the result of that upload. Nothing was imported again.",
    );
    await expect(result).toContainText("Imported 2 users (2 new, 0 updated, 0 unchanged).");

    await page.goto("/admin/users");
    await page.locator('input[type="file"]').setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Upload CSV" }).click();
    const status = page.getByTestId("upload-status");
    await expect(status).toContainText("Success: Imported 2 users (2 new, 0 updated, 0 unchanged).");
    await expect(status.getByTestId("upload-repeated")).toHaveText(
      "You uploaded this file moments ago: this is the result of that upload. Nothing was imported again.",
    );
  });
});
