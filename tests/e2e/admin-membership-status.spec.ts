import crypto from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { MEMBER_BIRTHDATE, expect, expectNoAxeViolations, test } from "./fixtures";
import type { Services } from "../../app/server/services.server";
import { addDays, formatLongDay } from "../../app/features/membership/coverage";

/** Members of one tag in known statuses: plans carried over from old records put them where the test wants them. */
async function seedStatuses(services: Services, tag: string) {
  const today = services.coverage.today();
  const now = new Date().toISOString();
  const plans: Array<[string, { approved_on: string | null; carried_paid_through: string | null } | null]> = [
    ["1", { approved_on: null, carried_paid_through: addDays(today, 45) }],
    ["2", { approved_on: null, carried_paid_through: addDays(today, 300) }],
    ["3", { approved_on: null, carried_paid_through: addDays(today, -10) }],
    ["4", { approved_on: null, carried_paid_through: addDays(today, -40) }],
    ["5", { approved_on: today, carried_paid_through: null }],
    ["6", null],
  ];
  for (const [n, plan] of plans) {
    const { id } = await services.auth.users.createMember({
      certificate: `${tag}-${n}`,
      birthdateDigest: services.auth.digestBirthdate(MEMBER_BIRTHDATE),
      firstName: n === "1" ? "=SUM(A1)" : "Sam",
      lastName: `Status${n}`,
    });
    if (plan)
      await services.database.db
        .insertInto("membership_plans")
        .values({ user_id: id, billing: "monthly", ...plan, created_at: now, updated_at: now })
        .execute();
  }
}

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

const coverageButton = (page: Page, name: string) =>
  page.getByTestId("coverage-filter").getByRole("button", { name: new RegExp(`^${name} `) });

for (const viewport of VIEWPORTS) {
  test.describe(`membership status (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("staff filter members by coverage status with counts, keep it in the address, and export the filtered list", async ({
      page,
      signIn,
      services,
    }) => {
      test.setTimeout(120_000);
      const tag = `ST${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
      await seedStatuses(services, tag);
      await signIn("limited_admin");
      await page.goto(`/admin/members?q=${tag}`);

      const filter = page.getByTestId("coverage-filter");
      await expect(filter.getByRole("button", { name: "All 6" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "Covered 2" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "Past due 1" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "Lapsed 1" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "Awaiting first payment 1" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "No plan on record 1" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "Cancelled 0" })).toBeVisible();
      await expect(filter.getByRole("button", { name: "All 6" })).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("members-row")).toHaveCount(6);
      await expect(page.getByTestId("members-row").filter({ hasText: `${tag}-3` })).toContainText("Past due");

      await coverageButton(page, "Covered").click();
      await expect(page).toHaveURL(/coverage=covered/);
      await expect(coverageButton(page, "Covered")).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("members-row")).toHaveCount(2);
      for (const row of await page.getByTestId("members-row").all()) await expect(row).toContainText("Covered");
      // The counts stay those of the whole search.
      await expect(filter.getByRole("button", { name: "Lapsed 1" })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `.tmp/membership-status-filter-${viewport.name}.png`, fullPage: true });

      // Reloaded, the address keeps the filter.
      await page.reload();
      await expect(coverageButton(page, "Covered")).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("members-row")).toHaveCount(2);

      // The export is the filtered list, as a download, a formula kept as text.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = fs
        .readFileSync((await download.path())!, "utf8")
        .trim()
        .split("\r\n");
      expect(csv[0]).toBe(
        "certificate_number,first_name,last_name,email,status,coverage_status,paid_through,last_login_at,created_at,phone,address1,address2,city,state,zip,plan,coverage_amount",
      );
      expect(csv.slice(1).map((line) => line.split(",").slice(0, 6))).toEqual([
        [`${tag}-1`, `"'=SUM(A1)"`, "Status1", "", "active", "Covered"],
        [`${tag}-2`, "Sam", "Status2", "", "active", "Covered"],
      ]);

      // Keyboard: the next status is a Tab away and Enter picks it.
      await coverageButton(page, "Past due").focus();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/coverage=past-due/);
      await expect(page.getByTestId("members-row")).toHaveCount(1);
      await coverageButton(page, "All").click();
      await expect(page).not.toHaveURL(/coverage=/);
      await expect(page.getByTestId("members-row")).toHaveCount(6);
    });

    test("the dashboard shows the counts by status and the months as a chart and as a table", async ({ page, signIn, services }) => {
      test.setTimeout(120_000);
      await seedStatuses(services, `SD${crypto.randomBytes(3).toString("hex").toUpperCase()}`);
      const chunks: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/assets/")) chunks.push(r.url());
      });
      await signIn("limited_admin");
      await page.goto("/admin/dashboard");
      const figures = await services.membershipDashboard.figures();
      const overview = page.getByTestId("membership-overview");
      await expect(overview.getByRole("heading", { name: "Membership" })).toBeVisible();
      const statuses = overview.getByRole("list", { name: "Members by coverage status" });
      await expect(statuses.getByRole("link", { name: `${figures.counts.lapsed.toLocaleString("en-US")} Lapsed` })).toBeVisible();
      await expect(statuses.getByRole("link", { name: `${figures.counts.covered.toLocaleString("en-US")} Covered` })).toBeVisible();
      // The day the statuses are computed for reads as every other date on the site.
      await expect(overview).toContainText(`Statuses as of ${formatLongDay(figures.today)}, the association's calendar day.`);

      // The drawing arrives after the page (its own chunk), into its box.
      await expect(page.getByTestId("membership-chart").locator("svg.recharts-surface:not([aria-label])")).toBeVisible();
      expect(chunks.some((u) => /MembershipTrendDrawing/.test(u))).toBe(true);
      const html = await (await page.request.get("/admin/dashboard")).text();
      expect(html).not.toMatch(/MembershipTrendDrawing/);

      const table = page.getByRole("table", { name: "Members covered, new and lapsed per month" });
      await expect(table.getByRole("row")).toHaveCount(13);
      const last = figures.months[figures.months.length - 1];
      await expect(table.getByRole("row", { name: new RegExp(`^${last.long} `) })).toContainText(last.covered.toLocaleString("en-US"));
      const toggle = page.getByRole("button", { name: "Show the figures as a table" });
      await toggle.click();
      await expect(page.getByRole("button", { name: "Hide the figures" })).toHaveAttribute("aria-expanded", "true");
      await expect(table).toBeVisible();
      await expectNoAxeViolations(page);
      await overview.screenshot({ path: `.tmp/membership-dashboard-${viewport.name}.png` });

      // A count leads to that filter of the list.
      await statuses.getByRole("link", { name: /Lapsed$/ }).click();
      await expect(page).toHaveURL(/\/admin\/members\?coverage=lapsed$/);
      await expect(page.getByTestId("coverage-filter").getByRole("button", { name: /^Lapsed / })).toHaveAttribute("aria-pressed", "true");
    });
  });
}
