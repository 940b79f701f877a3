import http from "node:http";
import { expect, test } from "./fixtures";
import { E2E_BASE } from "./env";

/**
 * Public pages are kept rendered by the server and may be kept by a CDN; their scripts are
 * allowed by hash. Signed-in pages are never shared: `private, no-store` and a nonce.
 */
const PUBLIC_PAGES = [
  "/",
  "/about-us",
  "/membership-benefits",
  "/members-only",
  "/privacy-policy",
  "/contact-us",
  "/form-requests",
  "/make-payment",
  "/mortgage-calculator",
  "/login",
];

const scriptSrc = (policy: string | undefined) =>
  (policy ?? "")
    .split(";")
    .find((d) => d.trim().startsWith("script-src"))
    ?.trim() ?? "";

test.describe("kept public pages", () => {
  test("every public page answers with shared-cache headers and a CSP of script hashes, no nonce", async ({ request }) => {
    for (const path of PUBLIC_PAGES) {
      const first = await request.get(path, { headers: { "accept-encoding": "br" } });
      expect(first.status(), path).toBe(200);
      const headers = first.headers();
      expect(headers["cache-control"], path).toBe("public, max-age=0, s-maxage=300, stale-while-revalidate=86400");
      expect(headers["vary"], path).toContain("Cookie");
      expect(headers["content-encoding"], path).toBe("br");
      const policy = scriptSrc(headers["content-security-policy"]);
      expect(policy, path).toMatch(/^script-src( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
      const html = await first.text();
      expect(html, path).not.toMatch(/\snonce="/);

      // The same page again: the same bytes, and a 304 to a client that has them.
      const again = await request.get(path);
      expect(again.headers()["etag"], path).toBe(headers["etag"]);
      expect(await again.text(), path).toBe(html);
      const notModified = await request.get(path, { headers: { "if-none-match": headers["etag"] } });
      expect(notModified.status(), path).toBe(304);
    }
  });

  test("a kept page runs its scripts under the hashed policy: it hydrates with no CSP refusal", async ({ page }) => {
    const refusals: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
    });
    await page.goto("/");
    await page.goto("/mortgage-calculator");
    // Typing changes the results only once the page's script runs.
    await page.getByRole("form", { name: "Mortgage calculator inputs" }).getByLabel("Home Price").fill("500000");
    await expect(page).toHaveURL(/homePrice=500000/);
    await page.goto("/about-us");
    expect(refusals).toEqual([]);
  });

  test("the kept 404 page hydrates under its hashed policy, with no CSP refusal or hydration error, and its links work", async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to|hydrat|did not match|Minified React error/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (err) => problems.push(err.message));
    for (const path of ["/no-such-page", "/contact-us/no-such", "/no-such-page"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    }
    // Its scripts run: the menu's client-side navigation takes the visitor home.
    await page.getByRole("link", { name: "Back to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(problems).toEqual([]);
  });

  test("signed-in visitors get their own page: private, no-store, a nonce, their name", async ({ page, signIn }) => {
    const member = await signIn("member", { firstName: "Nonced" });
    const response = await page.request.get(`${E2E_BASE}/`);
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
    expect(scriptSrc(response.headers()["content-security-policy"])).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'$/);
    const html = await response.text();
    expect(html).toMatch(/\snonce="/);
    expect(html).toContain("Nonced");
    expect(member.token).toBeTruthy();

    // The next anonymous visitor still gets the shared page, without the member's name.
    const anonymous = await page.context().browser()!.newContext();
    const shared = await anonymous.request.get(`${E2E_BASE}/`);
    expect(shared.headers()["cache-control"]).toContain("s-maxage");
    expect(await shared.text()).not.toContain("Nonced");
    await anonymous.close();
  });

  test("pages that are not public keep a nonce and are never shared; the kept 404 page is allowed by hash, not shared either", async ({
    request,
  }) => {
    for (const path of ["/no-such-page", "/knowledge-center", "/application"]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.headers()["cache-control"] ?? "", path).not.toContain("s-maxage");
      if (response.status() === 404)
        expect(scriptSrc(response.headers()["content-security-policy"]), path).toMatch(/^script-src( 'sha256-[^']+')+ 'strict-dynamic'$/);
    }
  });

  test("a miss costs a render: /healthz answers within a second while 20 new addresses of the print page render", async ({ request }) => {
    // Each GET on a connection of its own, as twenty visitors would come.
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; bytes: number }>((resolve, reject) => {
        const req = http.get(`${E2E_BASE}${path}`, { agent: false, headers }, (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => (bytes += chunk.length));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
          res.on("error", reject);
        });
        req.on("error", reject);
      });
    const run = Date.now();
    // The whole schedule (30 years, month by month): the largest public page, about 320 KB.
    const print = (n: number) =>
      `/mortgage-calculator/print?homePrice=${300000 + n}&loanTerm=30&showAmortization=1&hoaDues=${run % 100000}`;
    expect((await request.get(print(999))).status()).toBe(200);

    let done = false;
    const misses = Promise.all(Array.from({ length: 20 }, (_, n) => get(print(n), { "accept-encoding": "br, gzip" }))).finally(
      () => (done = true),
    );
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const health = await get("/healthz");
      expect(health.status).toBe(200);
      latencies.push(performance.now() - started);
    }
    const answers = await misses;
    expect(answers.every((a) => a.status === 200 && a.bytes > 0)).toBe(true);
    expect(latencies.length).toBeGreaterThan(0);
    console.info(`/healthz while 20 new addresses rendered: ${latencies.length} answers, slowest ${Math.round(Math.max(...latencies))} ms`);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });
});
