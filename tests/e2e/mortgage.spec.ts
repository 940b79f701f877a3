import path from "node:path";
import type { Page } from "@playwright/test";
import { readManifest } from "../../scripts/js-budget";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/** Fails the test on any browser console error or uncaught exception (hydration mismatches included). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return errors;
}

/** Counts window.print() calls instead of opening the print dialog. */
async function stubPrint(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => {
      (window as unknown as { printCalls: number }).printCalls++;
    };
  });
}

/** The path of the chunk that draws the charts, from the build's manifest. */
async function chartChunk(): Promise<string> {
  const manifest = readManifest(path.resolve(process.env.BUILD_DIR ?? "build"));
  const chunk = Object.entries(manifest).find(([key]) => key.startsWith("app/features/mortgage/ChartDrawings."));
  expect(chunk, "the charts are a chunk of their own").toBeDefined();
  return `/${chunk![1].file}`;
}

/** A plain $200,000 loan at 6% for 30 years: no PMI, taxes, insurance or dues. */
async function fillPlainLoan(page: Page) {
  const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
  await form.getByLabel("Home Price").fill("250,000");
  await form.getByLabel("Down Payment").fill("50000");
  await form.getByLabel("Interest Rate (APR)").fill("6");
  await form.getByLabel("PMI (% of loan amount per year)").fill("0");
  await form.getByLabel("Property Tax (per year)").fill("0");
  await form.getByLabel("Home Insurance (per year)").fill("0");
  await form.getByLabel("HOA Dues (per month)").fill("0");
  return form;
}

