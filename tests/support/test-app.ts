import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createPgSchema, whileNoSchemaIsDropped } from "./pg-schema";
import { describe, inject } from "vitest";
import type { Config } from "../../app/platform/config.server";
import type { Dialect } from "../../app/platform/db.server";
import type { ServiceOptions, Services } from "../../app/server/services.server";
import { endsWithTheFile } from "./loaded-machine";
import * as vitestModules from "./server-modules";

export type ServerModules = typeof vitestModules;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function testDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
}

/** Runs a suite once per database. */
export function describeEachDatabase(name: string, fn: (dialect: Dialect) => void) {
  for (const dialect of testDialects()) describe(`${name} [${dialect}]`, () => fn(dialect));
}

export interface TestContext {
  services: Services;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** A fresh, migrated database (SQLite: a copy of the template file; PostgreSQL: a new schema) and the services on it. */
export async function createTestContext(
  dialect: Dialect,
  env: Record<string, string> = {},
  { modules = vitestModules, options = {} }: { modules?: ServerModules; options?: ServiceOptions } = {},
): Promise<TestContext> {
  const { loadConfig, openDatabase, migrateToLatest, createServices, createLogger } = modules;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    RSS_INGEST_INTERVAL_MINUTES: "0",
    ...env,
  });
  let database;
  let dropSchema = async () => {};
  if (dialect === "sqlite") {
    const file = path.join(dataDir, "app.db");
    fs.copyFileSync(inject("sqliteTemplate"), file);
    database = openDatabase({ sqliteFile: file });
  } else {
    const url = process.env.TEST_DATABASE_URL!;
    const { schema, drop } = await createPgSchema(url, "t");
    database = openDatabase({ url, pgSchema: schema, poolSize: 4 });
    dropSchema = drop;
  }
  if (dialect === "sqlite") await migrateToLatest(database);
  else await whileNoSchemaIsDropped(process.env.TEST_DATABASE_URL!, () => migrateToLatest(database));
  const services = createServices(config, database, createLogger("silent"), options);
  return endsWithTheFile({
    services,
    config,
    dataDir,
    async close() {
      await stopServices(services);
      await database.close();
      await dropSchema();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * Ends the services' own work as the server's shutdown does (the ingest's and the outbox's
 * timers, runs and leases, the case file source, a staff notification still being sent), so
 * nothing of a closed context runs on into the next file.
 */
async function stopServices(services: Services): Promise<void> {
  await Promise.all([services.ingest.stop(), services.reminders.stop()]);
  services.applications.close();
  await services.submissions.notifier.settled();
}

export interface TestServer extends TestContext {
  url: string;
  /** fetch against the server; JSON bodies are sent as JSON. */
  request(pathname: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
}

/** The real HTTP application (API only, no page build) on an ephemeral port. */
export async function startTestServer(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<TestServer> {
  return listen(await createTestContext(dialect, env, { options }));
}

/**
 * A second instance of the application on the same database as `of` (its own connection or
 * pool, its own services and HTTP server), as when several instances serve one site.
 */
export async function startSiblingServer(
  of: TestServer,
  options: ServiceOptions = {},
  config: Partial<TestServer["config"]> = {},
): Promise<TestServer> {
  const { openDatabase, createServices, createLogger } = vitestModules;
  const { database } = of.services;
  const sibling =
    database.dialect === "sqlite"
      ? openDatabase({ sqliteFile: path.join(of.dataDir, "app.db") })
      : openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: database.schema, poolSize: 4 });
  const siblingConfig = { ...of.config, ...config };
  const services = createServices(siblingConfig, sibling, createLogger("silent"), options);
  return listen({
    services,
    config: siblingConfig,
    dataDir: of.dataDir,
    async close() {
      await stopServices(services);
      await sibling.close();
    },
  });
}

/** The real HTTP application on the services of a context the caller built (its own database, say). */
export function serve(ctx: TestContext): Promise<TestServer> {
  return listen(ctx);
}

async function listen(ctx: TestContext): Promise<TestServer> {
  const { createApp, configureHttpServer } = vitestModules;
  const app = createApp(ctx.services);
  const server: Server = await new Promise((resolve) => {
    const s = configureHttpServer(app.listen(0, "127.0.0.1", () => resolve(s)));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return endsWithTheFile<TestServer>({
    ...ctx,
    url,
    request(pathname, init = {}) {
      const { json, cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set("Content-Type", "application/json");
      if (cookie) headers.set("Cookie", cookie);
      return fetch(url + pathname, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.close();
    },
  });
}

/** The session cookie ("name=value") from a login answer. */
export function sessionCookieFrom(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.includes("aha_session="));
  if (!set) throw new Error("no session cookie in the answer");
  return set.split(";")[0];
}

/** Creates accounts and signs them in through the real API. */
export async function loginAs(
  server: TestServer,
  who: "member" | "limited_admin" | "super_admin",
  opts: { certificate?: string; username?: string } = {},
): Promise<{ cookie: string; userId: number }> {
  const { auth } = server.services;
  if (who === "member") {
    const certificate = opts.certificate ?? `M${crypto.randomInt(1e9)}`;
    const { id } = await auth.users.createMember({ certificate, birthdateDigest: auth.digestBirthdate("1980-01-15"), firstName: "Pat" });
    const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password: "011580" } });
    return { cookie: sessionCookieFrom(res), userId: id };
  }
  const username = opts.username ?? `${who}${crypto.randomInt(1e9)}`;
  const { id } = await auth.createStaff(username, "correct horse battery", who);
  const res = await server.request("/api/auth/login", {
    method: "POST",
    json: { username, password: "correct horse battery", kind: "staff" },
  });
  return { cookie: sessionCookieFrom(res), userId: id };
}
