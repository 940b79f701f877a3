/**
 * `npm run bench:webhooks`: BENCH_EVENTS (10,000) signed Stripe events posted to the production
 * server (`node server.js`; run `npm run build` first) by BENCH_CONNECTIONS (50) connections at
 * once, on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL too (a schema of
 * its own there; one JSON object per database). Of the events, 80 %
 * pay a member's dues (checkout.session.completed), 10 % are second deliveries of those, 10 %
 * match no member (an unknown reference, or not USD). Prints one JSON object: whether every
 * payment was recorded once and every unmatched one listed, the p50/p99 per event, and the p99
 * of a public page (BENCH_PAGE, default /login) during the burst beside the same page measured
 * alone in the same run (BENCH_SECONDS before the burst).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { openDatabase, migrateToLatest, type DatabaseHandle, type Dialect } from "../app/platform/db.server";
import { createPgSchema, installPgExtensions } from "../tests/support/pg-schema";
import { checkoutSession, event, signed, STRIPE_TEST_ENV } from "../tests/support/stripe-events";
import { benchDialects, machineLoad, percentile, round } from "./bench-db";
import { freePort, waitUntilUp } from "./processes";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PAGE = process.env.BENCH_PAGE ?? "/login";
const PAGE_CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BASELINE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");

const PAYING = Math.round(EVENTS * 0.8);
const REPEATS = Math.round(EVENTS * 0.1);
const UNMATCHED = EVENTS - PAYING - REPEATS;

/** PAYING members with a monthly plan and a payment reference each. */
async function seed(database: DatabaseHandle): Promise<string[]> {
  await migrateToLatest(database);
  const now = new Date().toISOString();
  const references: string[] = [];
  for (let i = 0; i < PAYING; i += 500) {
    const n = Math.min(500, PAYING - i);
    await database.db.transaction().execute(async (trx) => {
      const users = await trx
        .insertInto("users")
        .values(
          Array.from({ length: n }, (_, k) => ({
            certificate_number: `WH${String(i + k).padStart(7, "0")}`,
            birthdate_digest: null,
            first_name: `Member${i + k}`,
            role: "user" as const,
            is_active: 1,
            is_core_admin: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning("id")
        .execute();
      await trx
        .insertInto("membership_plans")
        .values(users.map((u) => ({ user_id: u.id, billing: "monthly", approved_on: now.slice(0, 10), created_at: now, updated_at: now })))
        .execute();
      const refs = users.map(() => `pay_${crypto.randomBytes(15).toString("base64url")}`);
      references.push(...refs);
      await trx
        .insertInto("membership_online")
        .values(users.map((u, k) => ({ user_id: u.id, payment_reference: refs[k], created_at: now, updated_at: now })))
        .execute();
    });
  }
  return references;
}

function post(agent: http.Agent, port: number, payload: string, header: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/payments/stripe/webhook",
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json", "Stripe-Signature": header, "Content-Length": Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function pageTimes(url: string, done: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  await Promise.all(
    Array.from({ length: PAGE_CLIENTS }, async () => {
      while (!done()) {
        const started = performance.now();
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.ok) ms.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  return ms.sort((a, b) => a - b);
}

/** The site's database: a SQLite file in DATA_DIR, or a new schema on TEST_DATABASE_URL (the server told it by the URL's search_path). */
async function siteDatabase(dialect: Dialect, dataDir: string) {
  if (dialect === "sqlite") {
    const database = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
    return { database, env: { DATABASE_URL: "" }, drop: async () => {} };
  }
  const url = process.env.TEST_DATABASE_URL!;
  await installPgExtensions(url);
  const created = await createPgSchema(url, "bench_webhooks");
  const database = openDatabase({ url, pgSchema: created.schema, poolSize: 4 });
  const serverUrl = new URL(url);
  serverUrl.searchParams.set("options", `-c search_path=${created.schema}`);
  return { database, env: { DATABASE_URL: serverUrl.toString() }, drop: created.drop };
}

async function run(dialect: Dialect) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-webhooks-"));
  const { database, env: databaseEnv, drop } = await siteDatabase(dialect, dataDir);
  let child: ChildProcess | null = null;
  try {
    const references = await seed(database);
    const port = Number(process.env.BENCH_PORT ?? (await freePort()));
    child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        ...STRIPE_TEST_ENV,
        NODE_ENV: "production",
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
        AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
        RSS_INGEST_INTERVAL_MINUTES: "0",
        BUILD_DIR,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ...databaseEnv,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitUntilUp(`http://127.0.0.1:${port}/healthz`, child);
    const pageUrl = `http://127.0.0.1:${port}${PAGE}`;

    // Warm (the first renders load the page's modules), then the page alone.
    for (let i = 0; i < 20; i++) await (await fetch(pageUrl)).arrayBuffer();
    const aloneUntil = Date.now() + BASELINE_SECONDS * 1000;
    const alone = await pageTimes(pageUrl, () => Date.now() > aloneUntil);

    // The events, signed now (the signature's 5 minutes start here).
    const paying = references.map((ref) =>
      signed(event("checkout.session.completed", checkoutSession({ clientReference: ref, amount: 1995 }))),
    );
    const repeats = paying.slice(0, REPEATS);
    const unmatched = Array.from({ length: UNMATCHED }, (_, i) =>
      signed(
        event(
          "checkout.session.completed",
          i % 2
            ? checkoutSession({ clientReference: `pay_unknown${i}`, amount: 1995 })
            : checkoutSession({ clientReference: references[i % references.length], amount: 1995, currency: "eur" }),
        ),
      ),
    );
    const all = [...paying, ...repeats, ...unmatched].sort(() => Math.random() - 0.5);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const eventMs: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    let burstDone = false;
    const burstStarted = performance.now();
    const during = pageTimes(pageUrl, () => burstDone);
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < all.length) {
          const { payload, header } = all[next++];
          const started = performance.now();
          const status = await post(agent, port, payload, header);
          eventMs.push(performance.now() - started);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    burstDone = true;
    const duringMs = await during;
    agent.destroy();
    eventMs.sort((a, b) => a - b);

    const payments = Number(
      (
        await database.db
          .selectFrom("membership_payments")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const distinctMembers = Number(
      (
        await database.db
          .selectFrom("membership_payments")
          .select((eb) => eb.fn.count<number>("user_id").distinct().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const unmatchedListed = Number(
      (
        await database.db
          .selectFrom("stripe_events")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("state", "=", "unmatched")
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.log(
      JSON.stringify(
        {
          database: dialect,
          events: all.length,
          connections: CONNECTIONS,
          statuses: Object.fromEntries(statuses),
          payments: {
            expected: PAYING,
            recorded: payments,
            members: distinctMembers,
            everyOnce: payments === PAYING && distinctMembers === PAYING,
          },
          unmatched: { expected: UNMATCHED, listed: unmatchedListed, all: unmatchedListed === UNMATCHED },
          burstSeconds: round(burstSeconds),
          eventsPerSecond: round(all.length / burstSeconds),
          eventP50Ms: round(percentile(eventMs, 50)),
          eventP99Ms: round(percentile(eventMs, 99)),
          page: {
            path: PAGE,
            alone: { requests: alone.length, p99Ms: round(percentile(alone, 99)) },
            duringBurst: { requests: duringMs.length, p99Ms: round(percentile(duringMs, 99)) },
          },
          machine: machineLoad(),
        },
        null,
        2,
      ),
    );
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child!.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    }
    await database.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  for (const dialect of benchDialects()) await run(dialect);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
