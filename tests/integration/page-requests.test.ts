import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { rawRequest } from "../support/raw-http";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** Odd requests to the pages: each is the caller's mistake (4xx), never a 500. */
describeEachDatabase("page requests", (dialect) => {
  let server: PageTestServer;
  beforeAll(async () => {
    server = await startPageTestServer(dialect);
  });
  afterAll(() => server.close());

  const ACTION_PAGES = ["/contact-us", "/form-requests", "/login", "/make-payment", "/logout"];

  describe("page actions read only a posted form", () => {
    const bodies: Array<[string, Record<string, string>, string | undefined]> = [
      ["a JSON body", { "Content-Type": "application/json" }, JSON.stringify({ name: "Dana", email: "d@example.com" })],
      ["a text/plain body", { "Content-Type": "text/plain" }, "name=Dana"],
      ["no body", {}, undefined],
      ["a JSON content type with no body", { "Content-Type": "application/json" }, undefined],
      ["a broken multipart boundary", { "Content-Type": "multipart/form-data; boundary=xyz" }, "--abc\r\nnot a part\r\n"],
      ["multipart without a boundary", { "Content-Type": "multipart/form-data" }, "name=Dana"],
    ];
    for (const page of ACTION_PAGES) {
      it.each(bodies)(`${page}: %s is a 400`, async (_what, headers, body) => {
        const res = await server.request(page, { method: "POST", headers, body });
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("The form could not be read");
      });
    }

    it("/application (a signed-in member's page): each malformed body is a 400, and no line is logged as an error", async () => {
      const { cookie } = await loginAs(server, "member");
      const errors = vi.spyOn(server.services.logger, "error");
      try {
        for (const [what, headers, body] of bodies) {
          const res = await server.request("/application", { method: "POST", cookie, headers, body });
          expect(res.status, what).toBe(400);
          expect(await res.text(), what).toContain("The form could not be read");
        }
        for (const [what, headers, body] of bodies) {
          const res = await server.request("/application.data", { method: "POST", cookie, headers, body });
          expect(res.status, `.data: ${what}`).toBe(400);
        }
        // The public pages' actions too.
        for (const page of ACTION_PAGES) {
          const res = await server.request(page, { method: "POST", cookie, headers: { "Content-Type": "text/plain" }, body: "x" });
          expect(res.status, page).toBe(400);
        }
        expect(errors.mock.calls.map((call) => call[1])).toEqual([]);
      } finally {
        errors.mockRestore();
      }
    });

    it("a real form post still works (the payment hand-over)", async () => {
      const res = await server.request("/make-payment", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "option=membership",
      });
      expect(res.status).toBe(200);
    });

    it("Log Out without JavaScript (an empty form) still signs out", async () => {
      const { cookie } = await loginAs(server, "member");
      const res = await server.request("/logout", {
        method: "POST",
        cookie,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
    });
  });

  describe("methods", () => {
    for (const page of [...ACTION_PAGES, "/", "/about-us"]) {
      it(`${page}: DELETE, PUT and PATCH are 405 with Allow`, async () => {
        for (const method of ["DELETE", "PUT", "PATCH"]) {
          const res = await server.request(page, { method, headers: { "Content-Type": "application/json" }, body: "{}" });
          expect(res.status, method).toBe(405);
          expect(res.headers.get("allow"), method).toBe("GET, HEAD, POST");
        }
      });
    }

    // fetch and Node's client refuse to send these: a raw socket does.
    for (const method of ["TRACE", "OPTIONS"]) {
      for (const page of ["/", "/contact-us", "/knowledge-center", "/no-such-page"]) {
        it(`${method} ${page} is a 405`, async () => {
          const res = await rawRequest(server.port, `${method} ${page} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`);
          expect(res.status).toBe(405);
          expect(res.headers.allow).toBe("GET, HEAD, POST");
        });
      }
    }

    it("TRACK is refused by Node's parser before the app: a 400", async () => {
      const res = await rawRequest(server.port, `TRACK / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`);
      expect(res.status).toBe(400);
    });

    it("CONNECT is a 405, not a dropped connection", async () => {
      const res = await rawRequest(server.port, `CONNECT 127.0.0.1:${server.port} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`);
      expect(res.status).toBe(405);
    });
  });

  describe("a POST to a page without an action", () => {
    it.each(["/admin/dashboard", "/admin", "/", "/?index", "/about-us", "/knowledge-center", "/privacy-policy"])(
      "POST %s is a plain 405 allowing GET and HEAD",
      async (page) => {
        const { cookie } = await loginAs(server, "super_admin");
        for (const who of [undefined, cookie]) {
          const res = await server.request(page, {
            method: "POST",
            cookie: who,
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: "a=b",
          });
          expect(res.status).toBe(405);
          expect(res.headers.get("allow")).toBe("GET, HEAD");
          const text = await res.text();
          expect(text).not.toContain("did not provide an `action`");
          expect(JSON.parse(text)).toEqual({ success: false, error: "Method not allowed" });
        }
      },
    );

    it("pages with an action still take their form, and an unknown page is still a 404", async () => {
      const form = { "Content-Type": "application/x-www-form-urlencoded" };
      const contact = await server.request("/contact-us", { method: "POST", headers: form, body: "name=" });
      expect(contact.status).toBe(400);
      expect(await contact.text()).toContain("Contact Us");
      const missing = await server.request("/no-such-page", { method: "POST", headers: form, body: "a=b" });
      expect(missing.status).toBe(404);
      // React Router's client posts to the page's data URL: it reaches the action too.
      const { cookie } = await loginAs(server, "member");
      const logout = await server.request("/logout.data", { method: "POST", cookie, headers: form, body: "" });
      expect(logout.status).toBeLessThan(400);
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
      const contactData = await server.request("/contact-us.data", { method: "POST", headers: form, body: "name=" });
      expect(contactData.status).not.toBe(405);
    });
  });

  describe("every route without an action, from the route table", () => {
    /** Each route's address (its path joined to its parents'), and whether it has an action. */
    function routeAddresses(): Array<{ id: string; path: string; action: boolean }> {
      const routes = server.build.routes;
      const fullPath = (id: string): string | null => {
        const route = routes[id]!;
        const own = route.index ? "" : (route.path ?? "");
        if (!route.parentId) return own;
        const parent = fullPath(route.parentId);
        return parent === null ? null : [parent, own].filter(Boolean).join("/");
      };
      return Object.values(routes)
        .filter((r) => r && (r.index || r.path) && r.path !== "*")
        .map((r) => ({ id: r!.id, path: `/${fullPath(r!.id)}`.replace(/\/+/g, "/"), action: typeof r!.module.action === "function" }));
    }

    it("the route table is read (pages with and without actions)", () => {
      const all = routeAddresses();
      expect(all.find((r) => r.path === "/about-us")?.action).toBe(false);
      expect(all.find((r) => r.path === "/contact-us")?.action).toBe(true);
      expect(all.filter((r) => !r.action).length).toBeGreaterThan(10);
    });

    it("POST to the page or to its .data address is the same plain 405, for every role", async () => {
      const cookies: Array<[string, string | undefined]> = [["anonymous", undefined]];
      for (const role of ["member", "limited_admin", "super_admin"] as const) cookies.push([role, (await loginAs(server, role)).cookie]);
      const form = { "Content-Type": "application/x-www-form-urlencoded" };
      for (const route of routeAddresses().filter((r) => !r.action)) {
        const dataPath = route.path === "/" ? "/_root.data" : `${route.path}.data`;
        const targets = route.path === "/" ? ["/", "/?index", dataPath, `${dataPath}?index`] : [route.path, dataPath];
        for (const [role, cookie] of cookies) {
          for (const target of targets) {
            const what = `${role} POST ${target} (${route.id})`;
            const res = await server.request(target, { method: "POST", cookie, headers: form, body: "a=b" });
            expect(res.status, what).toBe(405);
            expect(res.headers.get("allow"), what).toBe("GET, HEAD");
            const text = await res.text();
            expect(text, what).not.toMatch(/routes\/|did not provide an `action`/);
            expect(JSON.parse(text), what).toEqual({ success: false, error: "Method not allowed" });
          }
        }
      }
    }, 180_000);
  });

  describe("an address starting with two slashes", () => {
    // Without PUBLIC_URL, canonical links, the sitemap and robots.txt name the request's own origin.
    it.each([
      "//evil.example/contact-us",
      "//evil.example/",
      "//evil.example/robots.txt",
      "//evil.example/sitemap.xml",
      "///evil.example/about-us",
      "/\\evil.example/contact-us",
    ])("GET %s is a 404 that names no other host", async (path) => {
      const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`);
      expect(res.status).toBe(404);
      expect(res.raw).not.toContain("evil.example/");
      expect(res.raw).not.toMatch(/http:\/\/evil|\/\/evil\.example\//);
    });

    it.each(["//", "///", "//x", "///x"])("POST %s is a 404 or 405 for anyone, never a 500, and logs no error", async (path) => {
      const { cookie } = await loginAs(server, "member");
      const errors = vi.spyOn(server.services.logger, "error");
      try {
        for (const who of [undefined, cookie]) {
          const res = await rawRequest(
            server.port,
            Buffer.from(
              `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}${who ? `\r\nCookie: ${who}` : ""}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b`,
            ),
          );
          expect([404, 405], `${who ? "member" : "anonymous"} POST ${path}: ${res.raw}`).toContain(res.status);
          expect(res.body).not.toMatch(/Invalid URL|at .*\.(ts|js):\d+/);
        }
        expect(errors.mock.calls.map((call) => call[1])).toEqual([]);
      } finally {
        errors.mockRestore();
      }
    });

    it("the single-slash addresses name the site's own origin", async () => {
      const robots = await (await server.request("/robots.txt")).text();
      expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
      const page = await (await server.request("/contact-us")).text();
      expect(page).toContain(`<link rel="canonical" href="${server.url}/contact-us"/>`);
    });
  });

  describe("malformed percent-encoding in the address", () => {
    const BAD = ["%ff", "%80", "%C0%AE", "%ED%A0%80", "%c3%28", "%", "%zz"];
    const PATHS = [
      "/api/cases/:x",
      "/api/videos/:x",
      "/api/admin/members/:x",
      "/api/admin/staff/:x",
      "/api/admin/staff/:x/password",
      "/api/admin/submissions/:x",
    ];
    it("is a 400 on every API path with a parameter, whoever calls", async () => {
      const { cookie } = await loginAs(server, "super_admin");
      for (const path of PATHS) {
        for (const bad of BAD) {
          for (const method of ["GET", "PUT", "PATCH", "POST", "DELETE"]) {
            const res = await server.request(path.replace(":x", bad), { method, cookie, ...(method === "GET" ? {} : { json: {} }) });
            expect(res.status, `${method} ${path} ${bad}`).toBeLessThan(500);
            if (res.status !== 404 && res.status !== 405) {
              expect(res.status, `${method} ${path} ${bad}`).toBe(400);
              expect((await res.json()).error).toMatch(/malformed percent-encoded/);
            }
          }
        }
      }
      const res = await server.request("/api/cases/%ff", { cookie });
      expect(res.status).toBe(400);
    });

    it("pages and static files answer it with a 4xx too", async () => {
      for (const path of ["/%ff", "/about-us/%ED%A0%80", "/assets/%ff", "/favicon.svg%c3%28"]) {
        const res = await server.request(path);
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        expect(res.status, path).toBeLessThan(500);
      }
      // A visitor is sent to the members-only gate before the knowledge center reads its query.
      const gated = await server.request("/knowledge-center?category=%ff", { redirect: "manual" });
      expect([gated.status, gated.headers.get("location")]).toEqual([302, "/members-only"]);
    });
  });

  describe("a client that half-closes after its request", () => {
    it.each(["/", "/about-us", "/favicon.svg", "/robots.txt", "/healthz", "/api/featured-articles", "/no-such-page"])(
      "GET %s gets its whole answer",
      async (path) => {
        const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}`, { halfClose: true });
        expect(res.status).toBe(path === "/no-such-page" ? 404 : 200);
        if (res.headers["content-length"]) expect(Buffer.byteLength(res.body, "latin1")).toBe(Number(res.headers["content-length"]));
        else expect(res.body.endsWith("0\r\n\r\n")).toBe(true);
      },
    );
  });

  describe("Host header", () => {
    it.each(["a b", "evil:99999", "[::1", "%zz", "a:b:c", "evil.example:", "[::1]x", "1.2.3.999"])("Host %j is a 400", async (host) => {
      for (const path of ["/", "/contact-us", "/api/auth/me"]) {
        const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: ${host}`);
        expect(res.status, path).toBe(400);
      }
    });

    it.each(["127.0.0.1", "localhost:8080", "[::1]:3000", "aha.example", "my_app"])("Host %j is served", async (host) => {
      const res = await rawRequest(server.port, `GET /about-us HTTP/1.1\r\nHost: ${host}`);
      expect(res.status).toBe(200);
    });
  });

  describe("keep-alive", () => {
    it("many page requests over one connection add no listener to the socket", async () => {
      const sockets: Socket[] = [];
      const onConnection = (s: Socket) => sockets.push(s);
      // Signed in first: the sign-in's own request may open a connection of its own (when the
      // one kept from earlier tests was closed as idle, as on a slow machine), not counted here.
      const { cookie } = await loginAs(server, "member");
      server.server.on("connection", onConnection);
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on("warning", onWarning);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = (path: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get(`${server.url}${path}`, { agent, headers: { Cookie: cookie } }, (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            })
            .on("error", reject);
        });
      try {
        expect(await get("/about-us")).toBe(200);
        expect(sockets).toHaveLength(1);
        const socket = sockets[0];
        const before = socket.listenerCount("close");
        for (let i = 0; i < 30; i++) expect(await get(i % 2 ? "/knowledge-center" : "/about-us")).toBe(200);
        expect(sockets).toHaveLength(1);
        expect(socket.listenerCount("close")).toBe(before);
        await new Promise((r) => setImmediate(r));
        // This socket's warnings: the worker runs other files in the same process (isolate: false).
        expect(
          warnings.filter((w) => w.name === "MaxListenersExceededWarning" && (w as Error & { emitter?: unknown }).emitter === socket),
        ).toEqual([]);
      } finally {
        agent.destroy();
        process.off("warning", onWarning);
        server.server.off("connection", onConnection);
      }
    });
  });
});
