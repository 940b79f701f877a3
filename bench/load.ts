/**
 * `npm run bench:load`: requests per second and latency through the whole server, each beside
 * its ceiling measured in the same run (issue: "Fast at every layer"). Starts the production
 * build (`node server.js`, as `npm start` runs it; run `npm run build` first) on a fresh
 * embedded database holding a member, a super_admin, a feed and 1,000 articles, beside a bare
 * Node `http` server, a minimal Express app and, when it is installed, a minimal Fastify app
 * (decision 009), all on loopback, behind a trusted proxy (TRUST_PROXY loopback). Each target
 * is loaded with autocannon at 50 connections for BENCH_SECONDS (default 10). Prints one JSON
 * object: per target (a bare Node server, a minimal Express app, /healthz, a static file, the
 * home page, the calculator, the 404 page of unknown paths (a different one each time), the signed-in pages: the knowledge center, its page 2 and My
 * account as a member (and as each of BENCH_ACCOUNT_MEMBERS members in turn, default 500), the admin dashboard as staff, each also from a plain keep-alive client
 * beside the static file from it; GET /api/rss/articles, the featured articles API, a hashed
 * script, a contact form post from a different address each time) req/s, p50 and p99 (ms) and non-2xx answers; the
 * ratios against their ceilings with the goals; the contact messages stored against the 2xx
 * answers; and the server's resident memory after a warm-up of 100,000 requests and after
 * 100,000 more; and what counting requests for GET /metrics costs /healthz (`metricsCost`: two
 * more instances of the build on the same database, one with METRICS_TOKEN, in alternating rounds).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { loadConfig } from "../app/platform/config.server";
import { startServices } from "../app/server/bootstrap.server";
import { sessionCookieName } from "../app/features/auth/cookie.server";
import type { Request, Response } from "express";
import { AppMetrics } from "../app/server/metrics.server";
import type { Services } from "../app/server/services.server";
import { freePort, waitUntilUp } from "./processes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The build to start (server.js reads BUILD_DIR too): another checkout's build can be measured the same way. */
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const CONNECTIONS = 50;
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000);
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 1);
const SITE_ENV = {
  NODE_ENV: "production",
  // The production default: every request is logged, as in real use.
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
  RSS_INGEST_INTERVAL_MINUTES: "0",
  // As behind a load balancer: the visitor's address comes in X-Forwarded-For.
  TRUST_PROXY: "loopback",
};

/** The ceiling of any request: Node's own HTTP server answering a small JSON body, in its own process. */
async function startBareServer(port: number) {
  const code = `require("node:http").createServer((req, res) => { res.setHeader("content-type", "application/json"); res.end('{"status":"ok"}'); }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  await waitUntilUp(`http://127.0.0.1:${port}/`, child);
  return child;
}

/** The framework's own ceiling: a minimal Express app answering the same body. */
async function startBareExpress(port: number) {
  const code = `const app = require("express")(); app.get("/", (req, res) => res.json({ status: "ok" })); app.listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  await waitUntilUp(`http://127.0.0.1:${port}/`, child);
  return child;
}

/**
 * Another framework's ceiling, for decision 009: a minimal Fastify app answering the same body,
 * when Fastify is installed (`npm i --no-save fastify@5`; the site does not depend on it).
 */
async function startBareFastify(port: number) {
  try {
    createRequire(import.meta.url).resolve("fastify");
  } catch {
    return null;
  }
  const code = `const app = require("fastify")(); app.get("/", async () => ({ status: "ok" })); app.listen({ port: ${port}, host: "127.0.0.1" });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  await waitUntilUp(`http://127.0.0.1:${port}/`, child);
  return child;
}

/** How many members My account is also loaded for, one after another (issue 42 §1: a mail's clicks come from many members, each once). */
const ACCOUNT_MEMBERS = Number(process.env.BENCH_ACCOUNT_MEMBERS ?? 500);

