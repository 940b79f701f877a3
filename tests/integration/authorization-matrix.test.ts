import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import routes from "../../app/routes";
import { sessionCookieName } from "../../app/features/auth/cookie.server";
import { listApiRoutes } from "../support/api-routes";
import { describeEachDatabase } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * Who may call what: every API route (read from the Express routers themselves) and every page
 * (read from app/routes.ts), called as each kind of visitor. A route that has no row below
 * fails the test, so a new endpoint cannot ship without saying who may use it.
 *
 * Mutations are sent with an empty JSON body and ids of records that do not exist: a caller who
 * is let in gets the validation's 400 or the 404, one who is not gets 401 or 403 before any of
 * that. Each request carries a session made for it (a logout ends only its own).
 */
const ROLES = ["anonymous", "member", "inactiveMember", "limitedAdmin", "superAdmin"] as const;
type Role = (typeof ROLES)[number];
/** A status, or a status and the path a redirect leads to (query left out). */
type Answer = number | `${number} ${string}`;
type Row = readonly [Answer, Answer, Answer, Answer, Answer];

const everyone = (answer: Answer): Row => [answer, answer, answer, answer, answer];
/** Signed-in members and staff (an inactive member's session is ended: anonymous). */
const signedIn = (allowed: Answer, refused: Answer = 401): Row => [refused, allowed, refused, allowed, allowed];
/** Staff only: 401 without a session, 403 for a member. */
const staff = (allowed: Answer): Row => [401, 403, 401, allowed, allowed];
/** super_admin only. */
const superAdmin = (allowed: Answer): Row => [401, 403, 401, 403, allowed];

