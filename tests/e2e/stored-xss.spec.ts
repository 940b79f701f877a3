import crypto from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_BASE } from "./env";
import { deleteArticlesIn, deleteFeed, seedArticles, startFeedServer, withArticlesLock } from "./articles-support";
import { signatureDataUrl } from "../support/submission-fixtures";
import type { Services } from "../../app/server/services.server";

/*
 * Stored XSS, end to end: hostile text goes in through every field of every way in (the public
 * forms, the membership application, the member import, a feed and its articles, a video),
 * through the real API and its validation, and is then shown on every admin and member screen
 * that shows it. On each screen: no dialog, no script of ours or the payload's ran, no element
 * carries an event handler or a script URL, no CSP violation was reported (a blocked payload
 * would still be an injection), and the text itself is there, shown as text.
 */

const MARK = `xss${crypto.randomBytes(3).toString("hex")}`;
/** Each one a way markup could turn into script if it were written into the page unescaped. */
const PAYLOADS = [
  `"'><img src=x onerror=alert(1)>`,
  `<script>alert(2)</script>`,
  `<svg/onload=alert(3)>`,
  `javascript:alert(4)`,
  `<iframe srcdoc="<script>alert(5)</script>">`,
  `<a href="javascript:alert(6)">x</a>`,
  `{{constructor.constructor('alert(7)')()}}`,
];
/** The strongest hostile value first; a field that refuses it gets a single payload, then its valid value. */
const LEVELS = [`${MARK} ${PAYLOADS.join(" ")}`, ...PAYLOADS.map((p) => `${MARK} ${p}`)];

type Body = Record<string, unknown>;

/**
 * Posts `valid` with every string (or empty) field replaced by hostile text; a field the
 * server refuses (named in the answer's details) steps down to a shorter payload and at last
 * back to its valid value. Answers the fields stored with hostile text.
 */
async function storeHostile(
  request: APIRequestContext,
  path: string,
  valid: Body,
  opts: { method?: "POST" | "PUT"; before?: () => Promise<void>; keep?: string[] } = {},
): Promise<{ fields: string[]; answer: Body }> {
  const level: Record<string, number> = {};
  for (const [key, value] of Object.entries(valid))
    if ((typeof value === "string" || value === null) && !opts.keep?.includes(key)) level[key] = 0;
  for (let round = 0; round <= LEVELS.length + 1; round++) {
    const body: Body = { ...valid };
    for (const [key, l] of Object.entries(level)) if (l < LEVELS.length) body[key] = LEVELS[l];
    await opts.before?.();
    const res = await request.fetch(path, { method: opts.method ?? "POST", data: body });
    const answer = (await res.json()) as Body;
    if (res.ok()) return { fields: Object.keys(level).filter((k) => level[k] < LEVELS.length), answer };
    expect(res.status(), `${path}: ${JSON.stringify(answer)}`).toBe(400);
    // Field problems come as `details` ({field: message}) or, from the application, as `fields`.
    const named = [answer.details, answer.fields].find((d) => d && typeof d === "object" && !Array.isArray(d)) as Body | undefined;
    const refused = Object.keys(named ?? {}).filter((k) => k in level && level[k] < LEVELS.length);
    expect(refused, `${path} refused without naming a hostile field: ${JSON.stringify(answer)}`).not.toEqual([]);
    for (const key of refused) level[key]++;
  }
  throw new Error(`${path} never accepted the body`);
}