/** The site's database before it starts: a member with a session, ACCOUNT_MEMBERS more, a feed and 1,000 articles. */
async function seedSite(dataDir: string): Promise<{ memberCookie: string; staffCookie: string; memberCookies: string[] }> {
  const services = await startServices(loadConfig({ ...SITE_ENV, LOG_LEVEL: "silent", DATA_DIR: dataDir }));
  try {
    const { id } = await services.auth.users.createMember({
      certificate: "AHABENCH01",
      birthdateDigest: services.auth.digestBirthdate("1980-05-17"),
      firstName: "Bench",
      lastName: "Member",
    });
    const { token } = await services.auth.sessions.create((await services.auth.users.findById(id))!, false);
    // Many members, each with their own contact details, so that no two account pages are alike.
    const memberCookies: string[] = [];
    for (let i = 0; i < ACCOUNT_MEMBERS; i++) {
      const member = await services.auth.users.createMember({
        certificate: `AHAMANY${String(i).padStart(5, "0")}`,
        birthdateDigest: services.auth.digestBirthdate("1980-05-17"),
        firstName: `Member${i}`,
        lastName: `Bench${i}`,
      });
      await services.account.updateContact(member.id, {
        phone: "2035550199",
        address1: `${i} Elm Street`,
        city: "Stamford",
        state: "CT",
        zip: "06905",
      });
      const session = await services.auth.sessions.create((await services.auth.users.findById(member.id))!, false);
      memberCookies.push(`${sessionCookieName(false)}=${session.token}`);
    }
    const staff = await services.auth.users.createStaff({ username: "bench-staff", passwordHash: "unused", role: "super_admin" });
    const { token: staffToken } = await services.auth.sessions.create((await services.auth.users.findById(staff.id))!, false);
    const feed = await services.feeds.createFeed({
      name: "Bench feed",
      url: "https://feed.example.com/rss",
      category: "general",
      is_active: false,
    });
    const now = new Date().toISOString();
    const categories = ["general", "maintenance_repair", "insurance", "home_improvement", "decor"];
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      feed_id: feed.id,
      dedupe_key: `bench-${i}`,
      guid: `https://feed.example.com/?p=${i}`,
      link: `https://feed.example.com/posts/${i}/`,
      title: `Article ${i}: seasonal home maintenance you should not skip`,
      summary: "Gutters, roofs, furnaces and water heaters all need a look twice a year.",
      content: `<p>${"Gutters, roofs, furnaces and water heaters all need a look twice a year. ".repeat(8)}</p>`,
      image_url: null,
      published_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      category: categories[i % categories.length],
      source_name: "Bench feed",
      content_hash: "h",
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 250)
      await services.database.db
        .insertInto("articles")
        .values(rows.slice(i, i + 250))
        .execute();
    return {
      memberCookie: `${sessionCookieName(false)}=${token}`,
      staffCookie: `${sessionCookieName(false)}=${staffToken}`,
      memberCookies,
    };
  } finally {
    await services.ingest.stop();
    await services.database.close();
  }
}

async function startSite(port: number, dataDir: string, env: Record<string, string> = {}) {
  // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, "server.js"], {
    // PUBLIC_URL: public pages are kept only for the site's own address (decision 007).
    env: {
      ...process.env,
      ...SITE_ENV,
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitUntilUp(`http://127.0.0.1:${port}/healthz`, child);
  return child;
}

/** Resident memory of a process in MB (Linux). */
function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU time (user and system) a process has used, in seconds (Linux). */
function cpuSeconds(pid: number): number | null {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

interface Measured {
  rps: number;
  /** The site process's CPU time (user and system) per answer while it was measured. */
  siteCpuMsPerRequest?: number;
  p50: number;
  p99: number;
  ok2xx: number;
  non2xx: number;
  status5xx: number;
  errors: number;
}

/** BENCH_TARGETS=homePage,contactPost: only those targets (their ratios then read null). */
const ONLY = process.env.BENCH_TARGETS ? new Set(process.env.BENCH_TARGETS.split(",")) : null;

async function load(url: string, opts: Partial<autocannon.Options> = {}): Promise<Measured> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    status5xx: result["5xx"],
    errors: result.errors + result.timeouts,
  };
}

/** Rounds of /healthz with metrics off, then on (alternating, so a change in the machine's load falls on both). */
const METRICS_ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 3);

