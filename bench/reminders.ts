/**
 * `npm run bench:reminders`: a day owing 50,000 membership reminders (BENCH_REMINDERS), sent by
 * the production server (`node server.js`; run `npm run build` first) through its pool of SMTP
 * connections to a local SMTP server (smtp-server, in a process of its own), on the embedded
 * database. Prints one JSON object: the time from the server's start until every reminder is
 * marked sent, the rate, and the p99 of a page request (BENCH_PAGE, default /login, requested by
 * BENCH_CLIENTS clients one after another) while it runs, beside the p99 of the same requests
 * without it, measured in the same run: BENCH_SECONDS before (the server with reminders off)
 * and BENCH_SECONDS after (once all are sent). Goals (issue 31): all sent
 * within an hour; the page's p99 unchanged (within 25 % or 5 ms of the p99 without).
 * The server's settings are its own defaults unless REMINDER_RATE_PER_SECOND or
 * REMINDER_SMTP_CONNECTIONS are set.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { loadConfig } from "../app/platform/config.server";
import { migrateToLatest, openDatabase } from "../app/platform/db.server";
import { addDays, todayIn } from "../app/features/membership/coverage";
import { machineLoad, percentile, round } from "./bench-db";
import { freePort, pageTimes as timesOf, startSmtpSink, stopProcess as stop, waitUntilUp } from "./processes";

const COUNT = Number(process.env.BENCH_REMINDERS ?? 50_000);
const PAGE = process.env.BENCH_PAGE ?? "/login";
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BASELINE_SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const GOAL_SECONDS = 3600;
const defaults = loadConfig({});
const RATE = process.env.REMINDER_RATE_PER_SECOND ?? String(defaults.REMINDER_RATE_PER_SECOND);
const CONNECTIONS = process.env.REMINDER_SMTP_CONNECTIONS ?? String(defaults.REMINDER_SMTP_CONNECTIONS);

/** COUNT members, each past due since five days ago (carried-over coverage): each owes one reminder today. */
async function seed(dataDir: string): Promise<void> {
  const database = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
  try {
    await migrateToLatest(database);
    const paidThrough = addDays(todayIn(defaults.TIME_ZONE), -5);
    const now = new Date().toISOString();
    for (let i = 0; i < COUNT; i += 500) {
      const n = Math.min(500, COUNT - i);
      await database.db.transaction().execute(async (trx) => {
        const users = await trx
          .insertInto("users")
          .values(
            Array.from({ length: n }, (_, k) => ({
              certificate_number: `BENCH${String(i + k).padStart(7, "0")}`,
              birthdate_digest: null,
              first_name: `Member${i + k}`,
              email: `member${i + k}@example.org`,
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
          .values(
            users.map((u) => ({
              user_id: u.id,
              billing: "monthly",
              approved_on: null,
              carried_paid_through: paidThrough,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute();
      });
    }
  } finally {
    await database.close();
  }
}

async function startSite(port: number, dataDir: string, smtpPort: number, reminders: boolean): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
      RSS_INGEST_INTERVAL_MINUTES: "0",
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      REMINDERS_ENABLED: String(reminders),
      REMINDER_RATE_PER_SECOND: RATE,
      REMINDER_SMTP_CONNECTIONS: CONNECTIONS,
      // The first check 5 seconds after the start, once the page is warm (then every minute, the default).
      REMINDER_CHECK_SECONDS: "5",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitUntilUp(`http://127.0.0.1:${port}/healthz`, child);
  return child;
}

const pageTimes = (url: string, done: () => boolean) => timesOf(url, done, { clients: CLIENTS });

const summary = ({ ms, failed }: { ms: number[]; failed: number }) => ({
  requests: ms.length,
  failed,
  p50Ms: round(percentile(ms, 50)),
  p99Ms: round(percentile(ms, 99)),
});

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-reminders-"));
  const children: ChildProcess[] = [];
  try {
    const seedStarted = performance.now();
    await seed(dataDir);
    const seedSeconds = round((performance.now() - seedStarted) / 1000);
    const smtpPort = await freePort();
    children.push(await startSmtpSink(smtpPort));
    const port = await freePort();
    const pageUrl = `http://127.0.0.1:${port}${PAGE}`;

    // Without reminders: the same server, the same page, the same clients.
    const quiet = await startSite(port, dataDir, smtpPort, false);
    children.push(quiet);
    await pageTimes(
      pageUrl,
      (
        (end) => () =>
          Date.now() > end
      )(Date.now() + 3000),
    ); // warm-up
    const without = await pageTimes(
      pageUrl,
      (
        (end) => () =>
          Date.now() > end
      )(Date.now() + BASELINE_SECONDS * 1000),
    );
    await stop(quiet);

    // With: the server plans the day and sends every reminder while the clients keep asking.
    const started = performance.now();
    const busy = await startSite(port, dataDir, smtpPort, true);
    children.push(busy);
    const reader = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
    let sent = 0;
    let finished = false;
    await pageTimes(
      pageUrl,
      (
        (end) => () =>
          Date.now() > end
      )(Date.now() + 3000),
    ); // warm-up
    const load = pageTimes(pageUrl, () => finished);
    const deadline = Date.now() + 2 * GOAL_SECONDS * 1000;
    while (sent < COUNT && Date.now() < deadline && busy.exitCode === null) {
      await new Promise((r) => setTimeout(r, 1000));
      sent = (reader.prepare("select count(*) as n from membership_reminders where status = 'sent'").get() as { n: number }).n;
    }
    const sendSeconds = (performance.now() - started) / 1000;
    finished = true;
    const withReminders = await load;
    // Without again, on the same server once all are sent: the machine's load changes over a
    // long run, so the figure without is taken before and after.
    const after = await pageTimes(
      pageUrl,
      (
        (end) => () =>
          Date.now() > end
      )(Date.now() + BASELINE_SECONDS * 1000),
    );
    without.ms = [...without.ms, ...after.ms].sort((x, y) => x - y);
    without.failed += after.failed;
    const statuses = reader.prepare("select status, count(*) as n from membership_reminders group by status").all();
    reader.close();
    await stop(busy);

    const w = summary(without);
    const r = summary(withReminders);
    const result = {
      reminders: COUNT,
      sent,
      statuses,
      settings: { ratePerSecond: Number(RATE), smtpConnections: Number(CONNECTIONS) },
      seedSeconds,
      sendSeconds: round(sendSeconds),
      sentPerSecond: round(sent / sendSeconds),
      goalSeconds: GOAL_SECONDS,
      meetsTimeGoal: sent === COUNT && sendSeconds <= GOAL_SECONDS,
      page: PAGE,
      clients: CLIENTS,
      pageWithoutReminders: w,
      pageWhileSending: r,
      p99Ratio: round(r.p99Ms / w.p99Ms),
      meetsPageGoal: r.p99Ms <= Math.max(w.p99Ms * 1.25, w.p99Ms + 5) && r.failed === 0,
      machine: machineLoad(),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const child of children) await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
