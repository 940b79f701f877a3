import { expect, MEMBER_PASSWORD, STAFF_PASSWORD, createAccount, test } from "./fixtures";
import { E2E_BASE } from "./env";
import { startSecondSite } from "./second-site";

/*
 * The headers every answer of the built site carries, and the session cookie's flags, in one
 * table: pages kept for everyone, pages of one signed-in visitor, JSON, errors, files, assets.
 * Plain fetch: no cookie jar, each request carries exactly the cookie it names.
 */

interface Answer {
  status: number;
  h: Record<string, string>;
  setCookie: string[];
  text: string;
}

async function call(
  path: string,
  init: { cookie?: string; method?: string; json?: string; base?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${init.base ?? E2E_BASE}${path}`, {
    method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
    redirect: "manual",
    headers: {
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.json,
  });
  return {
    status: res.status,
    h: Object.fromEntries(res.headers),
    setCookie: res.headers.getSetCookie(),
    text: await res.text(),
  } satisfies Answer;
}

const directives = (policy: string) => Object.fromEntries(policy.split(";").map((d) => [d.trim().split(" ")[0], d.trim()]));

/** What every answer carries, whatever it is. */
function expectBaseline(res: Answer, what: string) {
  const h = res.h;
  expect(h["x-content-type-options"], what).toBe("nosniff");
  expect(h["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(h["cross-origin-opener-policy"], what).toBe("same-origin");
  expect(h["cross-origin-resource-policy"], what).toBe("same-origin");
  expect(h["x-frame-options"], what).toBe("SAMEORIGIN");
  expect(h["x-powered-by"], what).toBeUndefined();
  // Over plain http (a developer's localhost) no HSTS: it would lock the browser out of http.
  expect(h["strict-transport-security"], what).toBeUndefined();
  const csp = directives(h["content-security-policy"] ?? "");
  expect(csp["default-src"], what).toBe("default-src 'self'");
  expect(csp["object-src"], what).toBe("object-src 'none'");
  expect(csp["base-uri"], what).toBe("base-uri 'none'");
  expect(csp["frame-ancestors"], what).toBe("frame-ancestors 'none'");
  expect(csp["form-action"], what).toBe("form-action 'self'");
  expect(csp["script-src"], what).not.toMatch(/unsafe-inline|unsafe-eval/);
  return csp;
}

test.describe("security headers and cookie flags", () => {
  test("every kind of answer carries the security headers; scripts run only on pages, by hash or by nonce", async ({ services }) => {
    const member = await createAccount(services, "member");
    const staff = await createAccount(services, "super_admin");
    const memberCookie = await signedIn({ username: member.certificate!, password: MEMBER_PASSWORD });
    const staffCookie = await signedIn({ username: staff.username!, password: STAFF_PASSWORD, kind: "staff" });

    const home = await call("/");
    const asset = home.text.match(/\/assets\/[^"']+\.js/)?.[0];
    expect(asset).toBeTruthy();

    const answers: Array<{ what: string; res: Answer; kind: "public page" | "kept 404" | "own page" | "not a page"; status: number }> = [
      { what: "home page", res: home, kind: "public page", status: 200 },
      { what: "calculator", res: await call("/mortgage-calculator"), kind: "public page", status: 200 },
      { what: "sign-in page", res: await call("/login"), kind: "public page", status: 200 },
      { what: "unknown page", res: await call("/no-such-page"), kind: "kept 404", status: 404 },
      { what: "unknown page, member", res: await call("/no-such-page", { cookie: memberCookie }), kind: "own page", status: 404 },
      { what: "knowledge center, member", res: await call("/knowledge-center", { cookie: memberCookie }), kind: "own page", status: 200 },
      { what: "home page, member", res: await call("/", { cookie: memberCookie }), kind: "own page", status: 200 },
      { what: "admin, staff", res: await call("/admin/dashboard", { cookie: staffCookie }), kind: "own page", status: 200 },
      { what: "guarded page, anonymous", res: await call("/application"), kind: "own page", status: 401 },
      { what: "JSON, member", res: await call("/api/auth/me", { cookie: memberCookie }), kind: "not a page", status: 200 },
      { what: "JSON refused", res: await call("/api/rss/articles"), kind: "not a page", status: 401 },
      { what: "JSON unreadable", res: await call("/api/forms", { json: "{" }), kind: "not a page", status: 400 },
      { what: "health", res: await call("/healthz"), kind: "not a page", status: 200 },
      { what: "static file", res: await call("/favicon.svg"), kind: "not a page", status: 200 },
      { what: "robots.txt", res: await call("/robots.txt"), kind: "not a page", status: 200 },
    ];
    for (const { what, res, kind, status } of answers) {
      expect(res.status, what).toBe(status);
      const csp = expectBaseline(res, what);
      const cache = res.h["cache-control"] ?? "";
      if (kind === "not a page") expect(csp["script-src"], what).toBe("script-src 'none'");
      else if (kind === "public page") {
        // Kept and shared (a CDN may keep it too): its scripts named by hash, never a nonce.
        expect(csp["script-src"], what).toMatch(/^script-src( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
        expect(cache, what).toContain("s-maxage");
      } else if (kind === "kept 404") {
        // The 404 page of unknown paths, kept for every anonymous visitor: by hash, and not shared by a CDN.
        expect(csp["script-src"], what).toMatch(/^script-src( 'sha256-[A-Za-z0-9+/=]+')+ 'strict-dynamic'$/);
        expect(cache, what).not.toContain("s-maxage");
      } else {
        expect(csp["script-src"], what).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'$/);
      }
      // Whatever is answered to a signed-in visitor is theirs alone.
      if (/member|staff/.test(what)) expect(cache, what).toBe("private, no-store");
    }
    // The build's hashed files are answered before any other middleware (decision 007): a script
    // or style is never a document, so it carries what matters for one: its type, kept as
    // declared, and readable by this site only.
    const script = await call(asset!);
    expect(script.status).toBe(200);
    expect(script.h["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(script.h["x-content-type-options"]).toBe("nosniff");
    expect(script.h["cross-origin-resource-policy"]).toBe("same-origin");
    expect(script.h["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.h["x-powered-by"]).toBeUndefined();

    // A nonce is never used twice.
    const policies = await Promise.all(
      [1, 2].map(async () => (await call("/knowledge-center", { cookie: memberCookie })).h["content-security-policy"]),
    );
    expect(policies[0]).not.toBe(policies[1]);
  });

  test("the session cookie is HttpOnly, SameSite=Lax and host-wide; over HTTPS it is __Host- and Secure, with HSTS", async ({
    services,
  }) => {
    const staff = await createAccount(services, "limited_admin");
    const login = JSON.stringify({ username: staff.username!, password: STAFF_PASSWORD, kind: "staff" });

    // Plain http (localhost): a cookie without Secure, or the browser would drop it.
    const plain = await call("/api/auth/login", { json: login });
    expect(plain.status).toBe(200);
    const cookie = plain.setCookie[0];
    expect(cookie).toMatch(/^aha_session=[^;]{32,};/);
    expect(flags(cookie)).toEqual(["expires", "httponly", "path=/", "samesite=lax"]);
    const logout = await call("/api/auth/logout", { method: "POST", cookie: cookie.split(";")[0] });
    const cleared = logout.setCookie[0];
    expect(cleared).toMatch(/^aha_session=;/);
    expect(flags(cleared)).toEqual(["httponly", "max-age=0", "path=/", "samesite=lax"]);

    // Behind a TLS-terminating proxy (TRUST_PROXY): HSTS, and a __Host- cookie with Secure.
    test.slow(); // starts a second copy of the site
    const site = await startSecondSite({ TRUST_PROXY: "loopback" });
    try {
      const https = { "X-Forwarded-Proto": "https" };
      const secure = await call("/api/auth/login", { base: site.url, json: login, headers: https });
      expect(secure.status).toBe(200);
      expect(secure.h["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      const secureCookie = secure.setCookie[0];
      expect(secureCookie).toMatch(/^__Host-aha_session=[^;]{32,};/);
      expect(flags(secureCookie)).toEqual(["expires", "httponly", "path=/", "samesite=lax", "secure"]);
      for (const path of ["/", "/healthz", "/favicon.svg"]) {
        const res = await call(path, { base: site.url, headers: https });
        expect(res.h["strict-transport-security"], path).toBe("max-age=31536000; includeSubDomains");
      }
      // Without the trusted proxy's word it is plain http: no HSTS.
      expect((await call("/", { base: site.url })).h["strict-transport-security"]).toBeUndefined();
    } finally {
      await site.close();
    }
  });
});

/** The cookie's attributes, names lower-cased, values kept only where they matter, sorted. */
function flags(setCookie: string): string[] {
  return setCookie
    .split(";")
    .slice(1)
    .map((part) => part.trim().toLowerCase())
    .map((part) => (part.startsWith("expires=") ? "expires" : part))
    .sort();
}

async function signedIn(body: Record<string, string>) {
  const res = await call("/api/auth/login", { json: JSON.stringify(body) });
  expect(res.status, res.text).toBe(200);
  return res.setCookie[0].split(";")[0];
}
