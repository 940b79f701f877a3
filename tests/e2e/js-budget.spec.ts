import path from "node:path";
import { expect, test } from "@playwright/test";
import { JS_BUDGETS, measurePages, publicRoutes } from "../../scripts/js-budget";

/**
 * The JavaScript budget of every public page (issue: front-end weight): bytes from the
 * production build's manifest, brotli-compressed as the server sends them, never timings, so
 * it holds on any machine. It reads the build the browser tests run against (scripts/test.ts
 * builds first) and opens no browser page.
 */
const pages = measurePages(path.resolve(process.env.BUILD_DIR ?? "build"));

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

test.describe("first-load JavaScript budget", () => {
  test("every public page has a budget", () => {
    expect(Object.keys(JS_BUDGETS).sort()).toEqual(
      publicRoutes()
        .map((r) => r.path)
        .sort(),
    );
  });

  for (const page of pages) {
    test(`${page.path} stays within ${kb(JS_BUDGETS[page.path] ?? 0)} (brotli)`, () => {
      const budget = JS_BUDGETS[page.path];
      expect(budget, `no budget for ${page.path} in scripts/js-budget.ts`).toBeDefined();
      const biggest = page.detail
        .slice(0, 5)
        .map((f) => `${f.file} ${kb(f.br)}`)
        .join(", ");
      expect(
        page.br,
        `${page.path} loads ${kb(page.br)} of JavaScript in ${page.files} files (${kb(page.raw)} raw), over its budget of ${kb(budget)}. Biggest: ${biggest}. Was something that is needed only sometimes imported statically (npm run js-budget -- --files)?`,
      ).toBeLessThanOrEqual(budget);
    });
  }

  test("the calculator's charts are not part of its first load", () => {
    const calculator = pages.find((p) => p.path === "/mortgage-calculator")!;
    expect(calculator.onDemand.some((f) => /\/ChartDrawings-[\w-]+\.js$/.test(f))).toBe(true);
    expect(calculator.detail.map((f) => f.file).filter((f) => /ChartDrawings/.test(f))).toEqual([]);
  });
});
