/**
 * `npm run bench:load`: requests per second and latency through the whole server, each beside
 * its ceiling measured in the same run (issue: "Fast at every layer"). Starts the production
 * build (`node server.js`, as `npm start` runs it; run `npm run build` first) on a fresh
 * embedded database and a bare Node `http` server, both on loopback, then loads each target
 * with autocannon at 50 connections for BENCH_SECONDS (default 10) and prints one JSON object:
 * per target (a bare server, /healthz, a static file, the home page, the calculator, the
 * featured articles API, a hashed script) req/s, p50 and p99 (ms) and non-2xx answers, the
 * ratios against their ceilings
 * with the goals, and the server's resident memory before and after.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The build to start (server.js reads BUILD_DIR too): another checkout's build can be measured the same way. */
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");
const CONNECTIONS = 50;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}: not up within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The ceiling of any request: Node's own HTTP server answering a small JSON body, in its own process. */
async function startBareServer(port: number) {
  const code = `require("node:http").createServer((req, res) => { res.setHeader("content-type", "application/json"); res.end('{"status":"ok"}'); }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  await waitUntilUp(`http://127.0.0.1:${port}/`, child);
  return child;
}

async function startSite(port: number, dataDir: string) {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // The production default: every request is logged, as in real use.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
      RSS_INGEST_INTERVAL_MINUTES: "0",
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

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, opts: Partial<autocannon.Options> = {}): Promise<Measured> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

async function main() {
  if (!fs.existsSync(path.join(BUILD_DIR, "server/index.js"))) throw new Error("No production build: run `npm run build` first.");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-load-"));
  const [barePort, sitePort] = [await freePort(), await freePort()];
  const bare = await startBareServer(barePort);
  const site = await startSite(sitePort, dataDir);
  const base = `http://127.0.0.1:${sitePort}`;
  try {
    // Warm-up: the first renders load modules and fill the JIT.
    await load(`${base}/`, { duration: 2 });
    const rssBefore = rssMb(site.pid!);
    const results: Record<string, Measured> = {};
    results.bareNode = await load(`http://127.0.0.1:${barePort}/`);
    results.healthz = await load(`${base}/healthz`);
    results.staticFile = await load(`${base}/favicon.svg`);
    results.homePage = await load(`${base}/`);
    results.calculatorPage = await load(`${base}/mortgage-calculator`);
    results.featuredArticlesApi = await load(`${base}/api/featured-articles`);
    const script = fs
      .readdirSync(path.join(BUILD_DIR, "client/assets"))
      .filter((f) => f.endsWith(".js"))
      .sort()[0];
    if (script) results.hashedScript = await load(`${base}/assets/${script}`, { headers: { "accept-encoding": "br" } });
    const rssAfter = rssMb(site.pid!);
    const report = {
      benchmark: "load",
      connections: CONNECTIONS,
      secondsPerTarget: SECONDS,
      node: process.version,
      cpus: os.cpus().length,
      results,
      ratios: {
        healthzToBareNode: { measured: ratio(results.healthz.rps, results.bareNode.rps), goal: 0.5 },
        homeToStatic: { measured: ratio(results.homePage.rps, results.staticFile.rps), goal: 0.5 },
        calculatorToStatic: { measured: ratio(results.calculatorPage.rps, results.staticFile.rps), goal: 0.5 },
      },
      p99GoalMs: { goal: 50, homePage: results.homePage.p99, calculatorPage: results.calculatorPage.p99 },
      memoryMb: { afterWarmUp: rssBefore, afterLoad: rssAfter },
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    bare.kill("SIGKILL");
    site.kill("SIGTERM");
    await new Promise((r) => site.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
