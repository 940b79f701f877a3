import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { freePort } from "./second-site";
import {
  documentedNginxBlock,
  instanceEnv,
  nginxPath,
  opensslPath,
  selfSignedCertificate,
  send,
  startNginx,
  substitute,
  until,
  type Answer,
} from "./proxy-support";

/**
 * nginx, configured as docs/deployment.md shows (its ```nginx block, only addresses and paths
 * replaced), with TLS on a certificate made here, in front of two instances on one PostgreSQL
 * database (TRUST_PROXY=1, PUBLIC_URL the proxy's https address).
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const NGINX = nginxPath();
const OPENSSL = opensslPath();
const missing = !NGINX ? "nginx (install Debian's nginx, or set NGINX_PATH)" : !OPENSSL ? "openssl" : null;
if (missing && PG_URL) {
  const line = "!".repeat(78);
  console.error(`\n${line}\n  PROXY TESTS ${process.env.REQUIRE_E2E === "1" ? "FAIL" : "SKIPPED"}: no ${missing}\n${line}\n`);
}
test.skip(!PG_URL, "needs PostgreSQL (TEST_DATABASE_URL)");
test.skip(!!missing && process.env.REQUIRE_E2E !== "1", `no ${missing}`);
test.describe.configure({ mode: "serial" });

const ADMIN = { username: "proxy-admin", password: "correct horse battery" };

async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

interface Instance {
  port: number;
  child: ChildProcess;
}

let databaseUrl: string;
let adminUrl: string;
let database: string;
let dir: string;
let origin: string;
let ca: Buffer;
let nginx: ReturnType<typeof startNginx>;
const instances: Instance[] = [];
let publicUrl: string;
let httpPort: number;

async function startInstance(port: number): Promise<Instance> {
  const child = spawn(process.execPath, ["server.js"], {
    env: instanceEnv(port, databaseUrl, publicUrl, ADMIN),
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await until(`the instance on ${port} to answer /healthz`, async () => {
      if (child.exitCode !== null) throw new Error(`the instance on ${port} exited with ${child.exitCode}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
      } catch {
        return false; // not listening yet
      }
    });
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return { port, child };
}

async function stopInstance(instance: Instance) {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once("exit", resolve));
  instance.child.kill("SIGTERM");
  await exited;
}

const get = (p: string, headers: Record<string, string> = {}, localAddress?: string) => send(origin + p, ca, { headers, localAddress });
const post = (p: string, json: unknown, headers: Record<string, string> = {}, localAddress?: string) =>
  send(origin + p, ca, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(json),
    localAddress,
  });

const contact = (message: string) => ({ name: "Proxy Tester", email: "proxy@example.com", subject: "membership", message });

async function signIn(): Promise<string> {
  const res = await post("/api/auth/login", { ...ADMIN, kind: "staff" });
  expect(res.status).toBe(200);
  return (res.headers["set-cookie"] as string[])[0].split(";")[0];
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  if (missing) throw new Error(`REQUIRE_E2E=1: no ${missing}, so the proxy tests cannot run; that is a failure.`);
  database = `aha_proxy_${crypto.randomBytes(4).toString("hex")}`;
  const url = new URL(PG_URL!);
  url.pathname = "/postgres";
  adminUrl = url.href;
  await sql(adminUrl, `create database ${database}`);
  url.pathname = `/${database}`;
  databaseUrl = url.href;

  dir = path.resolve(`.tmp/proxy-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const certificate = selfSignedCertificate(OPENSSL!, dir);
  ca = certificate.pem;
  const [httpsPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  httpPort = await freePort();
  origin = `https://127.0.0.1:${httpsPort}`;
  publicUrl = origin;

  const block = substitute(documentedNginxBlock(), [
    ["server 10.0.0.11:3000", `server 127.0.0.1:${portA}`],
    ["server 10.0.0.12:3000", `server 127.0.0.1:${portB}`],
    ["/var/cache/nginx/aha", path.join(dir, "cache")],
    ["listen 80;", `listen 127.0.0.1:${httpPort};`],
    ["listen 443 ssl;", `listen 127.0.0.1:${httpsPort} ssl;`],
    ["/etc/ssl/aha/fullchain.pem", certificate.cert],
    ["/etc/ssl/aha/privkey.pem", certificate.key],
  ]);
  // Both start at once, as a deploy starts them: migrations must not trip over each other.
  instances.push(...(await Promise.all([startInstance(portA), startInstance(portB)])));
  nginx = startNginx(NGINX!, dir, block);
  await until("nginx to answer through to an instance", async () => {
    if (nginx.child.exitCode !== null) throw new Error(`nginx exited with ${nginx.child.exitCode}: see ${dir}/logs/error.log`);
    try {
      return (await get("/healthz")).status === 200;
    } catch {
      return false;
    }
  });
});

test.afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map(stopInstance));
  if (database) await sql(adminUrl, `drop database if exists ${database} with (force)`);
  for (const instance of instances) fs.rmSync(instanceEnv(instance.port, "", "", ADMIN).DATA_DIR, { recursive: true, force: true });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("over the proxy's HTTPS the session cookie is __Host- and Secure and HSTS is sent", async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: origin });
  const page = await context.newPage();
  const home = await page.goto("/");
  expect(home?.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");

  const login = await page.request.post("/api/auth/login", { data: { ...ADMIN, kind: "staff" } });
  expect(login.status()).toBe(200);
  const cookies = await context.cookies();
  expect(cookies.map((c) => c.name)).toContain("__Host-aha_session");
  // Every cookie the site sets over HTTPS (the session, the trusted device) is __Host- and Secure.
  for (const cookie of cookies) {
    expect(cookie.name).toMatch(/^__Host-/);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: "/" });
  }
  await page.goto("/about-us");
  await expect(page.getByText(`Welcome, ${ADMIN.username}`).first()).toBeAttached();
  await context.close();

  // Plain http is sent to https.
  const plain = await fetch(`http://127.0.0.1:${httpPort}/about-us`, { redirect: "manual" });
  expect(plain.status).toBe(301);
  expect(plain.headers.get("location")).toMatch(/^https:\/\/127\.0\.0\.1(:\d+)?\/about-us$/);
});

test("the limits see the address nginx forwards, never one a client sends itself", async () => {
  const forged = (i: number) => ({ "X-Forwarded-For": `203.0.113.${i}` });
  // Ten posts from one client, each claiming another address: the eleventh is refused.
  for (let i = 0; i < 10; i++)
    expect((await post("/api/submit-contact-form", contact(`limit ${i}`), forged(i), "127.0.0.8")).status).toBe(201);
  const refused = await post("/api/submit-contact-form", contact("limit 10"), forged(10), "127.0.0.8");
  expect(refused.status).toBe(429);
  // Another client (another address behind the same proxy) still may.
  expect((await post("/api/submit-contact-form", contact("another client"), forged(11), "127.0.0.9")).status).toBe(201);
  // The sign-in limit counts the same address.
  const login = await post(
    "/api/auth/login",
    { username: "nobody-here", password: "wrong password", kind: "staff" },
    forged(12),
    "127.0.0.10",
  );
  expect(login.status).toBe(401);

  const keys = (await sql<{ key: string }>(databaseUrl, "select key from rate_limits")).map((r) => r.key);
  const formKey = keys.find((k) => k.endsWith(":127.0.0.8"));
  expect(formKey).toBeDefined();
  const formFamily = formKey!.slice(0, -"127.0.0.8".length);
  expect(keys).toContain(`${formFamily}127.0.0.9`);
  expect(keys).not.toContain(`${formFamily}127.0.0.1`);
  expect(keys).toContain("login_ip:127.0.0.10");
  expect(keys.filter((k) => k.includes("203.0.113."))).toEqual([]);
});

test("nginx keeps a public page as its headers allow, and never a signed-in member's", async () => {
  const cookie = await signIn();
  const first = await get("/membership-benefits");
  expect(first.status).toBe(200);
  expect(first.headers["cache-control"]).toContain("s-maxage=300");
  expect(first.headers["vary"]).toContain("Cookie");
  expect(first.headers["x-cache-status"]).toBe("MISS");
  const second = await get("/membership-benefits");
  expect(second.headers["x-cache-status"]).toBe("HIT");
  expect(second.body).not.toContain(ADMIN.username);

  // The signed-in visitor passes the cache, gets their own page, and it is not kept.
  const member = await get("/membership-benefits", { Cookie: cookie });
  expect(member.headers["x-cache-status"]).toBe("BYPASS");
  expect(member.headers["cache-control"]).toBe("private, no-store");
  expect(member.body).toContain(ADMIN.username);
  const again = await get("/membership-benefits");
  expect(again.headers["x-cache-status"]).toBe("HIT");
  expect(again.body).not.toContain(ADMIN.username);

  // A member's page first asked signed in is not kept for anyone.
  const account = await get("/about-us", { Cookie: cookie });
  expect(account.headers["x-cache-status"]).toBe("BYPASS");
  expect(account.body).toContain(ADMIN.username);
  const anonymous = await get("/about-us");
  expect(anonymous.headers["x-cache-status"]).toBe("MISS");
  expect(anonymous.body).not.toContain(ADMIN.username);
  // nginx honours Vary: Cookie: another visitor's cookies (not the session) get their own copy.
  const otherCookie = await get("/about-us", { Cookie: "theme=dark" });
  expect(otherCookie.headers["x-cache-status"]).toBe("MISS");
  expect(otherCookie.body).not.toContain(ADMIN.username);
  expect((await get("/about-us", { Cookie: "theme=dark" })).headers["x-cache-status"]).toBe("HIT");
});

interface Outcome {
  kind: "page" | "member page" | "api" | "post";
  status: number;
  error?: string;
  marker?: string;
  at: number;
}

test("a rolling restart under load loses no request and stores every accepted post once", async () => {
  test.setTimeout(300_000);
  const cookie = await signIn();
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const record = async (kind: Outcome["kind"], request: () => Promise<Answer>, marker?: string) => {
    try {
      const res = await request();
      outcomes.push({ kind, status: res.status, marker, at: Date.now() });
    } catch (err) {
      outcomes.push({ kind, status: 0, error: (err as Error).message, marker, at: Date.now() });
    }
  };
  // A paced loop: steady traffic, not a flood that starves the instances on a small machine.
  const loop = async (step: () => Promise<void>) => {
    while (running) {
      await step();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const run = crypto.randomBytes(3).toString("hex");
  const loops = [
    // Distinct addresses pass nginx's cache: each view is rendered by an instance.
    loop(() => record("page", () => get(`/about-us?view=${n++}`))),
    loop(() => record("member page", () => get("/membership-benefits", { Cookie: cookie }))),
    loop(() => record("api", () => get("/api/auth/me", { Cookie: cookie }))),
    loop(() => {
      const i = n++;
      const marker = `rolling ${run} ${i}`;
      // Each post from its own client address, so the form limit (per address) never refuses one.
      return record("post", () => post("/api/submit-contact-form", contact(marker), {}, `127.1.${(i >> 8) & 255}.${i & 255}`), marker);
    }),
  ];
  const answered = (from: number) => outcomes.filter((o) => o.at >= from).length;
  const servedBy = (port: number, fromByte: number) => {
    const log = fs.readFileSync(nginx.accessLog, "utf8").slice(fromByte);
    return log
      .split("\n")
      .some((line) => new RegExp(`upstream=(?:[^ ]*, )?127\\.0\\.0\\.1:${port} upstream_status=(?:\\d+, )?2\\d\\d `).test(line));
  };

  const windows: Array<{ port: number; duringRestart: number }> = [];
  try {
    await until("the load to start", () => outcomes.length >= 8);
    for (const [i, instance] of instances.entries()) {
      const stoppedAt = Date.now();
      await stopInstance(instance);
      const logMark = fs.statSync(nginx.accessLog).size;
      instances[i] = await startInstance(instance.port);
      windows.push({ port: instance.port, duringRestart: answered(stoppedAt) });
      // Back in nginx's rotation (its fail_timeout after the refused connections) before the next one stops.
      await until(`nginx to send requests to the restarted instance on ${instance.port} again`, () => servedBy(instance.port, logMark));
    }
    const afterBoth = Date.now();
    await until("more load after both restarts", () => answered(afterBoth) >= 8);
  } finally {
    running = false;
    await Promise.all(loops);
  }

  const failures = outcomes.filter((o) => o.status === 0 || o.status >= 500);
  expect(failures, JSON.stringify(failures.slice(0, 10))).toEqual([]);
  for (const w of windows) expect(w.duringRestart, `requests answered while ${w.port} restarted`).toBeGreaterThan(0);
  const posts = outcomes.filter((o) => o.kind === "post");
  expect(posts.every((o) => o.status === 201)).toBe(true);

  const stored = await sql<{ message: string; copies: string }>(
    databaseUrl,
    "select message, count(*) as copies from contact_messages where message like $1 group by message",
    [`rolling ${run} %`],
  );
  const copies = new Map(stored.map((r) => [r.message, Number(r.copies)]));
  expect(posts.filter((o) => copies.get(o.marker!) !== 1).map((o) => o.marker)).toEqual([]);
  expect(copies.size).toBe(posts.length);

  const log = fs.readFileSync(nginx.accessLog, "utf8");
  const retried = log.split("\n").filter((line) => /upstream=[^ ]+, /.test(line)).length;
  console.log(
    `rolling restart: ${outcomes.length} requests (${posts.length} posts), ${retried} sent on to the other instance by nginx, ` +
      windows.map((w) => `${w.duringRestart} answered while ${w.port} restarted`).join(", "),
  );
});
