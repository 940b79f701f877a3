import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import readline from "node:readline";
import SQLite from "better-sqlite3";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR, E2E_ENV } from "./env";
import { freePort } from "./second-site";

/**
 * `npm start` runs the built server with plain Node. Whatever NODE_ENV the caller has, the
 * server must load React's production build (the development one serves about half as many
 * pages a second).
 */
test("the production start loads React's production build even when NODE_ENV says development", async () => {
  const port = await freePort();
  const dataDir = `${E2E_DATA_DIR}-production-start`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...E2E_ENV, NODE_ENV: "development", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server did not start within 60 s")), 60_000);
      child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
      readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        if (!line.startsWith("{")) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === "listening") {
          clearTimeout(timer);
          resolve(entry);
        }
      });
    });
    expect(listening.reactBuild).toBe("production");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<!DOCTYPE html>");
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The built server on its own port and data directory, with its log lines as they come. */
async function startLoggedServer(env: Record<string, string> = {}, again?: { port: number; dataDir: string }) {
  const port = again?.port ?? (await freePort());
  const dataDir = again?.dataDir ?? `${E2E_DATA_DIR}-shutdown-${port}`;
  if (!again) fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...E2E_ENV, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const logged = async (msg: string) => {
    for (;;) {
      const found = lines.find((l) => l.msg === msg);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`the server exited before logging "${msg}"`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  await logged("listening");
  return { port, dataDir, child, exited, logged };
}

/**
 * An HTTP request whose body is held back: `received` settles when the server has read its
 * head (it answers `Expect: 100-continue`), `ended` with the whole answer when it closes.
 */
function openRequest(port: number, head: string) {
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  let heard: () => void;
  const received = new Promise<void>((resolve) => (heard = resolve));
  socket.on("data", (chunk) => {
    answer += chunk.toString("utf8");
    if (answer.startsWith("HTTP/1.1 100")) heard();
  });
  const ended = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  socket.on("error", () => undefined);
  socket.write(head);
  return { socket, received, ended };
}

async function refusesConnections(port: number) {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.once("connect", () => (probe.destroy(), resolve(false)));
      probe.once("error", () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test.describe("stopping (SIGTERM)", () => {
  const contact = JSON.stringify({ name: "Dana Shutdown", email: "dana@example.com", subject: "membership", message: "Still there?" });
  const head = (port: number) =>
    `POST /api/forms HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(contact)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;

  test("a request in flight finishes and is stored, new connections are refused, the database closes whole", async () => {
    const site = await startLoggedServer();
    try {
      const request = openRequest(site.port, head(site.port));
      await request.received;
      request.socket.write(contact.slice(0, 20));
      site.child.kill("SIGTERM");
      await site.logged("shutting down");
      await refusesConnections(site.port);
      request.socket.write(contact.slice(20));
      const answer = await request.ended;
      expect(answer).toMatch(/\r\n\r\nHTTP\/1\.1 201 /);
      expect(await site.exited).toBe(0);
      const stopped = await site.logged("stopped");
      expect(stopped.requestsCutOff).toBe(false);
      const db = new SQLite(`${site.dataDir}/app.db`, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.prepare("select count(*) as n from contact_messages where name = 'Dana Shutdown'").get()).toEqual({ n: 1 });
      } finally {
        db.close();
      }
    } finally {
      site.child.kill("SIGKILL");
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });

  test("while it drains (SHUTDOWN_DRAIN_SECONDS) /readyz says 503 and everything else is still answered, then it stops", async () => {
    const site = await startLoggedServer({ SHUTDOWN_DRAIN_SECONDS: "8" });
    const base = `http://127.0.0.1:${site.port}`;
    try {
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready" });
      const request = openRequest(site.port, head(site.port));
      await request.received;
      request.socket.write(contact.slice(0, 20));
      site.child.kill("SIGTERM");
      expect((await site.logged("shutting down")).drainSeconds).toBe(8);
      const draining = await fetch(`${base}/readyz`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({ status: "draining" });
      // Liveness is not readiness: the instance is alive and its database answers.
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/api/auth/me`)).status).toBe(200);
      request.socket.write(contact.slice(20));
      expect(await request.ended).toMatch(/\r\n\r\nHTTP\/1\.1 201 /);
      await refusesConnections(site.port);
      expect(await site.exited).toBe(0);
      expect((await site.logged("stopped")).requestsCutOff).toBe(false);
    } finally {
      site.child.kill("SIGKILL");
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });

  test("a request that never finishes is cut off after the grace period and the process still exits", async () => {
    const site = await startLoggedServer({ SHUTDOWN_GRACE_SECONDS: "1" });
    try {
      const stalled = openRequest(site.port, head(site.port));
      await stalled.received;
      site.child.kill("SIGTERM");
      expect(await site.exited).toBe(0);
      expect((await site.logged("stopped")).requestsCutOff).toBe(true);
      await stalled.ended;
    } finally {
      site.child.kill("SIGKILL");
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});

test.describe("killed (SIGKILL) in the middle of an ingest", () => {
  test("the restarted server marks the run interrupted, its database is whole, and the next ingest runs at once", async () => {
    let fetched: () => void;
    const feedAsked = new Promise<void>((resolve) => (fetched = resolve));
    let answerFeeds = false;
    const feeds = http.createServer((_req, res) => {
      fetched();
      // The first fetch never answers: the server is killed while it waits.
      if (!answerFeeds) return;
      res.writeHead(200, { "Content-Type": "application/rss+xml" });
      res.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://news.example.org/</link><description>d</description><item><title>After the crash</title><link>https://news.example.org/a</link><guid>after-the-crash</guid></item></channel></rss>`,
      );
    });
    await new Promise<void>((resolve) => feeds.listen(0, "127.0.0.1", resolve));
    const feedUrl = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/feed.xml`;
    const admin = { ADMIN_USERNAME: "kill-admin", ADMIN_PASSWORD: "correct horse battery" };
    let site = await startLoggedServer(admin);
    const { port, dataDir } = site;
    const base = `http://127.0.0.1:${port}`;
    const signIn = async () => {
      const res = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: admin.ADMIN_USERNAME, password: admin.ADMIN_PASSWORD, kind: "staff" }),
      });
      return res.headers.getSetCookie()[0].split(";")[0];
    };
    const call = (path: string, cookie: string, json?: unknown) =>
      fetch(`${base}${path}`, {
        method: json === undefined ? "GET" : "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
    try {
      let cookie = await signIn();
      expect(
        (await call("/api/rss/feeds", cookie, { name: "Killed feed", url: feedUrl, category: "general", is_active: true })).status,
      ).toBe(201);
      void call("/api/rss/ingest", cookie, {}).catch(() => undefined);
      await feedAsked;
      site.child.kill("SIGKILL");
      await site.exited;

      site = await startLoggedServer(admin, { port, dataDir });
      const db = new SQLite(`${dataDir}/app.db`, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.prepare("select status from ingest_runs order by id").all()).toEqual([{ status: "interrupted" }]);
      } finally {
        db.close();
      }
      cookie = await signIn();
      answerFeeds = true;
      const next = await call("/api/rss/ingest", cookie, {});
      expect(next.status).toBe(200);
      expect(((await next.json()) as { success: boolean }).success).toBe(true);
      const articles = (await (await call("/api/rss/articles", cookie)).json()) as { articles: Array<{ title: string }> };
      expect(articles.articles.map((a) => a.title)).toContain("After the crash");
    } finally {
      site.child.kill("SIGKILL");
      feeds.closeAllConnections();
      feeds.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test.describe("killed (SIGKILL) in the middle of a member import", () => {
  test("the restarted server's database is whole, the import wholly there or wholly absent, and the same upload then imports at once", async () => {
    // 100,000 rows are imported twice on a machine that may be busy.
    test.setTimeout(240_000);
    const ROWS = 100_000;
    const csv =
      "certificate_number,birthdate,first_name,last_name,email\r\n" +
      Array.from(
        { length: ROWS },
        (_, i) => `KILL${String(i).padStart(7, "0")},${1940 + (i % 60)}-0${1 + (i % 9)}-1${i % 10},First${i},Last${i},\r\n`,
      ).join("");
    const admin = { ADMIN_USERNAME: "import-kill-admin", ADMIN_PASSWORD: "correct horse battery" };
    let site = await startLoggedServer(admin);
    const { port, dataDir } = site;
    const base = `http://127.0.0.1:${port}`;
    const signIn = async () => {
      const res = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username: admin.ADMIN_USERNAME, password: admin.ADMIN_PASSWORD, kind: "staff" }),
      });
      return res.headers.getSetCookie()[0].split(";")[0];
    };
    const upload = (cookie: string) => {
      const form = new FormData();
      form.append("csvFile", new Blob([csv], { type: "text/csv" }), "members.csv");
      return fetch(`${base}/api/upload-users`, { method: "POST", headers: { Cookie: cookie }, body: form });
    };
    const walBytes = () => fs.statSync(`${dataDir}/app.db-wal`, { throwIfNoEntry: false })?.size ?? 0;
    const members = () => {
      const db = new SQLite(`${dataDir}/app.db`, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        const { n } = db.prepare("select count(*) as n from users where certificate_number like 'KILL%'").get() as { n: number };
        const { logged } = db.prepare("select count(*) as logged from audit_log where action like '%import%'").get() as { logged: number };
        return { n, logged };
      } finally {
        db.close();
      }
    };
    try {
      const before = walBytes();
      const answered = upload(await signIn()).then(
        (res) => `answered ${res.status}`,
        () => "cut off",
      );
      // Killed once the import's one write transaction has put megabytes of rows into the
      // write-ahead log, and before it answered.
      for (;;) {
        const settled = await Promise.race([answered, new Promise<null>((resolve) => setImmediate(() => resolve(null)))]);
        if (settled !== null) throw new Error(`the import ${settled} before it could be killed`);
        if (walBytes() > before + 4 * 1024 * 1024) break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      site.child.kill("SIGKILL");
      await site.exited;
      expect(await answered).toBe("cut off");

      site = await startLoggedServer(admin, { port, dataDir });
      const afterCrash = members();
      // Wholly absent (killed before its commit), or wholly there with its audit entry.
      expect([0, ROWS]).toContain(afterCrash.n);
      expect(afterCrash.logged).toBe(afterCrash.n === 0 ? 0 : 1);

      // The same file again: the claim of the killed process does not hold it up.
      const retry = await upload(await signIn());
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as { success: boolean }).success).toBe(true);
      expect(members()).toEqual({ n: ROWS, logged: afterCrash.n === 0 ? 1 : 2 });
    } finally {
      site.child.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

test.describe("restore (npm run admin -- restore)", () => {
  /** The admin command line as `npm run admin` runs it, on the given data directory. */
  async function admin(dataDir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/admin.ts", ...args], {
      env: { ...process.env, ...E2E_ENV, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    return { code, out: out.trim() };
  }
  const marks = (dataDir: string) => fs.readdirSync(`${dataDir}/app.db.servers`).filter((n) => n.endsWith(".holder"));
  const written = (dataDir: string) => {
    const db = new SQLite(`${dataDir}/app.db`);
    try {
      return (db.prepare("select count(*) as n from contact_messages where name = 'Written After The Backup'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  test("is refused while the site runs on the database and loses nothing; works once the site stopped, or was killed", async () => {
    // Four runs of the command line through tsx and two server starts: minutes on a busy machine.
    test.setTimeout(480_000);
    const site = await startLoggedServer();
    const backup = path.join(site.dataDir, "before.db");
    try {
      expect(await admin(site.dataDir, "backup", backup)).toMatchObject({ code: 0 });
      const db = new SQLite(`${site.dataDir}/app.db`);
      db.pragma("busy_timeout = 5000");
      // Written as the store writes a submission: its number, its row, the kind's row.
      db.transaction(() => {
        const { last } = db
          .prepare("update submission_numbers set last = last + 1 where source = 'contact_messages' returning last")
          .get() as {
          last: number;
        };
        const { id } = db
          .prepare(
            "insert into submissions (source, row_id, status, status_rank, type_rank, submitted_at, name_key, email_key, search_text) values ('contact_messages', ?, 'pending', 1, 1, '2026-01-01', 'written after the backup', 'w@example.com', 'written after the backup') returning id",
          )
          .get(last) as { id: number };
        db.prepare(
          "insert into contact_messages (id, submission_id, name, email, subject, message) values (?, ?, 'Written After The Backup', 'w@example.com', 'other', 'm')",
        ).run(last, id);
      })();
      db.close();

      const refused = await admin(site.dataDir, "restore", backup);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(
        new RegExp(
          `^The site is still running on this database \\(process ${site.child.pid} on [^)]+\\)\\. Stop the site first, then run restore again`,
        ),
      );
      expect(written(site.dataDir)).toBe(1);
      expect((await fetch(`http://127.0.0.1:${site.port}/healthz`)).ok).toBe(true);

      site.child.kill("SIGTERM");
      expect(await site.exited).toBe(0);
      expect(marks(site.dataDir)).toEqual([]);
      expect(await admin(site.dataDir, "restore", backup)).toEqual({ code: 0, out: `Restored the database from ${backup}.` });
      expect(written(site.dataDir)).toBe(0);

      // Killed, the server leaves its mark behind; the restore sees that its process is gone.
      const again = await startLoggedServer({}, { port: site.port, dataDir: site.dataDir });
      expect(marks(site.dataDir)).toHaveLength(1);
      again.child.kill("SIGKILL");
      await again.exited;
      expect(marks(site.dataDir)).toHaveLength(1);
      expect(await admin(site.dataDir, "restore", backup)).toEqual({ code: 0, out: `Restored the database from ${backup}.` });
      expect(marks(site.dataDir)).toEqual([]);
    } finally {
      site.child.kill("SIGKILL");
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * While the database migrates, the socket is open: the checks answer 503 "starting" (a load
 * balancer's check waits rather than fails), and any other request waits for the site and is
 * then answered, a post stored once. The migration is held by taking the lock Kysely's
 * migrator takes on PostgreSQL (an advisory lock; on SQLite the wait would block the event loop).
 */
test("starting: /readyz and /healthz say 503 until the migration is done, then 200; a page and a post sent meanwhile are answered then", async () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skip(!url, "needs PostgreSQL (TEST_DATABASE_URL)");
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const database = `readyz_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${database}`);
  const siteUrl = new URL(url!);
  siteUrl.pathname = `/${database}`;
  const lock = new pg.Client({ connectionString: siteUrl.toString() });
  await lock.connect();
  await lock.query("select pg_advisory_lock(3853314791062309107)");
  const port = await freePort();
  const dataDir = `${E2E_DATA_DIR}-starting-${port}`;
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...E2E_ENV, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: siteUrl.toString(), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const listening = new Promise<void>((resolve) => {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes('"msg":"listening"')) resolve();
    });
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    let starting: Response | null = null;
    while (!starting) starting = await fetch(`${base}/readyz`).catch(() => null);
    expect(starting.status).toBe(503);
    expect(starting.headers.get("retry-after")).toBe("5");
    expect(await starting.json()).toEqual({ status: "starting" });
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
    let answered = 0;
    const page = fetch(`${base}/`).finally(() => answered++);
    const post = fetch(`${base}/api/forms`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: E2E_ENV.PUBLIC_URL },
      body: JSON.stringify({
        name: "Early Sender",
        email: "early@example.com",
        phone: "",
        subject: "warranty",
        message: "Sent while the site starts",
      }),
    }).finally(() => answered++);
    // The checks still answer at once; the page and the post wait for the site.
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect(answered).toBe(0);
    await lock.query("select pg_advisory_unlock(3853314791062309107)");
    await listening;
    expect((await page).status).toBe(200);
    expect((await post).status).toBe(201);
    const site = new pg.Client({ connectionString: siteUrl.toString() });
    await site.connect();
    const stored = await site.query("select count(*)::int as n from contact_messages where email = 'early@example.com'");
    await site.end();
    expect(stored.rows[0].n).toBe(1);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  } finally {
    child.kill("SIGKILL");
    await lock.end();
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
