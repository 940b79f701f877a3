import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { E2E_ENV } from "./env";
import { freePort } from "./second-site";

/**
 * Two instances of the built site on one PostgreSQL database, as docs/deployment.md runs
 * them behind a load balancer: everything shared lives in the database. Runs where CI has a
 * PostgreSQL server (TEST_DATABASE_URL); each run makes its own database and drops it.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
test.skip(!PG_URL, "needs PostgreSQL (TEST_DATABASE_URL)");
test.describe.configure({ mode: "serial" });

const ADMIN = { username: "instances-admin", password: "correct horse battery" };

async function admin(sql: string) {
  const url = new URL(PG_URL!);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Instance {
  url: string;
  child: ChildProcess;
  request(path: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>;
}

async function startInstance(databaseUrl: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { PUBLIC_URL: _own, DATA_DIR: _sqlite, ...base } = E2E_ENV;
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      ...base,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DATA_DIR: `${process.cwd()}/.tmp/instances-${port}`,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`an instance exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    request(path, init = {}) {
      const { json, cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set("Content-Type", "application/json");
      if (cookie) headers.set("Cookie", cookie);
      return fetch(url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
  };
}

async function signIn(site: Instance, username: string, password: string): Promise<string> {
  const res = await site.request("/api/auth/login", { method: "POST", json: { username, password, kind: "staff" } });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0].split(";")[0];
}

const me = async (site: Instance, cookie: string) =>
  ((await (await site.request("/api/auth/me", { cookie })).json()) as { user: { username: string } | null }).user;

let database: string;
let a: Instance;
let b: Instance;
let feedRequests = 0;
let feedItems: string[] = [];
let feedServer: http.Server;
let feedUrl: string;

test.beforeAll(async () => {
  database = `aha_instances_${crypto.randomBytes(4).toString("hex")}`;
  await admin(`create database ${database}`);
  const url = new URL(PG_URL!);
  url.pathname = `/${database}`;
  // Both start at once: migrations and the first admin account must not trip over each other.
  [a, b] = await Promise.all([startInstance(url.href), startInstance(url.href)]);
  feedServer = http.createServer((_req, res) => {
    feedRequests++;
    const items = feedItems
      .map(
        (title, i) =>
          `<item><title>${title}</title><link>https://news.example.org/${i}</link><guid>${title}</guid><pubDate>${new Date().toUTCString()}</pubDate></item>`,
      )
      .join("");
    // Slow enough that two ingests started together overlap.
    setTimeout(() => {
      res.writeHead(200, { "Content-Type": "application/rss+xml" });
      res.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Shared</title><link>https://news.example.org/</link><description>d</description>${items}</channel></rss>`,
      );
    }, 1500);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
});

test.afterAll(async () => {
  for (const site of [a, b])
    if (site) {
      site.child.kill("SIGTERM");
      if (site.child.exitCode === null) await new Promise((resolve) => site.child.once("exit", resolve));
    }
  feedServer?.close();
  if (database) await admin(`drop database if exists ${database} with (force)`);
});

test("a session made on one instance is honoured on the other, and a logout on one ends it on both", async () => {
  const cookie = await signIn(a, ADMIN.username, ADMIN.password);
  expect((await me(b, cookie))?.username).toBe(ADMIN.username);
  expect((await b.request("/api/admin/members", { cookie })).status).toBe(200);
  expect((await b.request("/api/auth/logout", { method: "POST", cookie })).status).toBe(200);
  expect(await me(a, cookie)).toBeNull();
  expect((await a.request("/api/admin/members", { cookie })).status).toBe(401);
});

test("the sign-in limit counts attempts on both instances together", async () => {
  const cookie = await signIn(a, ADMIN.username, ADMIN.password);
  const target = { username: `limit-${crypto.randomBytes(3).toString("hex")}`, password: "another long password" };
  expect((await a.request("/api/admin/staff", { method: "POST", cookie, json: { ...target, role: "limited_admin" } })).status).toBe(201);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const site = i % 2 ? b : a;
    statuses.push(
      (
        await site.request("/api/auth/login", {
          method: "POST",
          json: { username: target.username, password: "wrong password!", kind: "staff" },
        })
      ).status,
    );
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  // The right password is refused too while the account is locked, on either instance.
  expect((await b.request("/api/auth/login", { method: "POST", json: { ...target, kind: "staff" } })).status).toBe(429);
});

test("two ingests started at once on both instances run once, and what one changes the other shows at once", async () => {
  const cookie = await signIn(a, ADMIN.username, ADMIN.password);
  feedItems = ["Shared gutter guide"];
  const created = await a.request("/api/rss/feeds", {
    method: "POST",
    cookie,
    json: { name: "Shared feed", url: feedUrl, category: "maintenance_repair", is_active: true },
  });
  expect(created.status).toBe(201);
  const feed = ((await created.json()) as { feed: { id: number } }).feed;
  // A feed added on A is listed on B.
  const listed = (await (await b.request("/api/rss/feeds", { cookie })).json()) as { feeds: Array<{ id: number; name: string }> };
  expect(listed.feeds.map((f) => f.name)).toContain("Shared feed");

  feedRequests = 0;
  const [onA, onB] = await Promise.all([
    a.request("/api/rss/ingest", { method: "POST", cookie, json: {} }),
    b.request("/api/rss/ingest", { method: "POST", cookie, json: {} }),
  ]);
  // One runs; the other is answered at once (202) that the run is in progress, and follows it.
  expect([onA.status, onB.status].sort()).toEqual([200, 202]);
  expect(feedRequests).toBe(1);
  const [ran, told] = onA.status === 200 ? [onA, onB] : [onB, onA];
  const ranBody = (await ran.json()) as { run: { id: number }; counts: unknown };
  const toldBody = (await told.json()) as { inProgress?: boolean; run: { id: number | null } };
  expect(toldBody.inProgress).toBe(true);
  const follower = told === onA ? a : b;
  const followed = await follower.request(`/api/rss/ingest/status?run=${ranBody.run.id}`, { cookie });
  expect(followed.status).toBe(200);
  expect(await followed.json()).toMatchObject({ success: true, counts: ranBody.counts, run: { id: ranBody.run.id, status: "success" } });

  // The ingested article is in B's knowledge center and its home page block at once.
  const articles = (await (await b.request("/api/rss/articles", { cookie })).json()) as { articles: Array<{ title: string }> };
  expect(articles.articles.map((x) => x.title)).toContain("Shared gutter guide");
  const featured = JSON.stringify(await (await b.request("/api/featured-articles")).json());
  expect(featured).toContain("Shared gutter guide");

  // A feed edit on B is seen on A; a video added on A is listed on B.
  expect(
    (
      await b.request("/api/rss/feeds", {
        method: "PUT",
        cookie,
        json: { id: feed.id, name: "Renamed feed", url: feedUrl, category: "maintenance_repair", is_active: true },
      })
    ).status,
  ).toBe(200);
  const again = (await (await a.request("/api/rss/feeds", { cookie })).json()) as { feeds: Array<{ name: string }> };
  expect(again.feeds.map((f) => f.name)).toContain("Renamed feed");
  const categories = (await (await a.request("/api/videos/categories", { cookie })).json()) as {
    categories: Array<{ id?: string; value?: string; name?: string }>;
  };
  const category = categories.categories[0];
  const video = await a.request("/api/videos", {
    method: "POST",
    cookie,
    json: {
      title: "Shared video tutorial",
      youtube: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      category: category.value ?? category.id ?? category.name,
      duration: "",
    },
  });
  expect(video.status).toBe(201);
  expect(JSON.stringify(await (await b.request("/api/videos", { cookie })).json())).toContain("Shared video tutorial");
});
