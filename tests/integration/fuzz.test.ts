import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { sessionCookieName } from "../../app/features/auth/cookie.server";
import { openApiDocument } from "../../app/server/openapi.server";
import { listApiRoutes } from "../support/api-routes";
import { describeEachDatabase, startTestServer, type TestServer } from "../support/test-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/**
 * Malformed requests to every API route (read from the routers; field names from /api/openapi.json's description): wrong types, missing and extra
 * fields, huge and empty strings, text from every Unicode category, bytes that are not UTF-8,
 * malformed percent-encoding, odd methods and content types, as each kind of visitor. No answer
 * may be a 5xx or fail to come, and a refused request (4xx) stores nothing. CI runs FUZZ_RUNS
 * (default 150) per database with a fixed seed; `npm run test:fuzz` runs 10,000.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
// Counters that a refused request is meant to move: sign-in and form throttles, and the sessions this test makes.
const WRITTEN_WHEN_REFUSED = new Set(["rate_limits", "sessions"]);

/** Percent-encoded; a lone surrogate has no UTF-8, so it goes as the bytes a careless client would send. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
}

const ROLES = ["anonymous", "member", "inactiveMember", "limited_admin", "super_admin"] as const;

const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\u202e", "\u200b", "\u2028", "\ud800", "\udfff", "%ff", "0x6c", "1e2", "-1", "9".repeat(40)),
  fc.nat({ max: 5 }).map((n) => "x".repeat(10 ** n)),
);
const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.integer(),
    // Past the 32-bit ids of both databases, and past what a double holds exactly.
    fc.constantFrom(2_147_483_648, Number.MAX_SAFE_INTEGER + 2, 1e21, -0),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  ),
})).value;
/** The field names of every request body the API description gives, so generated bodies reach past "missing field" into each field's checks. */
function fieldNames(): string[] {
  const names = new Set(["id", "ids", "__proto__", "constructor"]);
  const collect = (schema: unknown) => {
    if (!schema || typeof schema !== "object") return;
    const { properties } = schema as { properties?: Record<string, unknown> };
    for (const [name, inner] of Object.entries(properties ?? {})) {
      names.add(name);
      collect(inner);
    }
    for (const value of Object.values(schema)) if (Array.isArray(value)) value.forEach(collect);
  };
  for (const ops of Object.values(
    openApiDocument().paths as Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string }> }>>,
  ))
    for (const op of Object.values(ops)) {
      collect((op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.["application/json"]?.schema);
      for (const parameter of op.parameters ?? []) names.add(parameter.name);
    }
  return [...names];
}
const fieldName = fc.oneof(fc.constantFrom(...fieldNames()), anyText);
const body = fc.oneof(
  fc.dictionary(fieldName, anyValue, { maxKeys: 8 }).map((o) => ({ json: o })),
  anyValue.map((v) => ({ json: v })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ raw: Buffer.from(bytes) })),
  fc.constantFrom("{", '{"a":', "[1,2", "\u0000", "null", '{"id":1}{"id":2}').map((text) => ({ raw: Buffer.from(text) })),
);
const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "multipart/form-data",
  "application/octet-stream",
  undefined,
);
const pathPart = fc.oneof(
  fc.constantFrom("1", "0", "-1", "999999", "contact_1", "%ff", "%C0%AE", "..%2F..", "%ED%A0%80", "1.5", "0x30"),
  anyText,
);

describeEachDatabase("fuzzing the API", (dialect) => {
  let server: TestServer;
  let routes: string[];
  let tables: string[];
  let cookieFor: (role: (typeof ROLES)[number]) => Promise<string | undefined>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    routes = listApiRoutes(server.services);
    const { db } = server.services.database;
    tables =
      dialect === "sqlite"
        ? (
            await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
          ).rows.map((r) => r.name);
    const { auth } = server.services;
    // The accounts are made again when a generated request (a staff or member delete) removed them.
    const make = {
      member: async () =>
        (await auth.users.createMember({ certificate: `FUZZ-M${++made}`, birthdateDigest: auth.digestBirthdate("1980-01-15") })).id,
      inactiveMember: async () =>
        (await auth.users.createMember({ certificate: `FUZZ-M${++made}`, birthdateDigest: auth.digestBirthdate("1980-01-15") })).id,
      limited_admin: async () => (await auth.createStaff(`fuzz-limited-${++made}`, "correct horse battery", "limited_admin")).id,
      super_admin: async () => (await auth.createStaff(`fuzz-super-${++made}`, "correct horse battery", "super_admin")).id,
    };
    let made = 0;
    const ids: Partial<Record<keyof typeof make, number>> = {};
    cookieFor = async (role) => {
      if (role === "anonymous") return undefined;
      let user = ids[role] === undefined ? undefined : await auth.users.findById(ids[role]);
      if (!user) user = (await auth.users.findById((ids[role] = await make[role]())))!;
      await db.updateTable("users").set({ is_active: 1 }).where("id", "=", user.id).execute();
      const { token } = await auth.sessions.create(user, false);
      if (role === "inactiveMember") await db.updateTable("users").set({ is_active: 0 }).where("id", "=", user.id).execute();
      return `${sessionCookieName(false)}=${token}`;
    };
  });
  afterAll(() => server?.close());

  async function rowCounts(): Promise<Record<string, number>> {
    const { db } = server.services.database;
    const counts: Record<string, number> = {};
    for (const table of tables) {
      if (WRITTEN_WHEN_REFUSED.has(table)) continue;
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      counts[table] = Number(rows[0].n);
    }
    return counts;
  }

  it(`${RUNS} malformed requests: no 5xx, always an answer, nothing stored when refused`, { timeout: 600_000 }, async () => {
    const request = fc.record({
      route: fc.constantFrom(...routes),
      oddMethod: fc.option(fc.constantFrom("PATCH", "PUT", "DELETE", "OPTIONS", "PROPFIND", "head", "GET"), { freq: 4 }),
      params: fc.array(pathPart, { minLength: 2, maxLength: 2 }),
      query: fc.option(fc.dictionary(fieldName, anyText, { maxKeys: 4 }), { freq: 2 }),
      body: fc.option(body, { freq: 5 }),
      contentType,
      role: fc.constantFrom(...ROLES),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const [listed, template] = r.route.split(" ");
        const method = r.oddMethod ?? (listed === "OTHER" ? "PATCH" : listed);
        let n = 0;
        const path = template.replace(/:[A-Za-z]+/g, () => {
          const part = r.params[n++ % 2];
          if (/%[0-9a-f]{2}/i.test(part)) return part;
          return encode(part);
        });
        const query = r.query
          ? `?${Object.entries(r.query)
              .map(([k, v]) => [k, v].map(encode).join("="))
              .join("&")}`
          : "";
        const headers: Record<string, string> = {};
        if (r.contentType) headers["Content-Type"] = r.contentType;
        const cookie = await cookieFor(r.role);
        if (cookie) headers.Cookie = cookie;
        const canHaveBody = !["GET", "HEAD", "head"].includes(method);
        const payload = canHaveBody && r.body ? ("raw" in r.body ? r.body.raw : Buffer.from(JSON.stringify(r.body.json) ?? "")) : undefined;
        const before = await rowCounts();
        const res = await fetch(server.url + path + query, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
        const text = await res.text();
        const what = `${method} ${path}${query} as ${r.role} -> ${res.status} ${text.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expect(await rowCounts(), what).toEqual(before);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Still serving.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