const API: Record<string, Row> = {
  "GET /healthz": everyone(200),
  "GET /readyz": everyone(200),
  // Only with the bearer token (METRICS_TOKEN): no session, not even super_admin's, is enough.
  "GET /metrics": everyone(401),
  "GET /api/openapi.json": everyone(200),
  "POST /api/auth/login": everyone(400),
  "POST /.netlify/functions/admin-login": everyone(400),
  "POST /api/auth/logout": everyone(200),
  "POST /.netlify/functions/logout": everyone(200),
  "GET /api/auth/me": everyone(200),
  "POST /api/forms": everyone(400),
  "POST /api/submit-contact-form": everyone(400),
  "POST /api/submit-cpa-request": everyone(400),
  "POST /api/submit-material-request": everyone(400),
  "POST /api/cpa-requests": everyone(400),
  "POST /api/homeowner-material-requests": everyone(400),
  "GET /api/admin/submissions": staff(200),
  "GET /api/admin/submissions/export": staff(200),
  "GET /api/admin/submissions/:id": staff(404),
  "POST /api/admin/submissions/:id/notes": staff(400),
  "POST /api/admin/submissions/:id/reply": staff(400),
  "PUT /api/admin/submissions/:id/assignee": staff(400),
  "GET /api/admin/forms": staff(200),
  "GET /.netlify/functions/admin-forms": staff(200),
  "PUT /api/admin/forms": staff(400),
  "PUT /.netlify/functions/admin-forms": staff(400),
  "DELETE /api/admin/forms": staff(400),
  "DELETE /.netlify/functions/admin-forms": staff(400),
  "GET /api/featured-articles": everyone(200),
  "GET /api/rss/articles": signedIn(200),
  // Any signed-in user may refresh the knowledge center (DESIGN.md, auth rule 8).
  "POST /api/rss/ingest": signedIn(200),
  // Following a run: the latest run here (the row above made one).
  "GET /api/rss/ingest/status": signedIn(200),
  "GET /api/rss/feeds": superAdmin(200),
  "POST /api/rss/feeds": superAdmin(400),
  "PUT /api/rss/feeds": superAdmin(400),
  "DELETE /api/rss/feeds": superAdmin(400),
  "OTHER /api/rss/feeds": everyone(405),
  "POST /api/rss/feeds/retry": superAdmin(400),
  "OTHER /api/rss/feeds/retry": everyone(405),
  "GET /api/rss/export": superAdmin(200),
  "GET /api/rss/health": superAdmin(200),
  "GET /api/admin/members": staff(200),
  "GET /api/admin/members/export": staff(200),
  "PATCH /api/admin/members/:id": staff(400),
  "PUT /api/admin/members/:id": staff(404),
  "DELETE /api/admin/members/:id": staff(404),
  "GET /api/admin/staff": superAdmin(200),
  "POST /api/admin/staff": superAdmin(400),
  "PATCH /api/admin/staff/:id": superAdmin(400),
  "POST /api/admin/staff/:id/password": superAdmin(400),
  "DELETE /api/admin/staff/:id": superAdmin(404),
  "GET /api/admin/audit": superAdmin(200),
  "GET /api/videos/categories": signedIn(200),
  "OTHER /api/videos/categories": everyone(405),
  "GET /api/videos": signedIn(200),
  "OTHER /api/videos": everyone(405),
  "POST /api/videos": superAdmin(400),
  "PUT /api/videos/order": superAdmin(400),
  "OTHER /api/videos/order": everyone(405),
  "PUT /api/videos/:id": superAdmin(400),
  "DELETE /api/videos/:id": superAdmin(404),
  "OTHER /api/videos/:id": everyone(405),
  "POST /api/applications": signedIn(400),
  "POST /api/admin/applications/:id/member": staff(400),
  "GET /api/admin/applications/:id/member-matches": staff(404),
  // A member's own account; staff have no membership (403).
  "GET /api/account": [401, 200, 401, 403, 403],
  "PUT /api/account/contact": [401, 200, 401, 403, 403],
  "GET /api/account/membership": [401, 200, 401, 403, 403],
  "GET /api/account/membership/card": [401, 200, 401, 403, 403],
  // Dues paid online (issue 40): the member's autopay; the provider's webhook (off here: 404 to all).
  "GET /api/account/membership/online": [401, 200, 401, 403, 403],
  // A member's Make a Payment: their plan's page when online payments are on, else the hand-off (everyone).
  "GET /api/account/membership/pay": everyone("302 /make-payment"),
  "POST /api/payments/stripe/webhook": everyone(404),
  "GET /api/admin/membership/unmatched-payments": staff(200),
  "POST /api/admin/membership/unmatched-payments/:id/assign": superAdmin(400),
  "POST /api/admin/membership/unmatched-payments/:id/handled": superAdmin(400),
  "POST /api/account/membership/card": [401, 200, 401, 403, 403],
  "GET /api/verify/:token": everyone(404),
  // Membership: any staff member records payments and plans; only a super_admin cancels.
  "GET /api/admin/members/:id/membership": staff(404),
  // Reminder mails: any staff member sees them, and who gets none for want of an address.
  "GET /api/admin/members/:id/membership/reminders": staff(404),
  "GET /api/admin/membership/reminders/without-email": staff(200),
  "PUT /api/admin/members/:id/membership/plan": staff(400),
  "POST /api/admin/members/:id/membership/payments": staff(400),
  "POST /api/admin/membership/payments/:id/refund": staff(400),
  "POST /api/admin/membership/payments/import": staff(400),
  "PUT /api/admin/members/:id/membership/co-insured": staff(400),
  "DELETE /api/admin/members/:id/membership/co-insured": staff(404),
  "POST /api/admin/members/:id/membership/cancel": superAdmin(400),
  "POST /api/admin/members/:id/membership/reinstate": superAdmin(400),
  // Any signed-in account ends its own other sessions (issue 30).
  "POST /api/account/sign-out-everywhere": signedIn(200),
  "POST /.netlify/functions/applications": signedIn(400),
  "GET /api/cases/:caseNumber": signedIn(404),
  "POST /api/upload-users": staff(400),
  // Announcements (issue 41): super_admin, and a limited_admin only when allowed in Staff (not here).
  "GET /api/admin/announcements": superAdmin(200),
  "POST /api/admin/announcements": superAdmin(400),
  "GET /api/admin/announcements/options": superAdmin(200),
  "POST /api/admin/announcements/audience": superAdmin(400),
  "POST /api/admin/announcements/preview": superAdmin(400),
  "POST /api/admin/announcements/test": superAdmin(400),
  "GET /api/admin/announcements/:id": superAdmin(404),
  "PUT /api/admin/announcements/:id": superAdmin(400),
  "DELETE /api/admin/announcements/:id": superAdmin(404),
  "POST /api/admin/announcements/:id/schedule": superAdmin(400),
  "POST /api/admin/announcements/:id/send": superAdmin(502),
  "POST /api/admin/announcements/:id/cancel": superAdmin(404),
  "GET /api/admin/announcements/:id/problems.csv": superAdmin(404),
  "GET /api/account/announcements": [401, 200, 401, 403, 403],
  "PUT /api/account/announcements": [401, 400, 401, 403, 403],
  // The unsubscribe link's one click (the token is the authority); any other body goes on to the page's action (400 here).
  "POST /unsubscribe/:token": everyone(400),
  // A staff account's e-mail and permissions (issue 41): super_admin only.
  "PUT /api/admin/staff/:id/settings": superAdmin(400),
};

