import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  FORM_PAGES,
  FORM_PAGE_TAGS_GZIP_BUDGET,
  HOME_TAGS_GZIP_BUDGET,
  JS_BUDGETS,
  fromTags,
  measurePages,
  publicRoutes,
} from "../../scripts/js-budget";

/**
 * The JavaScript budget of every public page (issue: front-end weight): bytes from the
 * production build's manifest, brotli-compressed as the server sends them, never timings, so
 * it holds on any machine. It reads the build the browser tests run against (scripts/test.ts
 * builds first) and opens no browser page; the home page's own tags are read from the server
 * the browser tests start.
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

  test(`the home page's first load, counted from its own tags, stays under ${kb(HOME_TAGS_GZIP_BUDGET)} gzip`, async ({
    request,
    baseURL,
  }) => {
    const home = await fromTags(baseURL!, "/", async (url) => (await request.get(url)).body());
    const biggest = [...home.detail]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5)
      .map((f) => `${f.file} ${kb(f.gzip)}`)
      .join(", ");
    expect(home.gzip, `/ names ${home.files} JavaScript files, ${kb(home.gzip)} gzip. Biggest: ${biggest}`).toBeLessThan(
      HOME_TAGS_GZIP_BUDGET,
    );
    // What the page names is what the build's manifest says it loads: the budgets above count the same files.
    const manifest = pages.find((p) => p.path === "/")!;
    expect(home.detail.map((f) => f.file).sort()).toEqual(manifest.detail.map((f) => f.file).sort());
  });

  for (const formPage of FORM_PAGES) {
    test(`${formPage}'s first load, counted from its own tags, stays within ${kb(FORM_PAGE_TAGS_GZIP_BUDGET)} gzip: its form comes after it`, async ({
      request,
      baseURL,
    }) => {
      const named = await fromTags(baseURL!, formPage, async (url) => (await request.get(url)).body());
      const biggest = [...named.detail]
        .sort((a, b) => b.gzip - a.gzip)
        .slice(0, 5)
        .map((f) => `${f.file} ${kb(f.gzip)}`)
        .join(", ");
      expect(
        named.gzip,
        `${formPage} names ${named.files} JavaScript files, ${kb(named.gzip)} gzip. Biggest: ${biggest}`,
      ).toBeLessThanOrEqual(FORM_PAGE_TAGS_GZIP_BUDGET);
      // The form's chunk is fetched after the page, not named by it.
      const manifest = pages.find((p) => p.path === new URL(formPage, baseURL).pathname)!;
      expect(manifest.onDemand.some((f) => /\/(Contact|Request|Payment|Login)Form-[\w-]+\.js$/.test(f))).toBe(true);
      expect(named.detail.map((f) => f.file).sort()).toEqual(manifest.detail.map((f) => f.file).sort());
    });
  }

  test("the calculator's charts are not part of its first load", () => {
    const calculator = pages.find((p) => p.path === "/mortgage-calculator")!;
    expect(calculator.onDemand.some((f) => /\/ChartDrawings-[\w-]+\.js$/.test(f))).toBe(true);
    expect(calculator.detail.map((f) => f.file).filter((f) => /ChartDrawings/.test(f))).toEqual([]);
  });
});
