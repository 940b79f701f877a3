import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, sessionCookieFrom } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { rawRequest } from "../support/raw-http";

const PUBLIC_URL = "https://www.hoa.example";

/** Kept public pages (decision 007): who is served from them, what keys them, and what a miss costs. */
describeEachDatabase("kept public pages", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect, { PUBLIC_URL });
  });
  afterAll(() => server.close());

  async function signInMember(firstName: string): Promise<string> {
    const { auth } = server.services;
    const certificate = `M${crypto.randomInt(1e9)}`;
    await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName });
    const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    expect(res.status).toBe(200);
    return sessionCookieFrom(res);
  }

  it("a public page kept for every visitor names its inline scripts by hash, with no nonce", async () => {
    const res = await server.request("/about-us");
    const html = await res.text();
    expect(/<script[^>]*\snonce="([^"]+)"/.exec(html)?.[1]).toBeUndefined();
    const scriptSrc = (res.headers.get("content-security-policy") ?? "").split(";").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toMatch(/^script-src( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
  });

  it("a member's page (their name, a nonce) never reaches the next anonymous visitor", async () => {
    const cookie = await signInMember("Quillonia");
    const own = await server.request("/", { cookie });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    const ownHtml = await own.text();
    expect(ownHtml).toContain("Quillonia");
    const nonce = /\snonce="([^"]+)"/.exec(ownHtml)?.[1];
    expect(nonce).toBeTruthy();

    const anonymous = await server.request("/");
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("cache-control")).toContain("s-maxage");
    const html = await anonymous.text();
    expect(html).not.toContain("Quillonia");
    expect(html).not.toContain(nonce!);
    expect(html).not.toMatch(/\snonce="/);
  });

  it("two calculator inputs never share a kept page; parameters the page does not read do not make a new one", async () => {
    const first = await (await server.request("/mortgage-calculator?homePrice=412345")).text();
    const second = await (await server.request("/mortgage-calculator?homePrice=523456")).text();
    expect(first).toContain('value="412345"');
    expect(second).toContain('value="523456"');
    expect(second).not.toContain("412345");
    expect(first).not.toContain("523456");

    // Asked again, in another order and with parameters the page does not read: the same kept page.
    const again = await server.request("/mortgage-calculator?utm_source=mail&homePrice=523456&loanTerm=30x");
    expect(await again.text()).toBe(second);
    const etag = again.headers.get("etag");
    const reordered = await server.request("/mortgage-calculator?loanTerm=15&homePrice=412345");
    const reorderedAgain = await server.request("/mortgage-calculator?homePrice=412345&fbclid=abc&loanTerm=15");
    expect(reorderedAgain.headers.get("etag")).toBe(reordered.headers.get("etag"));
    expect(reordered.headers.get("etag")).not.toBe(etag);
  });

  it("another Host adds no kept page and is answered with the site's own address", async () => {
    await server.request("/about-us");
    const before = await server.request("/about-us");
    for (const host of ["evil.example", "other.example:8080"]) {
      const res = await rawRequest(server.port, `GET /about-us HTTP/1.1\r\nHost: ${host}`);
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe(before.headers.get("etag"));
      expect(res.body).not.toContain(host);
      expect(res.body).toContain(`${PUBLIC_URL}/about-us`);
    }
  });

  describe("the 404 page of unknown paths", () => {
    const NOT_FOUND_TEXTS = [
      "<title>Page not found | American Homeowners Association</title>",
      '<meta name="robots" content="noindex"/>',
      "Page not found",
      "The page you are looking for does not exist or has moved. Check the address, or head back to the home page.",
      "Back to Home",
    ];
    const pageCache = () => server.app.locals.pageCache as { size: number } | undefined;

    it("is kept once for every unknown path: the same body each time, a 404 with its texts, scripts allowed by hash", async () => {
      const first = await server.request(`/no-such-page-${crypto.randomInt(1e9)}`);
      const firstHtml = await first.text();
      const second = await server.request(`/another/unknown/path-${crypto.randomInt(1e9)}?q=<b>x</b>`);
      const secondHtml = await second.text();
      for (const [res, html] of [
        [first, firstHtml],
        [second, secondHtml],
      ] as const) {
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toContain("text/html");
        for (const text of NOT_FOUND_TEXTS) expect(html).toContain(text);
        expect(html).not.toMatch(/\snonce="/);
        const scriptSrc = (res.headers.get("content-security-policy") ?? "").split(";").find((d) => d.startsWith("script-src"));
        expect(scriptSrc).toMatch(/^script-src( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
        expect(res.headers.get("cache-control")).toBeNull();
        expect(res.headers.get("etag")).toBeNull();
      }
      // Nothing of the request is in it: byte for byte the same page, whatever the path and query.
      expect(secondHtml).toBe(firstHtml);
      expect(secondHtml).not.toContain("another/unknown");
      // Compressed like a kept page, and the same page once decompressed.
      const br = await rawRequest(
        server.port,
        `GET /unknown-br-${crypto.randomInt(1e9)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: br`,
      );
      expect(br.status).toBe(404);
      expect(br.headers["content-encoding"]).toBe("br");
    });

    it("is never React Router's own route discovery (/__manifest), which a client navigation asks for, anonymous or signed in", async () => {
      const cookie = await signInMember("Manifest");
      for (const who of [{}, { cookie }]) {
        // Twice each way: the second unknown path is answered from the kept 404 page.
        for (let i = 0; i < 2; i++) expect((await server.request(`/no-such-page-${crypto.randomInt(1e9)}`, who)).status).toBe(404);
        for (let i = 0; i < 2; i++) {
          const res = await server.request("/__manifest?p=%2Fadmin%2Fmembers&p=%2Faccount&version=x", who);
          expect(res.status).not.toBe(404);
          expect(await res.text()).not.toContain("Page not found");
        }
      }
    });

    it("distinct unknown paths do not grow the kept pages", async () => {
      await server.request("/no-such-page-warm");
      await server.request("/contact-us/warm");
      const size = pageCache()!.size;
      for (let i = 0; i < 30; i++) {
        expect((await server.request(`/no-such-page-${i}-${crypto.randomInt(1e9)}`)).status).toBe(404);
        expect((await server.request(`/contact-us/${i}-${crypto.randomInt(1e9)}`)).status).toBe(404);
      }
      expect(pageCache()!.size).toBe(size);
    });

    it("a page asked for in another case or encoding is still that page, as when every page is rendered for its request", async () => {
      const reference = await server.startInstance({ keepPages: false });
      try {
        const paths = [
          "/About-Us",
          "/about%2Dus",
          "/ADMIN/dashboard",
          "/verify/abc",
          "/knowledge-center/",
          "/%61bout-us",
          "/no-such",
          "/%E2%82%AC",
          "/a%2Fb",
        ];
        for (const path of paths) {
          const [kept, rendered] = [await server.request(path), await reference.request(path)];
          expect(kept.status, path).toBe(rendered.status);
          const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
          expect(title(await kept.text()), path).toBe(title(await rendered.text()));
        }
      } finally {
        await reference.close();
      }
    });

    it("the kept 404 shows the header a page rendered for the request would (the menu link of the path's first segment marked)", async () => {
      const reference = await server.startInstance({ keepPages: false });
      const header = (html: string) => /<header[\s\S]*<\/header>/.exec(html)?.[0];
      try {
        const paths = [
          "/contact-us/no-such",
          "/Contact-Us/other/deeper",
          "/mortgage-calculator/x",
          "/no-such",
          "/verify/a/b",
          "/admin/nothing-here",
        ];
        for (const path of [...paths, ...paths]) {
          const [kept, rendered] = [await server.request(path), await reference.request(path)];
          expect(kept.status, path).toBe(404);
          expect(rendered.status, path).toBe(404);
          const keptHtml = await kept.text();
          expect(keptHtml, path).not.toMatch(/\snonce="/);
          expect(header(keptHtml), path).toBe(header(await rendered.text()));
        }
        expect(header(await (await server.request("/contact-us/no-such")).text())).toContain('aria-current="page"');
      } finally {
        await reference.close();
      }
    });

    it("a signed-in member's 404 shows their own header, never the anonymous kept page", async () => {
      const anonymous = await (await server.request("/no-such-page-anon")).text();
      const cookie = await signInMember("Wendeline");
      const res = await server.request("/no-such-page-member", { cookie });
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("Page not found");
      expect(html).toContain("Wendeline");
      expect(html).not.toBe(anonymous);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      // And the anonymous one stays anonymous.
      expect(await (await server.request("/no-such-page-anon-2")).text()).not.toContain("Wendeline");
    });

    it("a member's 404 is kept per role and shape with the person put in: each member sees their own name, a nonce of their own", async () => {
      const [first, second] = [await signInMember("Ottilie"), await signInMember("Bartholomew")];
      const asked: string[] = [];
      const nonces = new Set<string>();
      const lookups = (server.app.locals.signedInPages as { lookups: { kept: number } }).lookups;
      const keptBefore = lookups.kept;
      // The first ask is rendered alone, the second makes the template, the next are served from it.
      for (let i = 0; i < 4; i++) {
        const res = await server.request(`/no-such-${i}-${crypto.randomInt(1e9)}`, { cookie: first });
        expect(res.status).toBe(404);
        expect(res.headers.get("cache-control")).toBe("private, no-store");
        const html = await res.text();
        expect(html).toContain("Ottilie");
        expect(html).toContain("Page not found");
        const nonce = /\snonce="([^"]+)"/.exec(html)?.[1];
        expect(nonce).toBeTruthy();
        expect(res.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
        nonces.add(nonce!);
        asked.push(html.split(nonce!).join("NONCE"));
      }
      expect(nonces.size).toBe(4);
      expect(lookups.kept - keptBefore).toBeGreaterThanOrEqual(2);
      expect(new Set(asked).size).toBe(1);
      const other = await (await server.request("/no-such-other", { cookie: second })).text();
      expect(other).toContain("Bartholomew");
      expect(other).not.toContain("Ottilie");
      expect(other).not.toContain([...nonces][3]);
    });
  });
});
