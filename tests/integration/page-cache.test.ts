import crypto from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
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
});
