/**
 * `npm run bench:announcements` (issue 41): 50,000 members (BENCH_MEMBERS) on the embedded
 * database, the production server (`node server.js`; run `npm run build` first) and a local
 * SMTP server in a process of its own. Prints one JSON object:
 * - the audience counted (POST /api/admin/announcements/audience, every member) beside the
 *   members list's own first page (GET /api/admin/members), p99 of BENCH_REQUESTS each;
 * - Send now's answer time (the audience fixed and 50,000 outbox rows added);
 * - a public page (BENCH_PUBLIC, default /) and an admin page (BENCH_ADMIN, default
 *   /admin/dashboard, signed in) measured alone and while the mails go out at the default pace
 *   (REMINDER_RATE_PER_SECOND unless set), each p99 beside its own alone, in the same run;
 * - every mail delivered once: the SMTP server's count of messages and of recipients that got
 *   more than one, and the outbox's rows by status.
 * At the default pace (30 a second) 50,000 mails take about 28 minutes. BENCH_PACED_SECONDS
 * (unset: the whole send) measures that long at the default pace, then restarts the server at
 * BENCH_FAST_RATE to send the rest (the outbox goes on where it stopped), so the whole check of
 * "once each" fits in a few minutes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { loadConfig } from "../app/platform/config.server";
import { migrateToLatest, openDatabase } from "../app/platform/db.server";
import { createLogger } from "../app/platform/logger.server";
import { createServices } from "../app/server/services.server";
import { addDays, todayIn } from "../app/features/membership/coverage";
import { machineLoad, percentile, round } from "./bench-db";
import { forSeconds, freePort, pageTimes, startSmtpSink, stopProcess, waitUntilUp } from "./processes";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const PUBLIC_PAGE = process.env.BENCH_PUBLIC ?? "/";
const ADMIN_PAGE = process.env.BENCH_ADMIN ?? "/admin/dashboard";
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BASELINE_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PACED_SECONDS = process.env.BENCH_PACED_SECONDS ? Number(process.env.BENCH_PACED_SECONDS) : null;
const FAST_RATE = process.env.BENCH_FAST_RATE ?? "400";
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const defaults = loadConfig({});
const RATE = process.env.REMINDER_RATE_PER_SECOND ?? String(defaults.REMINDER_RATE_PER_SECOND);
const STAFF = { username: "bench-admin", password: "bench password bench password" };
const STATES = ["FL", "GA", "TX", "CA", "NY", "NC", "AZ", "OH"];

/** MEMBERS members covered for two more months (no reminder owed), in eight states; one super_admin. */
async function seed(dataDir: string): Promise<void> {
  const database = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
  try {
    await migrateToLatest(database);
    const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01", LOG_LEVEL: "silent" });
    await createServices(config, database, createLogger("silent")).auth.createStaff(STAFF.username, STAFF.password, "super_admin");
    const paidThrough = addDays(todayIn(defaults.TIME_ZONE), 60);
    const now = new Date().toISOString();
    for (let i = 0; i < MEMBERS; i += 500) {
      const n = Math.min(500, MEMBERS - i);
      await database.db.transaction().execute(async (trx) => {
        const users = await trx
          .insertInto("users")
          .values(
            Array.from({ length: n }, (_, k) => ({
              certificate_number: `ANN${String(i + k).padStart(7, "0")}`,
              birthdate_digest: null,
              first_name: `Member${i + k}`,
              email: `member${i + k}@example.org`,
              state: STATES[(i + k) % STATES.length],
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
              approved_on: "2024-01-01",
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

async function startSite(port: number, dataDir: string, smtpPort: number, rate: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
      RSS_INGEST_INTERVAL_MINUTES: "0",
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      REMINDER_RATE_PER_SECOND: rate,
      REMINDER_CHECK_SECONDS: "5",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitUntilUp(`http://127.0.0.1:${port}/healthz`, child);
  return child;
}

const summary = ({ ms, failed }: { ms: number[]; failed: number }) => ({
  requests: ms.length,
  failed,
  p50Ms: round(percentile(ms, 50)),
  p99Ms: round(percentile(ms, 99)),
});

/** `count` requests one after another; their times, sorted. */
async function sequential(count: number, request: () => Promise<Response>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${res.url}: ${res.status}`);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-announcements-"));
  const children: ChildProcess[] = [];
  try {
    const seedStarted = performance.now();
    await seed(dataDir);
    const seedSeconds = round((performance.now() - seedStarted) / 1000);
    const smtpPort = await freePort();
    const smtp = await startSmtpSink(smtpPort);
    children.push(smtp);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let site = await startSite(port, dataDir, smtpPort, RATE);
    children.push(site);

    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ username: STAFF.username, password: STAFF.password, kind: "staff" }),
    });
    const cookie = (login.headers.getSetCookie().find((c) => c.startsWith("aha_session=")) ?? "").split(";")[0];
    if (!cookie) throw new Error(`sign-in failed: ${login.status}`);
    const staff = { Cookie: cookie, Origin: base, "Content-Type": "application/json" };

    // The audience counted, beside the members list's first page (both over every member).
    const post = (p: string, body: unknown) => fetch(`${base}${p}`, { method: "POST", headers: staff, body: JSON.stringify(body) });
    await sequential(3, () => post("/api/admin/announcements/audience", { audience: { statuses: ["covered"] } }));
    await sequential(3, () => fetch(`${base}/api/admin/members?page=1`, { headers: staff }));
    const audienceMs = await sequential(REQUESTS, () => post("/api/admin/announcements/audience", { audience: { statuses: ["covered"] } }));
    const membersMs = await sequential(REQUESTS, () => fetch(`${base}/api/admin/members?page=1`, { headers: staff }));
    const counted = await (await post("/api/admin/announcements/audience", { audience: { statuses: ["covered"] } })).json();

    // Alone: the public and the admin page, the same clients.
    const publicUrl = `${base}${PUBLIC_PAGE}`;
    const adminUrl = `${base}${ADMIN_PAGE}`;
    const adminHeaders = { Cookie: cookie };
    await Promise.all([
      pageTimes(publicUrl, forSeconds(3), { clients: CLIENTS }),
      pageTimes(adminUrl, forSeconds(3), { clients: CLIENTS, headers: adminHeaders }),
    ]);
    const [publicAlone, adminAlone] = await Promise.all([
      pageTimes(publicUrl, forSeconds(BASELINE_SECONDS), { clients: CLIENTS }),
      pageTimes(adminUrl, forSeconds(BASELINE_SECONDS), { clients: CLIENTS, headers: adminHeaders }),
    ]);

    // Send now, to every member.
    const created = await (
      await post("/api/admin/announcements", {
        subject: "Storm season checklist for {first_name}",
        body: "Dear {first_name},\nyour coverage is paid through {paid_through}.\nMembership ID: {membership_id}\n",
        audience: { statuses: ["covered"] },
      })
    ).json();
    const id = created.announcement.id as number;
    const sendStarted = performance.now();
    const sendNow = await post(`/api/admin/announcements/${id}/send`, {});
    const sendNowMs = performance.now() - sendStarted;
    if (!sendNow.ok) throw new Error(`send now: ${sendNow.status} ${await sendNow.text()}`);

    const reader = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
    const sentCount = () =>
      (
        reader.prepare("select count(*) as n from membership_reminders where kind = 'announcement' and status = 'sent'").get() as {
          n: number;
        }
      ).n;
    let stopped = false;
    const pacedUntil = PACED_SECONDS === null ? null : Date.now() + PACED_SECONDS * 1000;
    const whileSending = Promise.all([
      pageTimes(publicUrl, () => stopped, { clients: CLIENTS }),
      pageTimes(adminUrl, () => stopped, { clients: CLIENTS, headers: adminHeaders }),
    ]);
    while (sentCount() < MEMBERS && (pacedUntil === null || Date.now() < pacedUntil) && site.exitCode === null)
      await new Promise((r) => setTimeout(r, 1000));
    stopped = true;
    const [publicSending, adminSending] = await whileSending;
    const pacedSeconds = (performance.now() - sendStarted) / 1000;
    const sentPaced = sentCount();

    // The rest (when the paced window ended first): the server restarted faster, going on where it stopped.
    if (sentPaced < MEMBERS) {
      await stopProcess(site);
      site = await startSite(port, dataDir, smtpPort, FAST_RATE);
      children.push(site);
      const deadline = Date.now() + 30 * 60_000;
      while (sentCount() < MEMBERS && Date.now() < deadline && site.exitCode === null) await new Promise((r) => setTimeout(r, 1000));
    }
    const statuses = reader
      .prepare("select status, count(*) as n from membership_reminders where kind = 'announcement' group by status")
      .all();
    const announcement = reader.prepare("select status, recipients from announcements where id = ?").get(id);
    reader.close();
    await stopProcess(site);
    const delivered = await smtp.counts();

    const p = summary(publicAlone);
    const ps = summary(publicSending);
    const a = summary(adminAlone);
    const as = summary(adminSending);
    const result = {
      members: MEMBERS,
      seedSeconds,
      audience: { counted, p99Ms: round(percentile(audienceMs, 99)), p50Ms: round(percentile(audienceMs, 50)) },
      membersList: { p99Ms: round(percentile(membersMs, 99)), p50Ms: round(percentile(membersMs, 50)) },
      audienceP99Ratio: round(percentile(audienceMs, 99) / percentile(membersMs, 99)),
      sendNowMs: round(sendNowMs),
      pace: {
        ratePerSecond: Number(RATE),
        measuredSeconds: round(pacedSeconds),
        sent: sentPaced,
        sentPerSecond: round(sentPaced / pacedSeconds),
      },
      minutesForAllAtDefaultPace: round(MEMBERS / Number(RATE) / 60),
      clients: CLIENTS,
      publicPage: { page: PUBLIC_PAGE, alone: p, whileSending: ps, p99Ratio: round(ps.p99Ms / p.p99Ms) },
      adminPage: { page: ADMIN_PAGE, alone: a, whileSending: as, p99Ratio: round(as.p99Ms / a.p99Ms) },
      delivered,
      outbox: statuses,
      announcement,
      everyMemberOnce: delivered.messages === MEMBERS && delivered.repeated === 0,
      machine: machineLoad(),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const child of children) await stopProcess(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