/**
 * What counting costs: /healthz's rate on the site as measured (no metrics) and on a second
 * instance of the same build and database with METRICS_TOKEN set (every request counted),
 * in alternating rounds of BENCH_SECONDS each; the goal is under 2% (issue 34).
 */
async function metricsCost(off: { base: string; pid: number }, on: { base: string; pid: number }) {
  const runs = { off: [] as Array<Measured & { cpuMicros: number }>, on: [] as Array<Measured & { cpuMicros: number }> };
  // The server's CPU time per request as well as its rate: on a busy machine the rate swings
  // with the other processes' load, the CPU a request costs much less.
  const measureOne = async (target: { base: string; pid: number }) => {
    const cpuBefore = cpuSeconds(target.pid) ?? 0;
    const started = process.hrtime.bigint();
    const measured = await load(`${target.base}/healthz`);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const requests = measured.rps * seconds;
    return { ...measured, cpuMicros: Math.round((((cpuSeconds(target.pid) ?? 0) - cpuBefore) / requests) * 1e6 * 10) / 10 };
  };
  for (let round = 0; round < METRICS_ROUNDS; round++) {
    runs.off.push(await measureOne(off));
    runs.on.push(await measureOne(on));
  }
  // Medians: one round crowded out by another process's burst does not decide it.
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const offRps = Math.round(median(runs.off.map((r) => r.rps)));
  const onRps = Math.round(median(runs.on.map((r) => r.rps)));
  const offCpu = median(runs.off.map((r) => r.cpuMicros));
  const onCpu = median(runs.on.map((r) => r.cpuMicros));
  const observe = observeNanos();
  const costPercent = Math.round((1 - onRps / offRps) * 1000) / 10;
  const cpuCostPercent = Math.round((onCpu / offCpu - 1) * 1000) / 10;
  return {
    rounds: METRICS_ROUNDS,
    healthzRpsMetricsOff: offRps,
    healthzRpsMetricsOn: onRps,
    costPercent,
    cpuMicrosPerRequest: { off: Math.round(offCpu * 10) / 10, on: Math.round(onCpu * 10) / 10 },
    cpuCostPercent,
    // The counting alone, timed in this process (AppMetrics.observe, a million times), against a request's CPU time.
    observeNanosPerRequest: observe,
    observeShareOfRequestCpuPercent: Math.round((observe / (offCpu * 1000)) * 10000) / 100,
    eachRound: { off: runs.off.map((r) => [r.rps, r.cpuMicros]), on: runs.on.map((r) => [r.rps, r.cpuMicros]) },
    non2xx: [...runs.off, ...runs.on].reduce((sum, r) => sum + r.non2xx, 0),
    goalPercent: 2,
    meets: costPercent < 2,
  };
}

/** Nanoseconds AppMetrics.observe takes for one request (the work the metrics add to each answer). */
function observeNanos(): number {
  const services = {
    auth: { refusals: { failed: 0, throttled: 0 } },
    mailer: { counts: { sent: 0, failed: 0 } },
    submissions: { notifier: { counts: { sent: 0, failed: 0 }, backlog: 0 } },
    database: { db: null, native: { dialect: "sqlite" }, lockWaits: { count: 0, seconds: 0 } },
    logger: null,
  } as unknown as Services;
  const metrics = new AppMetrics(services);
  const req = { method: "GET", route: { path: "/healthz" } } as unknown as Request;
  const res = { statusCode: 200, locals: {} } as unknown as Response;
  const times = 1_000_000;
  for (let i = 0; i < times; i++) metrics.observe(req, res, 0.001);
  // CPU time, not the clock's: on a busy machine the clock counts other processes' turns too.
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) metrics.observe(req, res, 0.001);
  const used = process.cpuUsage(started);
  const nanos = ((used.user + used.system) * 1000) / times;
  metrics.registry.clear();
  return Math.round(nanos);
}

/**
 * The same load from a plain client: CONNECTIONS loops over Node's keep-alive agent, each
 * sending its next request when the last answer has been read in full. Autocannon's p99 counts
 * its own queueing (it pipelines over busy sockets and times from when it meant to send); this
 * one times each request from its write to its last byte, so its p99 is the server's own tail.
 */