/** Guarded pages answer a visitor without a session with the sign-in screen (401), in place. */
const signInScreen = 401;
const PAGES: Record<string, Row> = {
  "GET /": everyone(200),
  "GET /login": [200, "302 /knowledge-center", 200, "302 /admin/dashboard", "302 /admin/dashboard"],
  "GET /logout": everyone("302 /"),
  "GET /about-us": everyone(200),
  "GET /membership-benefits": everyone(200),
  "GET /members-only": everyone(200),
  "GET /privacy-policy": everyone(200),
  "GET /confirm-email": everyone(200),
  "GET /auth/confirm": everyone(200),
  "GET /auth/callback": everyone(200),
  "GET /email-confirmation": everyone(200),
  "GET /robots.txt": everyone(200),
  "GET /sitemap.xml": everyone(200),
  "GET /contact-us": everyone(200),
  "GET /form-requests": everyone(200),
  "GET /make-payment": everyone(200),
  "GET /mortgage-calculator": everyone(200),
  "GET /mortgage-calculator/print": everyone(200),
  "GET /verify/:token": everyone(404),
  "GET /account/email/:token": everyone(404),
  "GET /unsubscribe/:token": everyone(404),
  // A visitor goes to the members-only gate, where every Knowledge Center link takes them.
  "GET /knowledge-center": signedIn(200, "302 /members-only"),
  "GET /knowledge": signedIn(200, "302 /members-only"),
  "GET /application": signedIn(200, signInScreen),
  "GET /account": [signInScreen, 200, signInScreen, "302 /admin/dashboard", "302 /admin/dashboard"],
  "GET /admin": [signInScreen, "302 /", signInScreen, 200, 200],
  "GET /admin/dashboard": [signInScreen, "302 /", signInScreen, 200, 200],
  "GET /admin/rss": [signInScreen, "302 /", signInScreen, "302 /admin/dashboard", 200],
  "GET /admin/upload": [signInScreen, "302 /", signInScreen, 200, 200],
  "GET /admin/users": [signInScreen, "302 /", signInScreen, 200, 200],
  "GET /admin/members": [signInScreen, "302 /", signInScreen, 200, 200],
  "GET /no-such-page": everyone(404),
};

/** Every page of app/routes.ts as "GET /path" (the catch-all as an unknown path). */
function pageRoutes(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const here = entry.path === "*" ? ["GET /no-such-page"] : entry.path !== undefined || entry.index ? [`GET ${own || "/"}`] : [];
    return [...here, ...pageRoutes(entry.children ?? [], own)];
  });
}

describeEachDatabase("authorization matrix", (dialect) => {
  let server: PageTestServer;
  let sessionFor: (role: Role) => Promise<string | undefined>;
  let listedApi: string[];

  beforeAll(async () => {
    // GET /metrics is routed when its token is set.
    server = await startPageTestServer(dialect, { METRICS_TOKEN: "authorization-matrix-metrics" });
    const { auth } = server.services;
    const member = await auth.users.createMember({ certificate: "AUTHZ-M1", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    const inactive = await auth.users.createMember({ certificate: "AUTHZ-M2", birthdateDigest: auth.digestBirthdate("1980-01-15") });
    const limited = await auth.createStaff("authz-limited", "correct horse battery", "limited_admin");
    const superAdminAccount = await auth.createStaff("authz-super", "correct horse battery", "super_admin");
    const ids: Record<Exclude<Role, "anonymous">, number> = {
      member: member.id,
      inactiveMember: inactive.id,
      limitedAdmin: limited.id,
      superAdmin: superAdminAccount.id,
    };
    sessionFor = async (role) => {
      if (role === "anonymous") return undefined;
      const id = ids[role];
      await server.services.database.db.updateTable("users").set({ is_active: 1 }).where("id", "=", id).execute();
      const { token } = await auth.sessions.create((await auth.users.findById(id))!, false);
      if (role === "inactiveMember")
        await server.services.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", id).execute();
      return `${sessionCookieName(false)}=${token}`;
    };
    listedApi = listApiRoutes(server.services);
  });
  afterAll(() => server?.close());

  async function answerOf(key: string, role: Role): Promise<Answer> {
    const [listed, route] = key.split(" ");
    const method = listed === "OTHER" ? "PATCH" : listed;
    const id = route.startsWith("/api/admin/submissions/") ? "contact_999999" : "999999";
    const path = route.replace(":caseNumber", "00000").replace(/:id\b/g, id);
    const cookie = await sessionFor(role);
    const withBody = method !== "GET" && method !== "HEAD";
    const res = await server.request(path, { method, cookie, redirect: "manual", ...(withBody ? { json: {} } : {}) });
    await res.arrayBuffer();
    const location = res.headers.get("location");
    return location && res.status >= 300 && res.status < 400 ? `${res.status} ${new URL(location, server.url).pathname}` : res.status;
  }

  it("every API route of the routers and every page has a row, and every row a route", () => {
    expect(listedApi.filter((r) => !(r in API))).toEqual([]);
    expect(Object.keys(API).filter((r) => !listedApi.includes(r))).toEqual([]);
    const listedPages = pageRoutes(routes);
    expect(listedPages.filter((r) => !(r in PAGES))).toEqual([]);
    expect(Object.keys(PAGES).filter((r) => !listedPages.includes(r))).toEqual([]);
  });

  describe.each([
    ["API", API],
    ["pages", PAGES],
  ] as const)("%s", (_kind, table) => {
    it.each(Object.keys(table))("%s", async (key) => {
      const seen: Record<Role, Answer> = {} as Record<Role, Answer>;
      for (const role of ROLES) seen[role] = await answerOf(key, role);
      expect(seen).toEqual(Object.fromEntries(ROLES.map((role, i) => [role, table[key][i]])));
    });
  });
});
