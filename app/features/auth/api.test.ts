import express from "express";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, sessionCookieFrom, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { apiRequireAdmin, apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { apiErrorHandler } from "~/platform/http.server";
import { guardRows, sessionKey } from "../../../tests/support/row-guard";
import { sessionMiddleware } from "./api.server";
import { sessionIdHash } from "./credentials.server";
import { INVALID_CREDENTIALS, INVALID_STAFF_CREDENTIALS } from "./auth.server";
import { TOO_MANY_ACCOUNT, TOO_MANY_IP } from "./throttle.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("auth API", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function addMember(certificate: string, birthdate = "1985-03-07", active = true) {
    const { auth } = server.services;
    const { id } = await auth.users.createMember({
      certificate,
      birthdateDigest: auth.digestBirthdate(birthdate),
      firstName: "Dana",
      lastName: "Reyes",
    });
    if (!active) await auth.setActive(id, false);
    return id;
  }
  const login = (body: unknown, headers: Record<string, string> = {}, path = "/api/auth/login") =>
    server.request(path, { method: "POST", json: body, headers });

  describe("members", () => {
    it("signs in with certificate number and normalized birthdate, and /me knows them", async () => {
      await addMember("AHA1001");
      const res = await login({ username: "AHA1001", password: "030785" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({
        success: true,
        user: {
          id: expect.any(Number),
          certificate_number: "AHA1001",
          username: null,
          first_name: "Dana",
          last_name: "Reyes",
          admin: false,
          role: "user",
          is_active: true,
          is_core_admin: false,
        },
      });
      const cookie = sessionCookieFrom(res);
      const me = await (await server.request("/api/auth/me", { cookie })).json();
      expect(me.user.certificate_number).toBe("AHA1001");
    });

    it("normalizes on the server too: lower-case certificate with spaces, YYYY-MM-DD and MMDDYYYY birthdates", async () => {
      await addMember("AHA1002", "1990-12-01");
      for (const password of ["1990-12-01", "12011990", "120190", "12/01/90"]) {
        const res = await login({ username: "  aha1002 ", password });
        expect(res.status, password).toBe(200);
      }
    });

    it("answers the same generic message for a wrong birthdate and an unknown certificate", async () => {
      await addMember("AHA1003");
      const wrong = await login({ username: "AHA1003", password: "030786" });
      const unknown = await login({ username: "NOPE9999", password: "030785" });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(await wrong.json()).toEqual({ success: false, error: INVALID_CREDENTIALS });
      expect(await unknown.json()).toEqual({ success: false, error: INVALID_CREDENTIALS });
      expect(wrong.headers.getSetCookie()).toEqual([]);
    });

    it("refuses an inactive member with the answer a wrong birthdate gets, so the right one cannot be confirmed (issue 39)", async () => {
      await addMember("AHA1004", "1985-03-07", false);
      const right = await login({ username: "AHA1004", password: "030785" });
      const wrong = await login({ username: "AHA1004", password: "030786" });
      expect(right.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(await right.json()).toEqual({ success: false, error: INVALID_CREDENTIALS });
      expect(await wrong.json()).toEqual({ success: false, error: INVALID_CREDENTIALS });
      expect(right.headers.getSetCookie()).toEqual([]);
    });

    it("never makes a member an admin through the staff form", async () => {
      await addMember("AHA1005");
      const res = await login({ username: "AHA1005", password: "030785", kind: "staff" });
      expect(res.status).toBe(401);
    });
  });

  describe("staff", () => {
    it("signs in with username and password on the spec's alias path", async () => {
      await server.services.auth.createStaff("Chief", "a-long-password-1", "super_admin");
      const res = await login({ username: "chief", password: "a-long-password-1", kind: "staff" }, {}, "/.netlify/functions/admin-login");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.user).toMatchObject({ username: "chief", role: "super_admin", admin: true, certificate_number: null });
    });

    it("refuses a wrong password with the generic staff message", async () => {
      await server.services.auth.createStaff("helper1", "a-long-password-2", "limited_admin");
      const res = await login({ username: "helper1", password: "a-long-password-X", kind: "staff" });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe(INVALID_STAFF_CREDENTIALS);
    });

    it("rejects passwords under 12 characters when creating staff", async () => {
      await expect(server.services.auth.createStaff("short", "short-pass", "limited_admin")).rejects.toThrow(/at least 12/);
    });

    it("ends every session when the password changes", async () => {
      const { cookie } = await loginAs(server, "limited_admin", { username: "pwchange" });
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).not.toBeNull();
      await server.services.auth.setPassword("pwchange", "another-long-password");
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
    });
  });

  describe("sessions", () => {
    it("logout revokes the session on the server, on both paths", async () => {
      for (const path of ["/api/auth/logout", "/.netlify/functions/logout"]) {
        const { cookie } = await loginAs(server, "member");
        const out = await server.request(path, { method: "POST", cookie });
        expect(out.status).toBe(200);
        expect(out.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
        // The old cookie, replayed, no longer works.
        expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
      }
    });

    it("issues a new session id at every login and ends the previous one", async () => {
      await addMember("AHA1006");
      const first = sessionCookieFrom(await login({ username: "AHA1006", password: "030785" }));
      const second = sessionCookieFrom(await login({ username: "AHA1006", password: "030785" }, { Cookie: first }));
      expect(second).not.toBe(first);
      expect((await (await server.request("/api/auth/me", { cookie: first })).json()).user).toBeNull();
      expect((await (await server.request("/api/auth/me", { cookie: second })).json()).user).not.toBeNull();
    });

    it("deactivation ends the account's sessions", async () => {
      const { cookie, userId } = await loginAs(server, "member");
      await server.services.auth.setActive(userId, false);
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
    });

    it("refuses a live session once its account is inactive, even when nothing revoked the session", async () => {
      // Another path (a direct update, another instance, a future admin screen) may flip the
      // flag without ending sessions: resolve() itself must check it.
      const { cookie, userId } = await loginAs(server, "member");
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).not.toBeNull();
      await server.services.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", userId).execute();
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
      // And the session is gone, not just hidden: reactivating the account does not bring it back.
      await server.services.database.db.updateTable("users").set({ is_active: 1 }).where("id", "=", userId).execute();
      expect((await (await server.request("/api/auth/me", { cookie })).json()).user).toBeNull();
    });

    it("expires staff after 30 idle minutes and members after 7 idle days", async () => {
      const { sessions, users } = server.services.auth;
      const now = Date.now();
      const staff = await users.findStaffByUsername((await loginAs(server, "super_admin", { username: "idle-staff" })) && "idle-staff");
      const s = await sessions.create(staff!, false, now);
      expect(await sessions.resolve(s.token, false, now + 29 * 60_000)).not.toBeNull();
      expect(await sessions.resolve(s.token, false, now + 29 * 60_000 + 31 * 60_000)).toBeNull();
      // Exactly 30 idle minutes is too many; staff stay at most 12 hours even when active every 20 minutes.
      const edge = await sessions.create(staff!, false, now);
      expect(await sessions.resolve(edge.token, false, now + 30 * 60_000)).toBeNull();
      const busy = await sessions.create(staff!, false, now);
      for (let minute = 20; minute < 12 * 60; minute += 20)
        expect(await sessions.resolve(busy.token, false, now + minute * 60_000), `${minute}`).not.toBeNull();
      expect(await sessions.resolve(busy.token, false, now + 12 * 3_600_000)).toBeNull();

      const memberId = await addMember("AHA1007");
      const member = (await users.findById(memberId))!;
      const m = await sessions.create(member, false, now);
      expect(await sessions.resolve(m.token, false, now + 6 * 86_400_000)).not.toBeNull();
      expect(await sessions.resolve(m.token, false, now + 6 * 86_400_000 + 8 * 86_400_000)).toBeNull();
      // Absolute limit: 30 days even when active every day.
      const a = await sessions.create(member, false, now);
      for (let day = 5; day < 30; day += 5) expect(await sessions.resolve(a.token, false, now + day * 86_400_000)).not.toBeNull();
      expect(await sessions.resolve(a.token, false, now + 30 * 86_400_000 + 1000)).toBeNull();
    });

    it("clears abandoned sessions past their absolute limit when a new one starts", async () => {
      const { sessions, users } = server.services.auth;
      const memberId = await addMember("AHA1010");
      const member = (await users.findById(memberId))!;
      const longAgo = Date.now() - 31 * 86_400_000;
      await sessions.create(member, false, longAgo);
      const countFor = async () =>
        Number(
          (
            await server.services.database.db
              .selectFrom("sessions")
              .select((eb) => eb.fn.countAll().as("n"))
              .where("user_id", "=", memberId)
              .executeTakeFirst()
          )?.n,
        );
      expect(await countFor()).toBe(1);
      await sessions.create(member, false);
      expect(await countFor()).toBe(1);
    });

    it("sets an HttpOnly, SameSite=Lax cookie; __Host- and Secure behind HTTPS", async () => {
      await addMember("AHA1008");
      const plain = (await login({ username: "AHA1008", password: "030785" })).headers.getSetCookie()[0];
      expect(plain).toMatch(/^aha_session=[A-Za-z0-9_-]{43};/);
      expect(plain).toMatch(/HttpOnly/);
      expect(plain).toMatch(/SameSite=Lax/);
      expect(plain).toMatch(/Path=\//);
      expect(plain).not.toMatch(/Secure/);

      const https = await startTestServer(dialect, { TRUST_PROXY: "1" });
      try {
        const { auth } = https.services;
        await auth.users.createMember({ certificate: "AHA1009", birthdateDigest: auth.digestBirthdate("1985-03-07") });
        const res = await https.request("/api/auth/login", {
          method: "POST",
          json: { username: "AHA1009", password: "030785" },
          headers: { "X-Forwarded-Proto": "https" },
        });
        const cookie = res.headers.getSetCookie()[0];
        expect(cookie).toMatch(/^__Host-aha_session=/);
        expect(cookie).toMatch(/Secure/);
        expect(res.headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
      } finally {
        await https.close();
      }
    });

    it("accepts a session token only under the cookie name and scheme it was issued for", async () => {
      const proxied = await startTestServer(dialect, { TRUST_PROXY: "1" });
      try {
        const { auth } = proxied.services;
        await auth.users.createMember({ certificate: "AHA1011", birthdateDigest: auth.digestBirthdate("1985-03-07") });
        const overHttps = { "X-Forwarded-Proto": "https" };
        const signIn = async (headers: Record<string, string>) => {
          const res = await proxied.request("/api/auth/login", {
            method: "POST",
            json: { username: "AHA1011", password: "030785" },
            headers,
          });
          expect(res.status).toBe(200);
          return sessionCookieFrom(res).split("=")[1];
        };
        const me = async (cookie: string, headers: Record<string, string> = {}) =>
          (await (await proxied.request("/api/auth/me", { cookie, headers })).json()).user;

        // Issued over HTTPS as __Host-aha_session: good there, refused as aha_session over plain HTTP.
        const secureToken = await signIn(overHttps);
        expect(await me(`__Host-aha_session=${secureToken}`, overHttps)).not.toBeNull();
        expect(await me(`aha_session=${secureToken}`)).toBeNull();
        expect(await me(`aha_session=${secureToken}; __Host-aha_session=${secureToken}`)).toBeNull();
        // It crossed the network in the clear: it is ended, on HTTPS too.
        expect(await me(`__Host-aha_session=${secureToken}`, overHttps)).toBeNull();

        // Issued over plain HTTP as aha_session: refused as __Host-aha_session over HTTPS.
        const plainToken = await signIn({});
        expect(await me(`__Host-aha_session=${plainToken}`, overHttps)).toBeNull();
        expect(await me(`aha_session=${plainToken}`, overHttps)).toBeNull();
        expect(await me(`aha_session=${plainToken}`)).not.toBeNull();
      } finally {
        await proxied.close();
      }
    });
  });

  describe("throttling", () => {
    it("answers 429 after 5 failed attempts on one account, even with the right birthdate", async () => {
      await addMember("AHA2001");
      const ip = { "X-Test": "1" };
      for (let i = 0; i < 5; i++) expect((await login({ username: "AHA2001", password: "000000" }, ip)).status).toBe(401);
      const blocked = await login({ username: "AHA2001", password: "030785" });
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toEqual({ success: false, error: TOO_MANY_ACCOUNT });
      expect(blocked.headers.get("retry-after")).toBe("900");
    });

    it("answers 429 to an IP after 20 failures across accounts", async () => {
      const other = await startTestServer(dialect);
      try {
        for (let i = 0; i < 20; i++) {
          const res = await other.request("/api/auth/login", { method: "POST", json: { username: `GUESS${i}`, password: "010101" } });
          expect(res.status).toBe(401);
        }
        const res = await other.request("/api/auth/login", { method: "POST", json: { username: "GUESS-NEW", password: "010101" } });
        expect(res.status).toBe(429);
        expect((await res.json()).error).toBe(TOO_MANY_IP);
      } finally {
        await other.close();
      }
    });
  });

  describe("input and cross-site checks", () => {
    it("answers 400 with a clear message to bad bodies", async () => {
      const cases: [unknown, RegExp][] = [
        [{}, /required/i],
        [{ username: "AHA1" }, /Birthdate is required/],
        [{ username: "", password: "010101" }, /Certificate number is required/],
        [{ username: 12, password: [] }, /./],
        [{ username: "A", password: "1", kind: "root" }, /./],
        ["just a string", /./],
      ];
      for (const [body, message] of cases) {
        const res = await login(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        const json = await res.json();
        expect(json.success).toBe(false);
        expect(json.error).toMatch(message);
      }
      const broken = await server.request("/api/auth/login", {
        method: "POST",
        body: "{not json",
        headers: { "Content-Type": "application/json" },
      });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ success: false, error: "Request body is not valid JSON" });
      const textPlain = await server.request("/api/auth/login", {
        method: "POST",
        body: "x".repeat(2_000_000),
        headers: { "Content-Type": "text/plain" },
      });
      expect(textPlain.status).toBe(413);
    });

    it("refuses cross-site state changes by Sec-Fetch-Site, else by Origin", async () => {
      const body = { username: "X", password: "010101" };
      expect((await login(body, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
      expect((await login(body, { Origin: "https://evil.example" })).status).toBe(403);
      expect((await login(body, { Origin: server.url })).status).toBe(401);
      expect((await login(body, { "Sec-Fetch-Site": "same-origin", Origin: server.url })).status).toBe(401);
      const res = await server.request("/api/auth/logout", { method: "POST", headers: { Origin: "https://evil.example" } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ success: false, error: "Cross-site request refused" });
    });

    it("answers unknown API paths with JSON 404 and no stack", async () => {
      const res = await server.request("/api/nothing-here");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "No such API endpoint" });
    });

    it("sends a CSP that runs no script in an API answer, and the other security headers", async () => {
      const res = await server.request("/healthz");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", database: "ok", dialect });
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/(^|;)script-src 'none'(;|$)/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/base-uri 'none'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    });
  });

  describe("role checks", () => {
    let guarded: { url: string; close: () => Promise<void> };
    beforeAll(async () => {
      const app = express();
      app.use(sessionMiddleware(server.services));
      app.get("/user", apiRequireUser, (_q, r) => void r.json({ ok: "user" }));
      app.get("/admin", apiRequireAdmin, (_q, r) => void r.json({ ok: "admin" }));
      app.get("/super", apiRequireSuperAdmin, (_q, r) => void r.json({ ok: "super" }));
      app.use(apiErrorHandler(server.services.logger));
      const s = await new Promise<Server>((resolve) => {
        const x = app.listen(0, "127.0.0.1", () => resolve(x));
      });
      guarded = { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise((r) => s.close(() => r())) };
    });
    afterAll(() => guarded.close());

    it("lets each role through exactly the doors it may use", async () => {
      const who = {
        anonymous: "",
        member: (await loginAs(server, "member")).cookie,
        limited: (await loginAs(server, "limited_admin")).cookie,
        super: (await loginAs(server, "super_admin")).cookie,
      };
      const expected: Record<keyof typeof who, [number, number, number]> = {
        anonymous: [401, 401, 401],
        member: [200, 403, 403],
        limited: [200, 200, 403],
        super: [200, 200, 200],
      };
      for (const [name, cookie] of Object.entries(who) as [keyof typeof who, string][]) {
        const statuses = await Promise.all(
          ["/user", "/admin", "/super"].map(
            async (p) => (await fetch(guarded.url + p, { headers: cookie ? { Cookie: cookie } : {} })).status,
          ),
        );
        expect(statuses, name).toEqual(expected[name]);
      }
    });
  });

  describe("rows a change must not touch", () => {
    const db = () => server.services.database.db;
    let certificates = 0;
    /** A member signed in twice, and a staff account signed in once: sessions that must outlive other people's changes. */
    async function bystanders() {
      const certificate = `AHA-NEAR-${++certificates}`;
      const id = await addMember(certificate);
      const sessions = [
        sessionCookieFrom(await login({ username: certificate, password: "030785" })),
        sessionCookieFrom(await login({ username: certificate, password: "030785" })),
      ];
      const staff = await loginAs(server, "limited_admin");
      return { id, sessions, staff };
    }

    it("logout ends that one session, on both paths", async () => {
      await bystanders();
      for (const path of ["/api/auth/logout", "/.netlify/functions/logout"]) {
        const { cookie } = await loginAs(server, "member");
        const guard = await guardRows(db(), ["users", "sessions"]);
        expect((await server.request(path, { method: "POST", cookie })).status).toBe(200);
        await guard.expectChanges({ sessions: { removed: [sessionKey(cookie)] } });
      }
    });

    it("a login adds one session, ends the one it replaces, and records the sign-in on that account only", async () => {
      await bystanders();
      const id = await addMember("AHA-RELOGIN");
      const first = sessionCookieFrom(await login({ username: "AHA-RELOGIN", password: "030785" }));
      const guard = await guardRows(db(), ["users", "sessions"]);
      const second = sessionCookieFrom(await login({ username: "AHA-RELOGIN", password: "030785" }, { Cookie: first }));
      const changes = await guard.expectChanges({
        users: { changed: [id], columns: ["last_login_at"] },
        sessions: { added: 1, removed: [sessionKey(first)] },
      });
      expect(changes.sessions.added[0].id_hash).toBe(sessionKey(second));
    });

    it("deactivating an account (auth.setActive) changes that account and ends its sessions only", async () => {
      const near = await bystanders();
      const { cookie, userId } = await loginAs(server, "member");
      const guard = await guardRows(db(), ["users", "sessions"]);
      await server.services.auth.setActive(userId, false);
      await guard.expectChanges({
        users: { changed: [userId], columns: ["is_active", "updated_at"] },
        sessions: { removed: [sessionKey(cookie)] },
      });
      expect((await (await server.request("/api/auth/me", { cookie: near.sessions[0] })).json()).user).not.toBeNull();
    });

    it("a password change (auth.setPassword) changes that account and ends its sessions only", async () => {
      const near = await bystanders();
      const username = `pw-change-${dialect}`;
      const { cookie, userId } = await loginAs(server, "limited_admin", { username });
      const guard = await guardRows(db(), ["users", "sessions"]);
      await server.services.auth.setPassword(username, "a-brand-new-password");
      await guard.expectChanges({
        users: { changed: [userId], columns: ["password_hash", "updated_at"] },
        sessions: { removed: [sessionKey(cookie)] },
      });
      expect((await (await server.request("/api/auth/me", { cookie: near.staff.cookie })).json()).user).not.toBeNull();
    });

    it("reading a session touches, or ends when expired or on the wrong scheme, that session only", async () => {
      await bystanders();
      const { sessions, users } = server.services.auth;
      const member = (await users.findById(await addMember("AHA-RESOLVE")))!;
      const now = Date.now();
      // The same member's other sessions, on both schemes, stay as they are.
      await sessions.create(member, false, now);
      await sessions.create(member, true, now);
      const s = await sessions.create(member, false, now);

      let guard = await guardRows(db(), ["users", "sessions"]);
      expect(await sessions.resolve(s.token, false, now + 5 * 60_000)).not.toBeNull();
      await guard.expectChanges({ sessions: { changed: [sessionIdHash(s.token)], columns: ["last_seen_at"] } });

      guard = await guardRows(db(), ["users", "sessions"]);
      expect(await sessions.resolve(s.token, false, now + 31 * 86_400_000)).toBeNull();
      await guard.expectChanges({ sessions: { removed: [sessionIdHash(s.token)] } });

      const secure = await sessions.create(member, true, now);
      guard = await guardRows(db(), ["users", "sessions"]);
      expect(await sessions.resolve(secure.token, false, now)).toBeNull();
      await guard.expectChanges({ sessions: { removed: [sessionIdHash(secure.token)] } });

      const stale = await sessions.create(member, false, now - 8 * 86_400_000);
      guard = await guardRows(db(), ["users", "sessions"]);
      expect(await sessions.resolve(stale.token, false, now)).toBeNull();
      await guard.expectChanges({ sessions: { removed: [sessionIdHash(stale.token)] } });
    });

    it("starting a session clears only sessions past their absolute limit", async () => {
      await bystanders();
      const { sessions, users } = server.services.auth;
      const member = (await users.findById(await addMember("AHA-PRUNE")))!;
      const now = Date.now();
      const abandoned = await sessions.create(member, false, now - 31 * 86_400_000);
      // Idle past its limit but within its absolute one: it is ended when next read, not by the prune.
      await sessions.create(member, false, now - 29 * 86_400_000);
      const guard = await guardRows(db(), ["users", "sessions"]);
      const fresh = await sessions.create(member, false, now);
      await guard.expectChanges({ sessions: { added: 1, removed: [sessionIdHash(abandoned.token)] } });
      expect(await sessions.resolve(fresh.token, false, now)).not.toBeNull();
    });
  });
});