async function loadKeepAlive(url: string, headers: Record<string, string> = {}): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let ok2xx = 0;
  let non2xx = 0;
  let status5xx = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const req = http.get(url, { agent, headers }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => {
          latencies.push(performance.now() - sent);
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) ok2xx++;
          else non2xx++;
          if (status >= 500) status5xx++;
          resolve();
        });
      });
      req.on("error", () => {
        errors++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) await once();
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99), ok2xx, non2xx, status5xx, errors };
}

const ratio = (a: Measured | undefined, b: Measured | undefined) => (a && b ? Math.round((a.rps / b.rps) * 100) / 100 : null);
/** A target's site CPU per answer against another's. */
const cpuRatio = (a: Measured | undefined, b: Measured | undefined) =>
  a?.siteCpuMsPerRequest && b?.siteCpuMsPerRequest ? Math.round((a.siteCpuMsPerRequest / b.siteCpuMsPerRequest) * 100) / 100 : null;
const CONTACT_POSTS = Number(process.env.BENCH_CONTACT_POSTS ?? 5_000);

/** A contact message as the Contact Us form sends it, from a different visitor each time. */
function contactPost(): Partial<autocannon.Options> {
  let n = 0;
  const body = JSON.stringify({
    name: "Dana Bench",
    email: "dana@example.com",
    phone: "(203) 555-0142",
    subject: "membership",
    message: "How do I add my new garage to the plan?",
  });
  return {
    // A fixed number rather than a duration: every post is answered before the rows are counted.
    amount: CONTACT_POSTS,
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          n++;
          const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
          return { ...req, path: "/api/forms", body, headers: { "content-type": "application/json", "x-forwarded-for": ip } };
        },
      },
    ],
  };
}

/** GETs of unknown paths, a different one each time (`/no-such-page-1`, `-2`...). */
function unknownPaths(headers: Record<string, string> = {}): Partial<autocannon.Options> {
  let n = 0;
  return {
    requests: [
      { method: "GET", setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...headers }, path: `/no-such-page-${++n}` }) },
    ],
  };
}

/** Each request as the next of these members (their session cookies), round and round. */
function asEachMember(cookies: string[]): Partial<autocannon.Options> {
  let n = 0;
  return {
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookies[n++ % cookies.length] } }) }],
  };
}

/**
 * Resident memory after a warm-up round of MEMORY_REQUESTS spread over pages and APIs, and
 * after the same number again (the goal: at most 10% growth).
 */
async function memoryOver(base: string, pid: number, memberCookie: string) {
  const beforeWarmUp = rssMb(pid);
  const afterEachRound: Array<number | null> = [];
  let requests = 0;
  let non2xx = 0;
  // Round 0 is the warm-up: the heap grows to its working size on the first round of this mix
  // (measured: +40% after a short warm-up, then +2% per round). BENCH_MEMORY_ROUNDS > 1 repeats
  // the measured round, to tell a plateau from a leak.
  for (let round = 0; round <= MEMORY_ROUNDS; round++) {
    const mixed = await autocannon({
      url: base,
      connections: CONNECTIONS,
      amount: MEMORY_REQUESTS,
      requests: [
        { path: "/" },
        { path: "/mortgage-calculator?price=350000" },
        { path: "/knowledge-center?page=3", headers: { cookie: memberCookie } },
        { path: "/api/rss/articles?category=insurance", headers: { cookie: memberCookie } },
        { path: "/healthz" },
      ],
    });
    requests += mixed.requests.total;
    non2xx += mixed.non2xx;
    afterEachRound.push(rssMb(pid));
  }
  const [afterWarmUp, afterRequests] = afterEachRound;
  return {
    beforeWarmUp,
    afterWarmUp,
    requestsPerRound: MEMORY_REQUESTS,
    requests,
    non2xx,
    afterRequests,
    ...(MEMORY_ROUNDS > 1 ? { afterEachRound: afterEachRound.slice(1) } : {}),
    growthPercent: afterWarmUp && afterRequests ? Math.round(((afterRequests - afterWarmUp) / afterWarmUp) * 1000) / 10 : null,
    goalPercent: 10,
  };
}

