import crypto from "node:crypto";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { SignedInPages } from "../../app/server/signed-in-pages.server";
import { readPageGeneration } from "../../app/platform/page-generations.server";
import { describeEachDatabase, sessionCookieFrom } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const PUBLIC_URL = "https://www.hoa.example";

/*
 * Kept signed-in pages (decision 011): one render serves every user of a role and shape at an
 * address, each answer filled with the user's own values and nonce. Every answer is held to
 * the page rendered for that request alone, on an instance that keeps nothing.
 */
describeEachDatabase("kept signed-in pages", (dialect) => {
  let server: PageTestServer;
  let reference: Awaited<ReturnType<PageTestServer["startInstance"]>>;
  let feedId: number;
  beforeAll(async () => {
    server = await startPageTestServer(dialect, { PUBLIC_URL });
    reference = await server.startInstance({ keepPages: false });
    const feed = await server.services.feeds.createFeed({
      name: "Feed",
      url: "https://feed.example.com/rss",
      category: "news",
      is_active: false,
    });
    feedId = feed.id;
    await addArticles(["Gutter guards compared"]);
  });
  afterAll(() => server.close());

  const kept = () => server.app.locals.signedInPages as SignedInPages;

  async function addArticles(titles: string[]) {
    await server.services.articles.repo.saveFeedItems(
      feedId,
      "news",
      titles.map((title) => ({
        dedupe_key: title,
        guid: title,
        link: `https://feed.example.com/${encodeURIComponent(title)}`,
        title,
        summary: `${title}: a summary`,
        content: null,
        image_url: null,
        published_at: new Date().toISOString(),
        source_name: "Feed",
        content_hash: crypto.createHash("sha1").update(title).digest("hex"),
      })),
    );
  }

  interface Person {
    cookie: string;
    id: number;
    secrets: string[];
  }

  async function member(firstName: string | null, lastName: string | null = null): Promise<Person> {
    const { auth } = server.services;
    const certificate = `M${crypto.randomInt(1e9)}`;
    const { id } = await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName, lastName });
    const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    expect(res.status).toBe(200);
    return {
      cookie: sessionCookieFrom(res),
      id: Number(id),
      secrets: [certificate, ...[firstName, lastName].filter((v): v is string => !!v)],
    };
  }

  async function staff(role: "limited_admin" | "super_admin"): Promise<Person> {
    const username = `${role.replace("_", "")}${crypto.randomInt(1e9)}`;
    const { id } = await server.services.auth.createStaff(username, "correct horse battery", role);
    const res = await server.request("/api/auth/login", {
      method: "POST",
      json: { username, password: "correct horse battery", kind: "staff" },
    });
    expect(res.status).toBe(200);
    return { cookie: sessionCookieFrom(res), id: Number(id), secrets: [username] };
  }

  /** The answer's nonce, from its CSP header; every script of the page carries it. */
  function nonceOf(res: Response): string {
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    return nonce!;
  }

  /** A page with its own nonce replaced by a fixed word, so two answers compare. */
  async function normalized(res: Response): Promise<{ html: string; nonce: string }> {
    expect(res.status).toBe(200);
    const nonce = nonceOf(res);
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    return { html: html.split(nonce).join("NONCE"), nonce };
  }

  /** The page as the person gets it, and as a fresh render for them gives it. */
  async function bothRenders(person: Person, path: string) {
    const served = await normalized(await server.request(path, { cookie: person.cookie }));
    const fresh = await normalized(await reference.request(path, { cookie: person.cookie }));
    return { served, fresh };
  }

  /** React Router's hydration data of a page, decoded. */
  async function hydrationData(html: string): Promise<unknown> {
    const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)].map((m) => JSON.parse(m[1]) as string);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const decoded = await decodeViaTurboStream(stream, globalThis);
    await decoded.done;
    return decoded.value;
  }

  const otherScripts = (html: string) =>
    [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)]
      .map((m) => m[0])
      .filter((script) => !script.includes("streamController.enqueue("));
  const outsideScripts = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "<script/>");

  /**
   * The same page: the HTML outside the scripts byte for byte, the hydration data decoded. Not
   * the bytes of the hydration data: turbo-stream writes a value met before (a member id equal
   * to an article count, a name equal to a category) as a reference, a kept page writes it again.
   */
  async function expectSamePage(served: string, fresh: string, what: string) {
    expect(outsideScripts(served), what).toBe(outsideScripts(fresh));
    expect(await hydrationData(served), what).toEqual(await hydrationData(fresh));
    expect(otherScripts(served), what).toEqual(otherScripts(fresh));
  }

  /** Every way a value can be written in a page: as is, escaped as HTML, inside the hydration data. */
  function writings(value: string): string[] {
    const html = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
    const json = JSON.stringify(JSON.stringify(value).slice(1, -1)).slice(1, -1);
    return [value, html, json];
  }

  function expectNothingOf(html: string, other: Person & { nonce?: string }) {
    for (const secret of [...other.secrets, ...(other.nonce ? [other.nonce] : [])]) {
      for (const written of writings(secret)) expect(html).not.toContain(written);
    }
  }

  /** The signed-in user as the page hands it to the browser (the root loader's `user`). */
  async function userOf(html: string): Promise<{ id: number } & Record<string, unknown>> {
    const data = (await hydrationData(html)) as { loaderData: { root: { user: { id: number } } } };
    return data.loaderData.root.user;
  }

  it("serves each member their own page from one kept render, exactly as a render for them alone", async () => {
    const names: Array<[string | null, string | null]> = [
      ["Quillonia", "Brackenridge"],
      [`Zoë <b>"Q"</b> & 'co'`, "</script><script>alert(1)</script>"],
      ["Ωмега\u2028Line", "汉字"],
      [null, null], // shown by certificate number
      ["", "Solo"],
    ];
    const people = await Promise.all(names.map(([first, last]) => member(first, last)));
    const before = kept().lookups.kept;
    for (const round of [1, 2, 3]) {
      for (const [i, person] of people.entries()) {
        const { served, fresh } = await bothRenders(person, "/knowledge-center");
        await expectSamePage(served.html, fresh.html, `member ${i}, round ${round}`);
        for (const [j, other] of people.entries()) if (j !== i) expectNothingOf(served.html, other);
      }
    }
    // By the third round every answer came from a kept template (the first ask of a page is rendered alone, the second makes it).
    expect(kept().lookups.kept - before).toBeGreaterThanOrEqual(people.length);
  });

  it("a member whose first and last names are the same, or match other words of the page, gets the same data as a fresh render", async () => {
    for (const person of [await member("Same", "Same"), await member("user", "news"), await member("Knowledge Center", "true")]) {
      await server.request("/knowledge-center?page=1", { cookie: person.cookie });
      const { served, fresh } = await bothRenders(person, "/knowledge-center?page=1");
      await expectSamePage(served.html, fresh.html, person.secrets.join(" "));
    }
  });

  it("two members one after the other: neither's name, certificate number, id or nonce is in the other's answer", async () => {
    const a = await member("Aurelio", "Fenwick");
    const b = await member("Birgitta", "Oyelaran");
    // Both answers below come from one kept template (the first two asks make it).
    for (const warm of [await member("Warm", "Up"), await member("Warm", "Again")])
      await server.request("/knowledge-center", { cookie: warm.cookie });
    const keptBefore = kept().lookups.kept;
    const first = await server.request("/knowledge-center", { cookie: a.cookie });
    const aNonce = nonceOf(first);
    const aHtml = await first.text();
    const second = await server.request("/knowledge-center", { cookie: b.cookie });
    const bNonce = nonceOf(second);
    const bHtml = await second.text();
    expect(bNonce).not.toBe(aNonce);
    expectNothingOf(bHtml, { ...a, nonce: aNonce });
    expectNothingOf(aHtml, { ...b, nonce: bNonce });
    expect(bHtml).toContain("Welcome, <!-- -->Birgitta Oyelaran");
    expect((await userOf(bHtml)).id).toBe(b.id);
    expect((await userOf(aHtml)).id).toBe(a.id);
    expect(kept().lookups.kept - keptBefore).toBe(2);
  });

  it("staff controls never reach a member, and a limited_admin never gets a super_admin's dashboard", async () => {
    const superAdmin = await staff("super_admin");
    const limited = await staff("limited_admin");
    const person = await member("Marisol", "Quayle");
    for (const who of [superAdmin, limited, superAdmin, limited]) {
      const { served, fresh } = await bothRenders(who, "/admin/dashboard");
      await expectSamePage(served.html, fresh.html, "staff and members");
    }
    const superPage = (await bothRenders(superAdmin, "/admin/dashboard")).served.html;
    const limitedPage = (await bothRenders(limited, "/admin/dashboard")).served.html;
    expect(limitedPage).not.toBe(superPage.split(superAdmin.secrets[0]).join(limited.secrets[0]));
    expectNothingOf(limitedPage, superAdmin);

    // Staff's knowledge center (their header's admin links) never reaches a member, nor a member's the staff.
    for (const who of [superAdmin, person, limited, person]) {
      const { served, fresh } = await bothRenders(who, "/knowledge-center?category=news");
      await expectSamePage(served.html, fresh.html, "staff and members");
    }
    // A member asking for the dashboard is sent away, as before.
    const denied = await server.request("/admin/dashboard", { cookie: person.cookie });
    expect(denied.status).toBe(302);
  });

  it("an ingest that stores articles, or a feed deleted, shows on the next page, on this instance and another", async () => {
    const person = await member("Ingrid", "Vasquez");
    const other = await server.startInstance();
    try {
      for (const instance of [server, other])
        expect(await (await instance.request("/knowledge-center", { cookie: person.cookie })).text()).not.toContain("Sump pumps");
      await addArticles(["Sump pumps before spring"]);
      for (const instance of [server, other])
        expect(await (await instance.request("/knowledge-center", { cookie: person.cookie })).text()).toContain("Sump pumps before spring");
      const { served, fresh } = await bothRenders(person, "/knowledge-center");
      await expectSamePage(served.html, fresh.html, "after an ingest");

      // A feed deleted by a staff member on the other instance takes its articles from this one's next page.
      const superAdmin = await staff("super_admin");
      const feed = await server.services.feeds.createFeed({
        name: "Gone",
        url: "https://gone.example.com/rss",
        category: "news",
        is_active: false,
      });
      await server.services.articles.repo.saveFeedItems(feed.id, "news", [
        {
          dedupe_key: "gone",
          guid: "gone",
          link: "https://gone.example.com/1",
          title: "Attic ventilation myths",
          summary: null,
          content: null,
          image_url: null,
          published_at: new Date().toISOString(),
          source_name: "Gone",
          content_hash: "gone",
        },
      ]);
      expect(await (await server.request("/knowledge-center", { cookie: person.cookie })).text()).toContain("Attic ventilation myths");
      const deleted = await other.request(`/api/rss/feeds?id=${feed.id}`, {
        method: "DELETE",
        cookie: superAdmin.cookie,
        headers: { Origin: PUBLIC_URL },
      });
      expect(deleted.status).toBe(200);
      expect(await (await server.request("/knowledge-center", { cookie: person.cookie })).text()).not.toContain("Attic ventilation myths");
    } finally {
      await other.close();
    }
  });

  it("the dashboard shows a payment recorded by staff on the next visit", async () => {
    const superAdmin = await staff("super_admin");
    const before = (await bothRenders(superAdmin, "/admin/dashboard")).served.html;
    const person = await member("Pablo", "Ndiaye");
    const planned = await server.request(`/api/admin/members/${person.id}/membership/plan`, {
      method: "PUT",
      cookie: superAdmin.cookie,
      headers: { Origin: PUBLIC_URL },
      json: {
        billing: "monthly",
        coverageAmount: "50000",
        beneficiaryName: "Ana Ndiaye",
        beneficiaryRelationship: "child",
        approvedOn: "2026-01-15",
      },
    });
    expect(planned.status).toBe(200);
    const { served, fresh } = await bothRenders(superAdmin, "/admin/dashboard");
    await expectSamePage(served.html, fresh.html, "the page");
    expect(served.html).not.toBe(before);
  });

  it("every write to the articles moves their counter on, whoever makes it: insert, update, delete, a feed's deletion cascading", async () => {
    const { db } = server.services.database;
    const generation = () => readPageGeneration(db, "articles");
    const feed = await server.services.feeds.createFeed({
      name: "Raw",
      url: "https://raw.example.com/rss",
      category: "news",
      is_active: false,
    });
    let last = await generation();
    const moved = async () => {
      const now = await generation();
      expect(now).toBeGreaterThan(last);
      last = now;
    };
    const now = new Date().toISOString();
    const row = {
      feed_id: feed.id,
      link: "https://raw.example.com/1",
      title: "Raw",
      category: "news",
      content_hash: "h",
      created_at: now,
      updated_at: now,
    };
    await db
      .insertInto("articles")
      .values({ ...row, dedupe_key: "raw-1", published_at: now })
      .execute();
    await moved();
    await db.updateTable("articles").set({ title: "Raw, edited" }).where("dedupe_key", "=", "raw-1").execute();
    await moved();
    await db.deleteFrom("articles").where("dedupe_key", "=", "raw-1").execute();
    await moved();
    await db
      .insertInto("articles")
      .values({ ...row, dedupe_key: "raw-2", published_at: now })
      .execute();
    await moved();
    await db.deleteFrom("rss_feeds").where("id", "=", feed.id).execute();
    await moved();
    expect(await db.selectFrom("articles").select("id").where("dedupe_key", "=", "raw-2").execute()).toEqual([]);
  });

  it("a name with spaces at either end is rendered for its member alone, as the welcome line trims it", async () => {
    const person = await member(" Padded ", "Name");
    const { served, fresh } = await bothRenders(person, "/knowledge-center");
    await expectSamePage(served.html, fresh.html, "the page");
  });
});