test.describe("mortgage calculator", () => {
  test("the header's 'Calculator' link opens the calculator, with the defaults of the spec", async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto("/");
    await page.getByRole("navigation").getByRole("link", { name: "Calculator", exact: true }).first().click();
    await expect(page).toHaveURL(/\/mortgage-calculator$/);
    await expect(page).toHaveTitle("Mortgage Calculator | American Homeowners Association");
    await expect(page.getByRole("heading", { level: 1, name: "Mortgage Calculator" })).toBeVisible();
    const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
    await expect(form.getByLabel("Loan Term (years)")).toHaveValue("30");
    await expect(form.getByLabel("First payment: month")).toHaveValue("1");
    await expect(form.getByLabel("First payment: year")).toHaveValue("2025");
    await expect(form.getByLabel("Extra payments start: month")).toHaveValue("1");
    await expect(form.getByLabel("Extra payments start: year")).toHaveValue("2027");
    await expect(form.getByLabel("Extra Payment Frequency")).toHaveValue("12");
    await expect(form.getByLabel("Lump sum paid in: month")).toHaveValue("1");
    await expect(form.getByLabel("Lump sum paid in: year")).toHaveValue("2027");
    await expect(form.getByLabel("Loan Amount", { exact: true })).toHaveValue("$360,000.00");
    await expect(form.getByLabel("Loan Amount", { exact: true })).toHaveAttribute("readonly", "");
    await expect(page.getByTestId("closing-costs")).toContainText("Closing costs are typically 2-5% of the home price");
    expect(errors).toEqual([]);
  });

  test("computes a mortgage, then an extra payment shows the interest and months saved", async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto("/mortgage-calculator");
    const form = await fillPlainLoan(page);
    await expect(form.getByLabel("Loan Amount", { exact: true })).toHaveValue("$200,000.00");

    const monthly = page.getByTestId("monthly-payment");
    await expect(page.getByTestId("monthly-total")).toHaveText("$1,199.10");
    await expect(monthly.getByText("Principal & interest")).toBeVisible();
    await expect(monthly.getByText("PMI (0% of loan amount per year)")).toBeVisible();
    await expect(page.getByTestId("total-interest")).toHaveText("$231,676.38");
    await expect(page.getByTestId("payoff-date")).toHaveText("December 2054");
    await expect(page.getByTestId("savings")).toContainText("Add an extra payment or a lump sum");

    // $100 a month from the first payment pays the loan off 65 months sooner (July 2049).
    await form.getByLabel("Extra Payment Amount").fill("100");
    await form.getByLabel("Extra payments start: year").fill("2025");
    await expect(page.getByTestId("months-saved")).toHaveText("65 months");
    await expect(page.getByTestId("payoff-date")).toHaveText("July 2049");
    const saved100 = Number((await page.getByTestId("interest-saved").textContent())!.replace(/[$,]/g, ""));
    expect(saved100).toBeGreaterThan(40_000);
    // The monthly payment itself does not change: extras are paid on top.
    await expect(page.getByTestId("monthly-total")).toHaveText("$1,199.10");

    await form.getByLabel("Extra Payment Amount").fill("200");
    await expect(page.getByTestId("months-saved")).not.toHaveText("65 months");
    const saved200 = Number((await page.getByTestId("interest-saved").textContent())!.replace(/[$,]/g, ""));
    expect(saved200).toBeGreaterThan(saved100);

    // Quarterly instead of monthly saves less.
    await form.getByLabel("Extra Payment Frequency").selectOption("Quarterly");
    await expect
      .poll(async () => Number((await page.getByTestId("interest-saved").textContent())!.replace(/[$,]/g, "")))
      .toBeLessThan(saved200);
    expect(errors).toEqual([]);
  });

  test("PMI is labelled as a yearly percentage of the loan and ends at 78% of the price", async ({ page }) => {
    await page.goto(
      "/mortgage-calculator?homePrice=250000&downPayment=50000&interestRate=6&pmi=0.6&propertyTax=3600&homeInsurance=1200&hoaDues=75",
    );
    const monthly = page.getByTestId("monthly-payment");
    await expect(monthly.getByText("PMI (0.6% of loan amount per year)")).toBeVisible();
    await expect(monthly.getByRole("definition").nth(1)).toHaveText("$100.00");
    await expect(page.getByTestId("monthly-total")).toHaveText("$1,774.10");
    await expect(page.getByTestId("pmi-note")).toContainText(
      "until the balance is scheduled to reach 78% of the home price ($195,000.00) on the original schedule",
    );
  });

  test("PMI ends as the Homeowners Protection Act has it: both dates, extras bring the request date forward, asking ends it then", async ({
    page,
  }) => {
    // $300,000 home, 5% down, 6%, 30 years from January 2025: the original schedule reaches
    // $240,000 (80%) with payment 118 and $234,000 (78%) with payment 129.
    await page.goto("/mortgage-calculator?homePrice=300000&downPayment=15000&interestRate=6&pmi=0.5");
    const dates = page.getByTestId("pmi-dates");
    await expect(dates).toContainText("PMI ends automatically" + "September 2035");
    await expect(dates).toContainText("PMI can be cancelled on request" + "October 2034");
    await expect(page.getByTestId("pmi-note")).toContainText("PMI is paid for 129 months, through September 2035");

    const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
    // $500 a month from January 2025 reaches 80% with payment 51, March 2029. The default
    // start (2027) gives June 2030 for a moment between the two fills: wait for the exact text.
    await form.getByLabel("Extra Payment Amount").fill("500");
    await form.getByLabel("Extra payments start: year").fill("2025");
    const requestDate = "March 2029";
    await expect(dates).toContainText(
      "PMI can be cancelled on request" + requestDate + "Your extra payments bring this 67 months forward (from October 2034).",
    );
    await expect(dates).toContainText("PMI ends automatically" + "September 2035");

    await form.getByLabel("I will ask my lender to cancel PMI at 80%").check();
    await expect(page.getByTestId("pmi-note")).toContainText(`through ${requestDate}, when you ask your lender to cancel it`);
    await expect(page).toHaveURL(/pmiRequest=1/);
    await page.reload();
    await expect(form.getByLabel("I will ask my lender to cancel PMI at 80%")).toBeChecked();
    await expect(page.getByTestId("pmi-note")).toContainText(`through ${requestDate}`);

    // 3% down at 12%: the middle of the term (payment 180, December 2039) comes before 78%.
    await page.goto("/mortgage-calculator?homePrice=300000&downPayment=9000&interestRate=12&pmi=0.5");
    await expect(dates).toContainText("PMI ends automatically" + "December 2039" + "The middle of the loan's term, which comes before 78%");
    await expect(dates).toContainText(
      "PMI can be cancelled on request" + "Not needed" + "It ends automatically before the balance reaches 80%",
    );
    await expect(page.getByTestId("pmi-note")).toContainText(
      "PMI is paid for 180 months, through December 2039, the middle of the loan's term",
    );
  });

  test("biweekly payments beside monthly, with their savings, kept in the address", async ({ page }) => {
    await page.goto("/mortgage-calculator");
    const form = await fillPlainLoan(page);
    await expect(page.getByTestId("biweekly")).toHaveCount(0);
    await form.getByLabel("Compare biweekly payments").check();
    const card = page.getByTestId("biweekly");
    await expect(card).toContainText("Every two weeks" + "$599.55");
    await expect(card).toContainText("Monthly: December 2054");
    const saved = Number((await card.getByTestId("biweekly-interest-saved").innerText()).replace(/[$,]/g, ""));
    expect(saved).toBeGreaterThan(40_000);
    expect(saved).toBeLessThan(80_000);
    await expect(card.getByTestId("biweekly-months-saved")).toHaveText(/^\d{2} months$/);
    await expect(page).toHaveURL(/biweekly=1/);
    await form.getByLabel("PMI (% of loan amount per year)").fill("0.5");
    await form.getByLabel("Down Payment").fill("15000");
    await expect(page.getByTestId("pmi-dates")).toBeVisible();
    await expectNoAxeViolations(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (process.env.SCREENSHOTS) {
        await page.getByTestId("monthly-payment").screenshot({ path: `.tmp/shots/pmi-${width}.png` });
        await card.screenshot({ path: `.tmp/shots/biweekly-${width}.png` });
      }
    }
  });

  test("up to three scenarios side by side, each kept in the address, on desktop and phone", async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto("/mortgage-calculator");
    await fillPlainLoan(page);
    const scenarios = page.getByTestId("scenarios");
    await scenarios.getByRole("button", { name: "Add a scenario" }).click();
    // The new scenario's first field takes focus.
    await expect(scenarios.getByLabel("Scenario 2: Home price")).toBeFocused();
    await scenarios.getByLabel("Scenario 2: Interest rate (%)").fill("5");
    await scenarios.getByLabel("Scenario 2: Loan term (years)").fill("15");
    await scenarios.getByRole("button", { name: "Add a scenario" }).click();
    await expect(scenarios.getByLabel("Scenario 3: Home price")).toBeFocused();
    await expect(scenarios.getByRole("button", { name: "Add a scenario" })).toHaveCount(0);
    await scenarios.getByLabel("Scenario 3: Extra payment").fill("200");
    const row = (label: string) => scenarios.getByRole("row", { name: new RegExp(`^${label}`) });
    // Scenario 1: $200,000 at 6% for 30 years; 2: at 5% for 15 years; 3: scenario 1 with $200 a month extra.
    await expect(row("Principal & interest")).toContainText("$1,199.10" + "$1,581.59" + "$1,199.10");
    await expect(row("Payoff date")).toContainText("December 2054" + "December 2039");
    await expect(page).toHaveURL(/s2=250000%2C50000%2C5%2C15%2C0&s3=250000%2C50000%2C6%2C30%2C200/);

    // A wrong value explains itself and leaves the address alone; the comparison survives a reload.
    await scenarios.getByLabel("Scenario 3: Loan term (years)").fill("99");
    await expect(scenarios.getByText("Enter a number from 1 to 50.")).toBeVisible();
    await scenarios.getByLabel("Scenario 3: Loan term (years)").fill("30");
    await expect(page).toHaveURL(/s3=/);
    await page.reload();
    await expect(row("Principal & interest")).toContainText("$1,199.10" + "$1,581.59" + "$1,199.10");

    // The print view carries the comparison, with the same figures, and prints it.
    await stubPrint(page);
    await page.getByRole("link", { name: "Print / Save as PDF" }).click();
    await expect(page).toHaveURL(/\/mortgage-calculator\/print\?.*s2=250000%2C50000%2C5%2C15%2C0&s3=250000%2C50000%2C6%2C30%2C200/);
    const printed = page.getByTestId("printed-scenarios");
    await page.emulateMedia({ media: "print" });
    await expect(printed.getByRole("columnheader")).toHaveText(["Scenario 1", "Scenario 2", "Scenario 3"]);
    const printedRow = (label: string) => printed.getByRole("row", { name: new RegExp(`^${label}`) });
    await expect(printedRow("Interest rate")).toContainText("6%" + "5%" + "6%");
    await expect(printedRow("Principal & interest")).toContainText("$1,199.10" + "$1,581.59" + "$1,199.10");
    await expect(printedRow("Payoff date")).toContainText("December 2054" + "December 2039");
    await page.emulateMedia({ media: "screen" });
    await page.goBack();
    await expect(row("Principal & interest")).toContainText("$1,199.10" + "$1,581.59" + "$1,199.10");
    await expectNoAxeViolations(page);
    await scenarios.scrollIntoViewIfNeeded();
    if (process.env.SCREENSHOTS) await scenarios.screenshot({ path: ".tmp/shots/scenarios-1280.png" });

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (process.env.SCREENSHOTS) await scenarios.screenshot({ path: ".tmp/shots/scenarios-390.png" });

    await scenarios.getByRole("button", { name: "Remove scenario 2" }).click();
    await expect(scenarios.getByLabel("Scenario 2: Extra payment")).toHaveValue("200");
    await expect(page).toHaveURL(/s2=250000%2C50000%2C6%2C30%2C200(?!.*s3=)/);
    // Focus moves to the remove button of the scenario that took its place, then to Add.
    await expect(scenarios.getByRole("button", { name: "Remove scenario 2" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(scenarios.getByRole("button", { name: "Add a scenario" })).toBeFocused();

    // With biweekly payments compared on the form, every scenario shows its own.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("form", { name: "Mortgage calculator inputs" }).getByLabel("Compare biweekly payments").check();
    await scenarios.getByRole("button", { name: "Add a scenario" }).click();
    await scenarios.getByLabel("Scenario 2: Interest rate (%)").fill("5");
    await expect(row("Every two weeks")).toContainText("$599.55" + "$536.82");
    await expect(row("Biweekly interest saved")).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("inputs live in the URL: they survive a reload, and the server renders the result without JavaScript", async ({ page, browser }) => {
    await page.goto("/mortgage-calculator");
    const form = await fillPlainLoan(page);
    await form.getByLabel("Extra Payment Amount").fill("150");
    await form.getByLabel("Extra Payment Frequency").selectOption("Yearly");
    await expect(page).toHaveURL(/extraPaymentAmount=150/);
    await expect(page).toHaveURL(/extraPaymentFrequency=1(&|$)/);
    const saved = await page.getByTestId("interest-saved").textContent();

    await page.reload();
    await expect(form.getByLabel("Home Price")).toHaveValue("250000");
    await expect(form.getByLabel("Interest Rate (APR)")).toHaveValue("6");
    await expect(form.getByLabel("Extra Payment Amount")).toHaveValue("150");
    await expect(form.getByLabel("Extra Payment Frequency")).toHaveValue("1");
    await expect(page.getByTestId("interest-saved")).toHaveText(saved!);

    const url = page.url();
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(url);
    await expect(plain.getByTestId("monthly-total")).toHaveText("$1,199.10");
    await expect(plain.getByTestId("interest-saved")).toHaveText(saved!);
    // Without JavaScript the form still works: it submits by GET to the same page.
    await plain.getByLabel("Home Price").fill("300000");
    await plain.getByRole("button", { name: "Calculate" }).click();
    await expect(plain).toHaveURL(/homePrice=300000/);
    await expect(plain.getByLabel("Loan Amount", { exact: true })).toHaveValue("$250,000.00");
    await noJs.close();
  });

  test("bad URL parameters fall back or are clamped; bad typing explains itself", async ({ page }) => {
    const errors = watchErrors(page);
    const response = await page.goto(
      "/mortgage-calculator?homePrice=abc&interestRate=99&startMonth=13&extraPaymentFrequency=7&loanTerm=-3&showAmortization=%00",
    );
    expect(response!.status()).toBe(200);
    const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
    await expect(form.getByLabel("Home Price")).toHaveValue("400000");
    await expect(form.getByLabel("Interest Rate (APR)")).toHaveValue("30");
    await expect(form.getByLabel("First payment: month")).toHaveValue("12");
    await expect(form.getByLabel("Extra Payment Frequency")).toHaveValue("12");
    await expect(form.getByLabel("Loan Term (years)")).toHaveValue("1");
    await expect(page.getByTestId("monthly-total")).toBeVisible();

    await form.getByLabel("Interest Rate (APR)").fill("abc");
    await expect(form.getByLabel("Interest Rate (APR)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Enter a number from 0 to 30.")).toBeVisible();
    await expect(page.getByTestId("no-result")).toHaveText("Please correct the highlighted fields to see your payment.");

    // Computation runs only when the loan amount, the rate and the term are each above 0.
    await form.getByLabel("Interest Rate (APR)").fill("0");
    await expect(page.getByTestId("no-result")).toContainText("an interest rate above 0");
    await form.getByLabel("Interest Rate (APR)").fill("5");
    await expect(page.getByTestId("monthly-total")).toBeVisible();
    await form.getByLabel("Down Payment").fill("500000");
    await expect(form.getByLabel("Loan Amount", { exact: true })).toHaveValue("");
    await expect(page.getByTestId("no-result")).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("the table shows the first 120 rows with the spec's note; the print view has every row and prints", async ({ page }) => {
    await stubPrint(page);
    await page.goto("/mortgage-calculator?homePrice=250000&downPayment=50000&interestRate=6");
    const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
    await expect(page.getByTestId("amortization-table")).toHaveCount(0);
    await form.getByLabel("Show amortization schedule").check();
    await expect(page.getByTestId("amortization-note")).toHaveText("Showing first 10 years of payments. Total payments: 360");
    await expect(page.getByTestId("amortization-table").locator("tbody tr")).toHaveCount(120);
    await expect(page).toHaveURL(/showAmortization=1/);

    await page.getByRole("link", { name: "Print / Save as PDF" }).click();
    await expect(page).toHaveURL(/\/mortgage-calculator\/print\?.*homePrice=250000/);
    await expect(page.getByRole("heading", { level: 1, name: "Mortgage Report" })).toBeVisible();
    const rows = page.getByTestId("amortization-table").locator("tbody tr");
    await expect(rows).toHaveCount(360);
    await expect(rows.last().locator("td").first()).toHaveText("360");
    await expect(rows.last().locator("td").last()).toHaveText("$0.00");
    await expect.poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);

    // With extras, the print view holds exactly the shortened schedule.
    await page.goto(
      "/mortgage-calculator/print?homePrice=250000&downPayment=50000&interestRate=6&extraPaymentAmount=100&extraPaymentStartYear=2025",
    );
    await expect(rows).toHaveCount(295);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("banner")).toBeHidden();
    await expect(page.getByRole("link", { name: "Back to calculator" })).toBeHidden();
    await expect(rows.nth(294)).toBeVisible();
    await page.emulateMedia({ media: "screen" });
    await page.getByRole("link", { name: "Back to calculator" }).click();
    await expect(page).toHaveURL(/\/mortgage-calculator\?.*extraPaymentAmount=100/);
    await expect(page.getByRole("form", { name: "Mortgage calculator inputs" }).getByLabel("Extra Payment Amount")).toHaveValue("100");

    // When PMI ends and what biweekly payments change are in the report too.
    const section = (name: string) => page.locator("section", { has: page.getByRole("heading", { name, exact: true }) });
    await page.goto("/mortgage-calculator/print?homePrice=250000&downPayment=50000&interestRate=6&pmi=0.5&biweekly=1");
    await expect(section("PMI")).toContainText("(78% of the home price)");
    await expect(section("PMI")).toContainText("(80% of the home price)");
    await expect(section("Biweekly payments")).toContainText(/Every two weeks\s*\$599\.55/);
    await page.goto("/mortgage-calculator/print?homePrice=300000&downPayment=9000&interestRate=12&pmi=0.5");
    await expect(section("PMI")).toContainText("(middle of the term)");
    await expect(section("PMI")).toContainText("Not needed: it ends automatically first");
    await expect(section("PMI")).toContainText(/PMI payments\s*180/);
    await expect(section("Biweekly payments")).toHaveCount(0);
  });

  test("works from the keyboard", async ({ page }) => {
    await page.goto("/mortgage-calculator?homePrice=250000&downPayment=50000&interestRate=6");
    const form = page.getByRole("form", { name: "Mortgage calculator inputs" });
    await form.getByLabel("Home Price").focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("300000");
    await page.keyboard.press("Tab");
    await expect(form.getByLabel("Down Payment")).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("60000");
    await page.keyboard.press("Tab");
    await expect(form.getByLabel("Loan Amount", { exact: true })).toBeFocused();
    await expect(form.getByLabel("Loan Amount", { exact: true })).toHaveValue("$240,000.00");
    await page.keyboard.press("Tab");
    await expect(form.getByLabel("Loan Term (years)")).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("15");
    // Enter submits: the results heading takes focus.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Your results" })).toBeFocused();

    const checkbox = form.getByLabel("Show amortization schedule");
    await checkbox.focus();
    await page.keyboard.press("Space");
    await expect(checkbox).toBeChecked();
    await expect(page.getByTestId("amortization-note")).toHaveText("Showing first 10 years of payments. Total payments: 180");
    await page.keyboard.press("Tab");
    await expect(form.getByLabel("Compare biweekly payments")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Calculate" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Reset" })).toBeFocused();

    // The scrollable table can be reached and scrolled with the keyboard.
    const region = page.getByRole("region", { name: "Amortization schedule table" });
    await region.focus();
    await page.keyboard.press("PageDown");
    await expect.poll(() => region.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  });

  test("axe finds no violation on the calculator with results, table and charts shown", async ({ page }) => {
    test.slow(); // axe checks every cell of the 120-row table
    await page.goto("/mortgage-calculator?showAmortization=1&extraPaymentAmount=200&lumpSumAmount=5000");
    await page.getByTestId("charts").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("charts").locator(".recharts-wrapper")).toHaveCount(2);
    await expectNoAxeViolations(page);
  });

  test("axe finds no violation with a field in error, nor in the print view", async ({ page }) => {
    test.slow();
    await stubPrint(page);
    await page.goto("/mortgage-calculator");
    await page.getByRole("form", { name: "Mortgage calculator inputs" }).getByLabel("Interest Rate (APR)").fill("x");
    await expect(page.getByTestId("no-result")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/mortgage-calculator/print?loanTerm=10");
    await expect(page.getByTestId("amortization-table").locator("tbody tr")).toHaveCount(120);
    await expectNoAxeViolations(page);
  });

  test("fits a 375 px wide phone without sideways scrolling", async ({ page }) => {
    test.slow();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/mortgage-calculator?showAmortization=1&extraPaymentAmount=200");
    await page.getByTestId("charts").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("charts").locator(".recharts-wrapper")).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoAxeViolations(page);

    await stubPrint(page);
    await page.goto("/mortgage-calculator/print?extraPaymentAmount=200");
    await expect(page.getByRole("heading", { level: 1, name: "Mortgage Report" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  test("on a phone the amortization table fits the width: every figure of a row in view, no sideways scrolling", async ({ page }) => {
    test.slow();
    const url = "/mortgage-calculator?showAmortization=1&extraPaymentAmount=200";
    const region = page.getByRole("region", { name: "Amortization schedule table" });
    await page.goto(url);
    // The figures of the first payment as the wide table shows them, one column each.
    const wide = await region.locator("tbody tr").first().locator("td").allInnerTexts();
    expect(wide).toHaveLength(7);

    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(url);
      await expect(region.locator("tbody tr")).toHaveCount(120);
      expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth), `${width}px`).toBeLessThanOrEqual(0);
      const first = region.locator("tbody tr").first();
      await first.scrollIntoViewIfNeeded();
      const shown = (await first.innerText()).replace(/\s+/g, " ");
      for (const figure of wide) expect(shown, `${width}px`).toContain(figure.trim());
      for (const td of await first.locator("td:visible").all()) await expect(td, `${width}px`).toBeInViewport({ ratio: 1 });
      for (const name of [/^Date/, /^Principal/, /^Total payment/])
        await expect(region.getByRole("columnheader", { name }), `${width}px`).toBeInViewport({ ratio: 1 });
      for (const name of ["Interest", "Balance"])
        await expect(region.locator("thead").getByText(name, { exact: true }).locator("visible=true"), `${width}px`).toBeInViewport({
          ratio: 1,
        });
      if (process.env.SCREENSHOTS) await region.screenshot({ path: `.tmp/shots/amortization-${width}.png` });
    }
    await expectNoAxeViolations(page);
  });

  test("the charts' code is fetched when they come into view, into boxes that keep their size", async ({ page }) => {
    const errors = watchErrors(page);
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    const chartCode = await chartChunk();
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto("/mortgage-calculator?extraPaymentAmount=100&extraPaymentStartYear=2025");
    const charts = page.getByTestId("charts");
    const boxes = charts.locator("figure > div");
    const heights = () => boxes.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    const before = await heights();
    expect(before).toEqual([256, 256]);
    // The page runs (a typed value updates the result) and the charts, far below, are not fetched.
    await page.getByLabel("Home Price").fill("250000");
    await expect(page.getByTestId("monthly-total")).not.toHaveText("$2,950.44");
    expect(await charts.evaluate((el) => el.getBoundingClientRect().top - window.innerHeight)).toBeGreaterThan(400);
    expect(fetched).not.toContain(chartCode);
    await expect(charts.locator(".recharts-wrapper")).toHaveCount(0);

    await charts.scrollIntoViewIfNeeded();
    await expect(charts.locator(".recharts-wrapper")).toHaveCount(2);
    expect(fetched).toContain(chartCode);
    expect(await heights()).toEqual(before);
    await expect(charts.getByText("With extra payments")).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("when the charts' code cannot be fetched, the page goes on without the drawings", async ({ page }) => {
    const chartCode = await chartChunk();
    await page.route(`**${chartCode}`, (route) => route.abort());
    const failed = page.waitForEvent("requestfailed", (r) => r.url().endsWith(chartCode));
    await page.goto("/mortgage-calculator");
    await page.getByTestId("charts").scrollIntoViewIfNeeded();
    await failed;
    await expect(page.getByTestId("charts")).toContainText("The balance falls from $360,000 to $0 by 2054.");
    await page.getByLabel("Home Price").fill("250000");
    await expect(page.getByTestId("charts")).toContainText("The balance falls from $210,000 to $0 by 2054.");
    await expect(page.getByRole("heading", { level: 1, name: "Mortgage Calculator" })).toBeVisible();
  });

  test("the sitemap lists the calculator", async ({ request }) => {
    const xml = await (await request.get("/sitemap.xml")).text();
    expect(xml).toContain("/mortgage-calculator</loc>");
    expect(xml).not.toContain("/mortgage-calculator/print");
  });
});