async function main() {
  if (!fs.existsSync(path.join(BUILD_DIR, "server/index.js"))) throw new Error("No production build: run `npm run build` first.");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-load-"));
  const { memberCookie, staffCookie, memberCookies } = await seedSite(dataDir);
  const [barePort, expressPort, fastifyPort, sitePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const bare = await startBareServer(barePort);
  const bareExpress = await startBareExpress(expressPort);
  const bareFastify = await startBareFastify(fastifyPort);
  const site = await startSite(sitePort, dataDir);
  const base = `http://127.0.0.1:${sitePort}`;
  const member = { headers: { cookie: memberCookie } };
  let metricsSite: ChildProcess | null = null;
  let plainSite: ChildProcess | null = null;
  const staff = { headers: { cookie: staffCookie } };
  try {
    // Warm-up: the first renders load modules and fill the JIT.
    await load(`${base}/`, { duration: 2 });
    await load(`${base}/knowledge-center`, { duration: 2, ...member });
    const results: Record<string, Measured> = {};
    const measure = async (name: string, run: () => Promise<Measured>) => {
      if (ONLY && !ONLY.has(name)) return;
      const cpuBefore = cpuSeconds(site.pid!);
      const measured = await run();
      const cpuAfter = cpuSeconds(site.pid!);
      const answered = measured.ok2xx + measured.non2xx;
      // The site's own CPU per answer: unlike req/s, it holds on a machine busy with other work.
      if (!name.startsWith("bare") && cpuBefore !== null && cpuAfter !== null && answered > 0)
        measured.siteCpuMsPerRequest = Math.round(((cpuAfter - cpuBefore) * 1000 * 100) / answered) / 100;
      results[name] = measured;
    };
    await measure("bareNode", () => load(`http://127.0.0.1:${barePort}/`));
    await measure("bareExpress", () => load(`http://127.0.0.1:${expressPort}/`));
    if (bareFastify) await measure("bareFastify", () => load(`http://127.0.0.1:${fastifyPort}/`));
    await measure("healthz", () => load(`${base}/healthz`));
    await measure("staticFile", () => load(`${base}/favicon.svg`));
    await measure("homePage", () => load(`${base}/`));
    await measure("calculatorPage", () => load(`${base}/mortgage-calculator`));
    // The 404 page (issue 42 §2), anonymous: a different unknown path each time, as a crawler's
    // or an attacker's walk sends them; its CPU per answer beside the home page's (a kept page).
    await measure("notFoundPage", () => load(base, unknownPaths()));
    // The same as a browser asks for it (brotli accepted), beside the home page asked for alike.
    await measure("homePageBr", () => load(`${base}/`, { headers: { "accept-encoding": "gzip, deflate, br" } }));
    await measure("notFoundPageBr", () => load(base, unknownPaths({ "accept-encoding": "gzip, deflate, br" })));
    // The signed-in pages (issue 32), each by autocannon and by the plain keep-alive client.
    const signedInPages = {
      knowledgeCenterSignedIn: { path: "/knowledge-center", as: member },
      knowledgeCenterPage2: { path: "/knowledge-center?page=2", as: member },
      myAccount: { path: "/account", as: member },
      adminDashboardStaff: { path: "/admin/dashboard", as: staff },
    };
    // A signed-in member's 404: kept per role and shape, the member put in when served.
    await measure("notFoundPageSignedIn", () => load(`${base}/no-such-page`, member));
    for (const [name, { path: pagePath, as }] of Object.entries(signedInPages)) {
      await measure(name, () => load(`${base}${pagePath}`, as));
      await measure(`${name}KeepAlive`, () => loadKeepAlive(`${base}${pagePath}`, as.headers));
    }
    // My account as many members, each answer another member's: what a reminder mail's clicks bring.
    if (memberCookies.length) await measure("myAccountManyMembers", () => load(`${base}/account`, asEachMember(memberCookies)));
    await measure("staticFileKeepAlive", () => loadKeepAlive(`${base}/favicon.svg`));
    await measure("rssArticlesApi", () => load(`${base}/api/rss/articles?page=2`, member));
    await measure("featuredArticlesApi", () => load(`${base}/api/featured-articles`));
    const script = fs
      .readdirSync(path.join(BUILD_DIR, "client/assets"))
      .filter((f) => f.endsWith(".js"))
      .sort()[0];
    if (script) await measure("hashedScript", () => load(`${base}/assets/${script}`, { headers: { "accept-encoding": "br" } }));
    await measure("contactPost", () => load(base, contactPost()));
    const stored = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
    const contactMessagesStored = (stored.prepare("select count(*) as n from contact_messages").get() as { n: number }).n;
    stored.close();

    const memory = !ONLY || ONLY.has("memory") ? await memoryOver(base, site.pid!, memberCookie) : undefined;
    let counted: Awaited<ReturnType<typeof metricsCost>> | undefined;
    if (!ONLY || ONLY.has("metricsCost")) {
      // Two fresh instances started alike, one counting: the site measured above has served pages and differs.
      const [plainPort, metricsPort] = [await freePort(), await freePort()];
      plainSite = await startSite(plainPort, dataDir);
      metricsSite = await startSite(metricsPort, dataDir, { METRICS_TOKEN: "bench-metrics-token-0123" });
      const plainBase = `http://127.0.0.1:${plainPort}`;
      const metricsBase = `http://127.0.0.1:${metricsPort}`;
      await load(`${plainBase}/healthz`, { duration: 2 });
      await load(`${metricsBase}/healthz`, { duration: 2 });
      counted = await metricsCost({ base: plainBase, pid: plainSite.pid! }, { base: metricsBase, pid: metricsSite.pid! });
      const scraped = await fetch(`${metricsBase}/metrics`, { headers: { authorization: "Bearer bench-metrics-token-0123" } });
      if (!(await scraped.text()).includes('route="/healthz"')) throw new Error("the metrics instance did not count /healthz");
    }
    const report = {
      benchmark: "load",
      connections: CONNECTIONS,
      secondsPerTarget: SECONDS,
      node: process.version,
      cpus: os.cpus().length,
      results,
      ratios: {
        // Information only: decision 009 keeps Express, whose own minimal app is the ceiling.
        healthzToBareNode: { measured: ratio(results.healthz, results.bareNode) },
        // What Express itself allows: its own minimal app against bare Node, and /healthz against it.
        bareExpressToBareNode: { measured: ratio(results.bareExpress, results.bareNode) },
        healthzToBareExpress: { measured: ratio(results.healthz, results.bareExpress) },
        bareFastifyToBareNode: {
          measured: ratio(results.bareFastify, results.bareNode),
          ...(bareFastify ? {} : { note: "npm i --no-save fastify@5 to measure it" }),
        },
        homeToStatic: { measured: ratio(results.homePage, results.staticFile), goal: 0.5 },
        calculatorToStatic: { measured: ratio(results.calculatorPage, results.staticFile), goal: 0.5 },
      },
      // Issue 32's goal for every signed-in page: at least half the static file's rate, p99 under
      // 100 ms at 50 connections; autocannon's rows against its static file, the keep-alive
      // client's against its own.
      signedIn: Object.fromEntries(
        Object.keys(signedInPages).map((name) => {
          const row = (r: Measured | undefined, file: Measured | undefined) => {
            const toStatic = ratio(r, file);
            return {
              rps: r?.rps,
              toStatic,
              p99: r?.p99,
              siteCpuMsPerRequest: r?.siteCpuMsPerRequest,
              meets: toStatic !== null && r !== undefined ? toStatic >= 0.5 && r.p99 < 100 : null,
            };
          };
          return [
            name,
            {
              autocannon: row(results[name], results.staticFile),
              keepAlive: row(results[`${name}KeepAlive`], results.staticFileKeepAlive),
            },
          ];
        }),
      ),
      signedInGoal: { toStatic: 0.5, p99Ms: 100 },
      // Issue 42 §2: an unknown path's 404 costs at most 1.5 times a kept page's CPU (the home page's), in the same run.
      notFound: results.notFoundPage && {
        rps: results.notFoundPage.rps,
        p99: results.notFoundPage.p99,
        status404: results.notFoundPage.non2xx,
        siteCpuMsPerRequest: results.notFoundPage.siteCpuMsPerRequest,
        keptPageCpuMsPerRequest: results.homePage?.siteCpuMsPerRequest,
        cpuToKeptPage: cpuRatio(results.notFoundPage, results.homePage),
        rpsToKeptPage: ratio(results.notFoundPage, results.homePage),
        goalCpuToKeptPage: 1.5,
        meets: (cpuRatio(results.notFoundPage, results.homePage) ?? Infinity) <= 1.5,
        signedIn: results.notFoundPageSignedIn && {
          rps: results.notFoundPageSignedIn.rps,
          p99: results.notFoundPageSignedIn.p99,
          siteCpuMsPerRequest: results.notFoundPageSignedIn.siteCpuMsPerRequest,
          cpuToKeptPage: cpuRatio(results.notFoundPageSignedIn, results.homePage),
        },
        brotli: results.notFoundPageBr && {
          rps: results.notFoundPageBr.rps,
          p99: results.notFoundPageBr.p99,
          siteCpuMsPerRequest: results.notFoundPageBr.siteCpuMsPerRequest,
          keptPageCpuMsPerRequest: results.homePageBr?.siteCpuMsPerRequest,
          cpuToKeptPage: cpuRatio(results.notFoundPageBr, results.homePageBr),
          rpsToKeptPage: ratio(results.notFoundPageBr, results.homePageBr),
          meets: (cpuRatio(results.notFoundPageBr, results.homePageBr) ?? Infinity) <= 1.5,
        },
      },
      // Issue 42 §1: My account at least 0.25x the static file, p99 under 250 ms, at most 2 ms of CPU an answer.
      myAccount: results.myAccount && {
        rps: results.myAccount.rps,
        toStatic: ratio(results.myAccount, results.staticFile),
        p99: results.myAccount.p99,
        keepAliveToStatic: ratio(results.myAccountKeepAlive, results.staticFileKeepAlive),
        keepAliveP99: results.myAccountKeepAlive?.p99,
        siteCpuMsPerRequest: results.myAccount.siteCpuMsPerRequest,
        // The same page asked for by ACCOUNT_MEMBERS members in turn: nothing of one member's page serves another.
        manyMembers: results.myAccountManyMembers && {
          members: memberCookies.length,
          rps: results.myAccountManyMembers.rps,
          toStatic: ratio(results.myAccountManyMembers, results.staticFile),
          p99: results.myAccountManyMembers.p99,
          siteCpuMsPerRequest: results.myAccountManyMembers.siteCpuMsPerRequest,
        },
        goal: { toStatic: 0.25, p99Ms: 250, siteCpuMsPerRequest: 2 },
        meets:
          (ratio(results.myAccount, results.staticFile) ?? 0) >= 0.25 &&
          results.myAccount.p99 < 250 &&
          (results.myAccount.siteCpuMsPerRequest ?? Infinity) <= 2,
      },
      p99GoalMs: { goal: 50, homePage: results.homePage?.p99, calculatorPage: results.calculatorPage?.p99 },
      contactPost: results.contactPost && {
        answered2xx: results.contactPost.ok2xx,
        stored: contactMessagesStored,
        equal: results.contactPost.ok2xx === contactMessagesStored,
        answered5xx: results.contactPost.status5xx,
      },
      memoryMb: memory,
      metricsCost: counted,
    };
    report.ratios = Object.fromEntries(
      Object.entries(report.ratios).map(([name, r]) => [
        name,
        "goal" in r && r.measured !== null ? { ...r, meets: r.measured >= r.goal } : r,
      ]),
    ) as typeof report.ratios;
    console.log(JSON.stringify(report, null, 2));
  } finally {
    bare.kill("SIGKILL");
    bareExpress.kill("SIGKILL");
    bareFastify?.kill("SIGKILL");
    site.kill("SIGTERM");
    await new Promise((r) => site.once("exit", r));
    for (const extra of [plainSite, metricsSite]) {
      if (!extra) continue;
      extra.kill("SIGTERM");
      await new Promise((r) => extra.once("exit", r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
