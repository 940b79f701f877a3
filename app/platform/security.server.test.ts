import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  hostHeaderGuard,
  isValidHost,
  newCspNonce,
  privateWhenSignedIn,
  sameOriginGuard,
  securityHeaders,
} from "./security.server";
import { endsWithTheFile } from "../../tests/support/loaded-machine";

const directives = (policy: string) => Object.fromEntries(policy.split(";").map((d) => [d.split(" ")[0], d]));

describe("Content-Security-Policy", () => {
  const csp = contentSecurityPolicy({ dev: false, frameSources: ["https://www.youtube-nocookie.com"] });

  it("lets no script run in an answer that is not a page, with every other directive as strict as a page's", () => {
    const any = directives(csp.forAnyAnswer);
    expect(any["script-src"]).toBe("script-src 'none'");
    const page = directives(csp.forPage(["'nonce-abc'"]));
    for (const name of Object.keys(page)) if (name !== "script-src") expect(any[name], name).toBe(page[name]);
    expect(any["object-src"]).toBe("object-src 'none'");
    expect(any["base-uri"]).toBe("base-uri 'none'");
    expect(any["frame-ancestors"]).toBe("frame-ancestors 'none'");
    expect(any["frame-src"]).toBe("frame-src https://www.youtube-nocookie.com");
  });

  it("names a page's scripts by nonce or by hashes, followed by 'strict-dynamic'", () => {
    expect(directives(csp.forPage(["'nonce-abc'"]))["script-src"]).toBe("script-src 'nonce-abc' 'strict-dynamic'");
    expect(directives(csp.forPage(["'sha256-A'", "'sha256-B'"]))["script-src"]).toBe("script-src 'sha256-A' 'sha256-B' 'strict-dynamic'");
    expect(directives(csp.forPage([]))["script-src"]).toBe("script-src 'strict-dynamic'");
  });

  it("in development allows Vite's scripts everywhere", () => {
    const dev = contentSecurityPolicy({ dev: true });
    expect(directives(dev.forPage(["'nonce-abc'"]))["script-src"]).toBe("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
    expect(dev.forAnyAnswer).toBe(dev.forPage([]));
  });
});

describe("Host header guard", () => {
  const answer = (host: string | undefined) => {
    let status = 0;
    let passed = false;
    const res = { status: (s: number) => ((status = s), { json: () => undefined }) };
    hostHeaderGuard({ headers: { host } } as never, res as never, () => (passed = true));
    return passed ? "next" : status;
  };

  it("remembers good hosts without letting a bad one through, however many good ones came first", () => {
    for (let i = 0; i < 200; i++) expect(answer(`site${i}.example:8080`)).toBe("next");
    expect(answer("site1.example:8080")).toBe("next");
    for (const bad of ["a b", "evil:99999", "[::1", "1.2.3.999", "site1.example:8080/x"]) expect(answer(bad), bad).toBe(400);
    expect(answer(undefined)).toBe("next");
  });
});

describe("the whole policies, word for word", () => {
  it("for an answer that is not a page, and for a page", () => {
    const csp = contentSecurityPolicy({ dev: false });
    const rest =
      "style-src 'self' 'unsafe-inline';img-src 'self' data: https:;font-src 'self';connect-src 'self';frame-src 'none';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";
    expect(csp.forAnyAnswer).toBe(`default-src 'self';script-src 'none';${rest}`);
    expect(csp.forPage(["'nonce-n1'"])).toBe(`default-src 'self';script-src 'nonce-n1' 'strict-dynamic';${rest}`);
    const dev = contentSecurityPolicy({ dev: true });
    expect(dev.forAnyAnswer).toBe(
      "default-src 'self';script-src 'self' 'unsafe-inline' 'unsafe-eval';style-src 'self' 'unsafe-inline';img-src 'self' data: https:;font-src 'self';connect-src 'self' ws:;frame-src 'none';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'",
    );
  });

  it("draws a fresh nonce of 144 random bits each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newCspNonce()));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});

describe("same-origin guard", () => {
  const answer = (init: { method?: string; site?: string; origin?: string; host?: string; protocol?: string }, publicUrl?: string) => {
    let status = 0;
    let passed = false;
    const headers: Record<string, string | undefined> = {
      "sec-fetch-site": init.site,
      origin: init.origin,
      host: init.host ?? "aha.example",
    };
    const req = { method: init.method ?? "POST", protocol: init.protocol ?? "https", get: (name: string) => headers[name.toLowerCase()] };
    const res = { status: (s: number) => ((status = s), { json: () => undefined }) };
    sameOriginGuard(publicUrl)(req as never, res as never, () => (passed = true));
    return passed ? "next" : status;
  };

  it("lets safe methods through whatever their headers say", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(answer({ method, site: "cross-site", origin: "https://evil.example" })).toBe("next");
  });

  it("takes a browser's Sec-Fetch-Site: same-origin and none pass, same-site and cross-site do not", () => {
    expect(answer({ site: "same-origin", origin: "https://evil.example" })).toBe("next");
    expect(answer({ site: "none" })).toBe("next");
    expect(answer({ site: "same-site" })).toBe(403);
    expect(answer({ site: "cross-site", origin: "https://aha.example" })).toBe(403);
    for (const method of ["PUT", "PATCH", "DELETE"]) expect(answer({ method, site: "cross-site" })).toBe(403);
  });

  it("without Sec-Fetch-Site wants our exact origin, or no Origin at all", () => {
    expect(answer({})).toBe("next");
    expect(answer({ origin: "https://aha.example" })).toBe("next");
    expect(answer({ origin: "http://aha.example" })).toBe(403);
    expect(answer({ origin: "https://aha.example:8443" })).toBe(403);
    expect(answer({ origin: "https://evil.example" })).toBe(403);
    expect(answer({ origin: "null" })).toBe(403);
    // PUBLIC_URL names the origin when set (behind a proxy the request's own host may differ).
    expect(answer({ origin: "https://www.aha.example", host: "10.0.0.5:3000", protocol: "http" }, "https://www.aha.example/path")).toBe(
      "next",
    );
    expect(answer({ origin: "http://10.0.0.5:3000", host: "10.0.0.5:3000", protocol: "http" }, "https://www.aha.example")).toBe(403);
  });
});

describe("Host names", () => {
  it("takes names, addresses and ports, and nothing else", () => {
    for (const good of ["aha.example", "aha.example.", "my_host", "a-b.c-d.example:8080", "127.0.0.1", "[::1]:3000", "x:65535", "x:0"])
      expect(isValidHost(good), good).toBe(true);
    for (const bad of ["x:65536", "-a.example", "a-.example", "a..b", "[::1", "::1", "a b", "a/b", "1.2.3.999", "", "a:b", "x:123456"])
      expect(isValidHost(bad), bad).toBe(false);
  });
});

describe("answers to signed-in users and HSTS, through Express", () => {
  async function serve(app: express.Express) {
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return endsWithTheFile({ url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  }

  it("a signed-in user's answer is private, no-store whatever the handler set; others keep theirs", async () => {
    const app = express();
    app.use((req, res, next) => ((res.locals.user = req.get("x-user") ? { id: 1 } : undefined), next()));
    app.use(privateWhenSignedIn);
    app.get("/", (_req, res) => res.set("Cache-Control", "public, max-age=600").send("ok"));
    const site = await serve(app);
    try {
      expect((await fetch(`${site.url}/`, { headers: { "x-user": "1" } })).headers.get("cache-control")).toBe("private, no-store");
      expect((await fetch(`${site.url}/`)).headers.get("cache-control")).toBe("public, max-age=600");
    } finally {
      await site.close();
    }
  });

  it("sends HSTS only over HTTPS, with helmet's other headers and the policy on every answer", async () => {
    const app = express();
    app.set("trust proxy", "loopback");
    app.use(securityHeaders(contentSecurityPolicy({ dev: false })));
    app.get("/", (_req, res) => res.send("ok"));
    const site = await serve(app);
    try {
      const plain = await fetch(`${site.url}/`);
      expect(plain.headers.get("strict-transport-security")).toBeNull();
      expect(plain.headers.get("content-security-policy")).toContain("script-src 'none'");
      expect(plain.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(plain.headers.get("cross-origin-embedder-policy")).toBeNull();
      const secure = await fetch(`${site.url}/`, { headers: { "X-Forwarded-Proto": "https" } });
      expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await site.close();
    }
  });
});