/** Records dialogs and CSP violations from the first script of every page. */
async function watch(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __violations: string[] }).__violations = []);
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`));
  });
  return dialogs;
}

/** What an injection would leave in the document: handlers, script URLs, foreign scripts and frames. */
async function expectNothingInjected(page: Page, dialogs: string[], where: string) {
  const found = await page.evaluate((mark) => {
    const bad: string[] = [];
    for (const el of Array.from(document.querySelectorAll("*"))) {
      for (const name of el.getAttributeNames()) {
        const value = el.getAttribute(name) ?? "";
        if (name.startsWith("on")) bad.push(`<${el.tagName.toLowerCase()} ${name}>`);
        if (/^\s*(javascript|vbscript|data:text\/html)/i.test(value)) bad.push(`<${el.tagName.toLowerCase()} ${name}="${value}">`);
        if (name === "srcdoc") bad.push(`<${el.tagName.toLowerCase()} srcdoc>`);
      }
      // The page's own data scripts carry the hostile strings, escaped; a payload that broke out
      // of one would stand as a script of its own.
      if (el.tagName === "SCRIPT" && /^\s*alert\(\d+\)\s*$/.test(el.textContent ?? "")) bad.push("<script> of the payload");
      if (
        ["IFRAME", "OBJECT", "EMBED"].includes(el.tagName) &&
        !/^https:\/\/www\.youtube-nocookie\.com\//.test(el.getAttribute("src") ?? "")
      )
        bad.push(`<${el.tagName.toLowerCase()} src="${el.getAttribute("src")}">`);
      if (el.tagName === "SVG" && el.textContent?.includes(mark)) bad.push("<svg> from the payload");
    }
    return { bad, violations: (window as unknown as { __violations: string[] }).__violations ?? [] };
  }, MARK);
  expect(found.bad, where).toEqual([]);
  expect(found.violations, where).toEqual([]);
  expect(dialogs, where).toEqual([]);
}

/** The hostile text is on the screen, as text (the mark followed by markup). */
async function expectShownAsText(page: Page, scope = page.locator("body")) {
  await expect(scope.getByText(new RegExp(`${MARK} .*(<|javascript:|\\{\\{)`)).first()).toBeVisible();
}

async function clearFormLimits(services: Services) {
  await services.database.db.deleteFrom("rate_limits").where("key", "like", "submit_%").execute();
}

test.describe("stored XSS through every field", () => {
  test.setTimeout(180_000);

  test("hostile text in forms, applications, imports, feeds, articles and videos is shown as text on every screen", async ({
    page,
    signIn,
    services,
    browser,
  }) => {
    await withArticlesLock(async () => {
      const dialogs = await watch(page);
      await signIn("super_admin");
      const api = page.request;
      const stored: Record<string, string[]> = {};
      const before = () => clearFormLimits(services);

      // Public forms (contact and both request forms, under each of their addresses).
      const contact = { name: "Dana", email: "dana@example.com", phone: "", subject: "warranty", message: "Is it covered?" };
      const cpa = {
        first_name: "Lee",
        last_name: "Park",
        email: "lee@example.com",
        phone: "",
        firm_name: null,
        city: null,
        state: null,
        zip: null,
        notes: "Send it.",
      };
      const material = {
        first_name: "Ana",
        last_name: "Lopez",
        email: "ana@example.com",
        phone: null,
        address1: "12 Elm Street",
        address2: null,
        city: "Stamford",
        state: "CT",
        zip: "06905",
        materials_requested: "Maintenance checklist",
        notes: null,
      };
      stored.contact = (await storeHostile(api, "/api/forms", contact, { before })).fields;
      stored.cpa = (await storeHostile(api, "/api/submit-cpa-request", cpa, { before })).fields;
      stored.material = (await storeHostile(api, "/api/submit-material-request", material, { before })).fields;

      // The membership application, as a signed-in member.
      const memberContext = await browser.newContext({ baseURL: E2E_BASE });
      const memberPage = await memberContext.newPage();
      const memberDialogs = await watch(memberPage);
      await signIn("member", { context: memberContext });
      const signature = signatureDataUrl(1);
      stored.application = (
        await storeHostile(
          memberPage.request,
          "/api/applications",
          {
            caseNumber: "",
            amountOfCoverage: "100000",
            applicantName: "Lee Park",
            coApplicantName: "",
            dob: "1975-01-31",
            gender: "Prefer not to say",
            email: "lee@example.com",
            phone: "(203) 555-0100",
            todaysDate: new Date().toISOString().slice(0, 10),
            address1: "1 Main St",
            address2: "",
            city: "Hartford",
            state: "CT",
            zip: "06103",
            beneficiaryName: "Alex Park",
            beneficiaryRelationship: "child",
            beneficiaryPhone: "",
            beneficiaryEmail: "",
            paymentMonthlyBilling: true,
            confirmAccuracy: true,
            applicantSignature: signature,
            coApplicantSignature: signature,
          },
          { before, keep: ["applicantSignature", "coApplicantSignature"] },
        )
      ).fields;

      // The member import: names and certificate number of a row.
      const csvCell = (v: string) => `"${v.replaceAll('"', '""')}"`;
      const certificate = `X${MARK}`.toUpperCase();
      const form = {
        csvFile: {
          name: "members.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(
            "certificate_number,birthdate,first_name,last_name,email\r\n" +
              PAYLOADS.map(
                (_, i) =>
                  `${certificate}${i},1980-01-15,${csvCell(LEVELS[1 + i])},${csvCell(LEVELS[1 + ((i + 3) % PAYLOADS.length)])},\r\n`,
              ).join(""),
          ),
        },
      };
      const imported = await api.post("/api/upload-users", { multipart: form });
      expect(imported.status(), await imported.text()).toBe(200);

      // A feed whose name and whose articles (title, text, links, images) are hostile, ingested.
      const item = (i: number) => `
        <item>
          <title><![CDATA[${MARK} title ${i} ${PAYLOADS.join(" ")}]]></title>
          <link>javascript:alert(${i})</link>
          <guid isPermaLink="false">${MARK}-${i}</guid>
          <description><![CDATA[<p>${MARK} text ${PAYLOADS.join(" ")}</p><img src="javascript:alert(8)"><a href="javascript:alert(9)">x</a>]]></description>
          <enclosure url="javascript:alert(10)" type="image/jpeg" />
          <pubDate>${new Date(Date.now() - i * 60_000).toUTCString()}</pubDate>
        </item>`;
      const feedServer = await startFeedServer(
        () =>
          `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title><![CDATA[${MARK} source <img src=x onerror=alert(11)>]]></title><link>https://news.example.org/</link><description>d</description>${item(1)}${item(2)}</channel></rss>`,
      );
      await deleteArticlesIn(services, ["home_remodeling", "maintenance_repair"]);
      const feed = await storeHostile(api, "/api/rss/feeds", {
        name: "Feed",
        url: feedServer.url,
        category: "home_remodeling",
        is_active: true,
      });
      stored.feed = feed.fields;
      const feedId = Number((feed.answer.feed as { id: number }).id);
      // Articles stored as a feed might send them, past the ingest's own cleaning: the screens must hold on their own.
      await seedArticles(services, feedId, [
        {
          title: `${MARK} raw ${PAYLOADS.join(" ")}`,
          category: "maintenance_repair",
          summary: `${MARK} raw summary ${PAYLOADS.join(" ")}`,
          content: `<script>alert(12)</script>${MARK}`,
          link: "javascript:alert(13)",
          image_url: "javascript:alert(14)",
          published_at: new Date(Date.now() - 30_000).toISOString(),
          source_name: `${MARK} <img src=x onerror=alert(15)>`,
        },
      ]);
      const ingested = await api.post("/api/rss/ingest", { data: {} });
      expect(ingested.status()).toBe(200);

      // A video.
      const video = await storeHostile(
        api,
        "/api/videos",
        { title: "Video", description: "About it", youtube: "abcdefghijk", category: "home_security", duration: "4:05" },
        { keep: ["youtube"] },
      );
      stored.video = video.fields;
      const videoId = Number((video.answer.video as { id: number }).id);

      try {
        // Every way in took hostile text somewhere (a form that refused all of it would prove nothing).
        for (const [what, fields] of Object.entries(stored)) expect(fields.length, `${what} stored no hostile field`).toBeGreaterThan(0);

        // Admin: submissions list, then each hostile submission's detail dialog.
        await page.goto("/admin/dashboard?tab=submissions");
        await page.getByLabel("Search submissions").fill(MARK);
        await page.getByRole("button", { name: "Search", exact: true }).click();
        const rows = page.getByTestId("submissions-row");
        await expect(rows).toHaveCount(4);
        await expectShownAsText(page, rows.first());
        await expectNothingInjected(page, dialogs, "submissions list");
        for (let i = 0; i < 4; i++) {
          await rows
            .nth(i)
            .getByRole("button", { name: /^View / })
            .click();
          const detail = page.getByRole("dialog");
          await expect(detail).toBeVisible();
          await expectShownAsText(page, detail);
          await expectNothingInjected(page, dialogs, `submission detail ${i + 1}`);
          await page.keyboard.press("Escape");
          await expect(detail).toHaveCount(0);
        }

        // Admin: the feeds, the videos, the members and the audit log.
        await page.goto("/admin/dashboard?tab=rss");
        await expectShownAsText(page);
        await expectNothingInjected(page, dialogs, "RSS feeds");
        await page.goto("/admin/dashboard?tab=videos");
        await expectShownAsText(page);
        await expectNothingInjected(page, dialogs, "videos admin");
        await page.goto("/admin/members");
        await page.getByLabel("Search members").fill(certificate);
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await expectShownAsText(page);
        await expectNothingInjected(page, dialogs, "members");
        for (const tab of await page.getByRole("tab").all()) {
          await tab.click();
          await expectNothingInjected(page, dialogs, `member administration: ${await tab.innerText()}`);
        }

        // Member: the knowledge center's articles and the video of its category.
        await memberPage.goto("/knowledge-center");
        await expectShownAsText(memberPage);
        await expectNothingInjected(memberPage, memberDialogs, "knowledge center");
        await memberPage.goto("/knowledge-center?category=maintenance_repair");
        await expectShownAsText(memberPage);
        await expectNothingInjected(memberPage, memberDialogs, "knowledge center, the article stored raw");
        await memberPage.getByRole("button", { name: /^Video Tutorials/ }).click();
        const videos = memberPage.getByRole("dialog", { name: "Video Tutorials" });
        await videos
          .getByRole("list", { name: "Video categories" })
          .getByRole("button", { name: /^Home Security/ })
          .click();
        await expectShownAsText(memberPage, videos);
        await expectNothingInjected(memberPage, memberDialogs, "video tutorials");

        // Anyone: the home page's featured articles.
        await memberPage.goto("/");
        await expectShownAsText(memberPage);
        await expectNothingInjected(memberPage, memberDialogs, "home page");
      } finally {
        await api.delete(`/api/videos/${videoId}`);
        await deleteFeed(services, feedId);
        await deleteArticlesIn(services, ["home_remodeling", "maintenance_repair"]);
        await feedServer.close();
        await memberContext.close();
      }
    });
  });
});
