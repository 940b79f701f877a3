import fs from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nowIso } from "../../app/platform/db.server";
import { AppMetrics, startMetricsServer } from "../../app/server/metrics.server";
import { createApp, metricsOf } from "../../app/server/app.server";
import { Readiness } from "../../app/server/readiness.server";
import { configureHttpServer } from "../../app/platform/http.server";
import { createTestContext, describeEachDatabase, loginAs, startTestServer, type TestServer } from "../support/test-app";
import { startPageTestServer, type PageTestServer } from "../support/page-app";
import { freePort, startSmtp } from "../support/smtp";
import { endsWithTheFile, LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** GET /metrics (issue 34): protected, labelled by route and never by path, and what each figure counts. */
const TOKEN = "metrics-token-0123456789";
const auth = { headers: { Authorization: `Bearer ${TOKEN}` } };

async function scrape(server: TestServer): Promise<string> {
  const res = await server.request("/metrics", auth);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series ("name{labels}" exactly as printed), or undefined when absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The site's own series (Node's default metrics vary with the process, not with what is asked). */
const seriesCount = (text: string) => text.split("\n").filter((l) => l.startsWith("http_") || l.startsWith("aha_")).length;

describeEachDatabase("GET /metrics", (dialect) => {
  describe("protection", () => {
    it("is a 404 when neither METRICS_TOKEN nor METRICS_PORT is set", async () => {
      const server = await startTestServer(dialect);
      try {
        expect((await server.request("/metrics")).status).toBe(404);
        expect((await server.request("/metrics", auth)).status).toBe(404);
        expect(metricsOf(createApp(server.services))).toBeNull();
      } finally {
        await server.close();
      }
    });

    it("asks for the bearer token: none or a wrong one is a 401, the right one the Prometheus text", async () => {
      const server = await startTestServer(dialect, { METRICS_TOKEN: TOKEN });
      try {
        const none = await server.request("/metrics");
        expect(none.status).toBe(401);
        expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect((await server.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
        expect((await server.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN.slice(1)}` } })).status).toBe(401);
        expect((await server.request("/metrics", { headers: { Authorization: TOKEN } })).status).toBe(401);
        // The scheme is case-insensitive (issue 39); the token is not.
        for (const scheme of ["bearer", "BEARER", "bEaReR"])
          expect((await server.request("/metrics", { headers: { Authorization: `${scheme} ${TOKEN}` } })).status, scheme).toBe(200);
        expect((await server.request("/metrics", { headers: { Authorization: `bearer ${TOKEN.toUpperCase()}` } })).status).toBe(401);
        expect((await server.request("/metrics", { headers: { Authorization: `Basic ${TOKEN}` } })).status).toBe(401);
        const ok = await server.request("/metrics", auth);
        expect(ok.status).toBe(200);
        expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(ok.headers.get("cache-control")).toBe("no-store");
      } finally {
        await server.close();
      }
    });

    it("with METRICS_PORT alone: not on the site's port; on its own port of the loopback address only", async () => {
      const port = await freePort();
      const server = await startTestServer(dialect, { METRICS_PORT: String(port) });
      let own: Server | null = null;
      try {
        expect((await server.request("/metrics")).status).toBe(404);
        const metrics = metricsOf(createApp(server.services))!;
        own = await startMetricsServer(metrics, port);
        expect((own.address() as AddressInfo).address).toBe("127.0.0.1");
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain("# TYPE http_requests_total counter");
        expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
        expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" })).status).toBe(404);
      } finally {
        own?.close();
        await server.close();
      }
    });
  });

  describe("what is counted", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { METRICS_TOKEN: TOKEN });
    });
    afterAll(() => server.close());

    it("names every figure docs/operations.md alerts on, and Node's default metrics", async () => {
      const text = await scrape(server);
      for (const name of [
        "http_requests_total",
        "http_request_duration_seconds",
        "aha_sessions_active",
        "aha_sign_in_failures_total",
        "aha_sign_in_throttled_total",
        "aha_feeds",
        "aha_ingest_runs",
        "aha_ingest_last_success_timestamp_seconds",
        "aha_imports",
        "aha_mail_sent_total",
        "aha_mail_failed_total",
        "aha_mail_outbox_backlog",
        "aha_page_cache_lookups_total",
        "nodejs_eventloop_lag_p99_seconds",
        "process_cpu_seconds_total",
        "nodejs_heap_size_used_bytes",
        ...(dialect === "postgres"
          ? ["aha_db_pool_connections", "aha_db_pool_waiting"]
          : ["aha_db_sqlite_busy_waits_total", "aha_db_sqlite_lock_wait_seconds_total"]),
      ]) {
        expect(text, name).toContain(`# TYPE ${name} `);
      }
      if (dialect === "postgres") expect(value(text, 'aha_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    });

    it("exposes every metric docs/operations.md names (but the backup job's own)", async () => {
      const text = await scrape(server);
      const documented = new Set(
        [...fs.readFileSync("docs/operations.md", "utf8").matchAll(/\b((?:aha|http|nodejs)_[a-z0-9_]+)/g)]
          .map(([, name]) => name.replace(/_(bucket|count|sum)$/, ""))
          .filter((name) => !name.startsWith("aha_backup"))
          .filter((name) => (dialect === "postgres" ? !name.startsWith("aha_db_sqlite_") : !name.startsWith("aha_db_pool_"))),
      );
      expect(documented.size).toBeGreaterThan(15);
      for (const name of documented) expect(text, name).toContain(`# TYPE ${name} `);
    });

    it("labels requests by route pattern and status, never by path", async () => {
      await server.request("/api/auth/me");
      const { cookie } = await loginAs(server, "super_admin");
      await server.request("/api/admin/submissions/contact-12345", { cookie });
      await server.request("/api/no-such-endpoint-777");
      await server.request("/healthz");
      const text = await scrape(server);
      expect(value(text, 'http_requests_total{method="GET",route="/api/auth/me",status="200"}')).toBe(1);
      expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/admin\/submissions\/:id",status="4\d\d"\} 1/);
      expect(value(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
      expect(value(text, 'http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}')).toBe(1);
      // In no label value (a figure such as the event loop lag may hold the digits by chance).
      expect(text).not.toMatch(/"[^"\n]*12345[^"\n]*"/);
      expect(text).not.toContain("no-such-endpoint");
    });

    it("counts refused sign-ins and throttled ones, and the sessions signed in", async () => {
      await server.services.database.db.deleteFrom("sessions").execute();
      const before = await scrape(server);
      const failed0 = value(before, "aha_sign_in_failures_total") ?? NaN;
      const throttled0 = value(before, "aha_sign_in_throttled_total") ?? NaN;
      const sessions0 = value(before, "aha_sessions_active") ?? NaN;
      let status = 0;
      let attempts = 0;
      while (status !== 429 && attempts < 10) {
        attempts++;
        status = (
          await server.request("/api/auth/login", {
            method: "POST",
            json: { username: "nobody-here", password: "wrong password!", kind: "staff" },
          })
        ).status;
      }
      expect(status).toBe(429);
      await loginAs(server, "member");
      const after = await scrape(server);
      expect(value(after, "aha_sign_in_failures_total")).toBe(failed0 + attempts - 1);
      expect(value(after, "aha_sign_in_throttled_total")).toBe(throttled0 + 1);
      expect(value(after, "aha_sessions_active")).toBe(sessions0 + 1);
    });

    it("reads failing feeds, ingest runs and imports from the database", async () => {
      const { db } = server.services.database;
      const now = nowIso();
      const feed = (name: string, failures: number, active = 1) => ({
        name,
        url: `https://feeds.example.org/${name}.xml`,
        category: "general",
        is_active: active,
        consecutive_failures: failures,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto("rss_feeds")
        .values([feed("ok", 0), feed("down", 3), feed("off", 5, 0)])
        .execute();
      await db
        .insertInto("ingest_runs")
        .values([
          { started_at: now, finished_at: "2026-01-02T03:04:05.000Z", status: "success", reason: "test" },
          { started_at: now, finished_at: now, status: "failed", reason: "test" },
        ])
        .execute();
      await db.insertInto("audit_log").values({ created_at: now, action: "members.import", row_count: 3 }).execute();
      const text = await scrape(server);
      expect(value(text, 'aha_feeds{state="active"}')).toBe(2);
      expect(value(text, 'aha_feeds{state="failing"}')).toBe(1);
      expect(value(text, 'aha_ingest_runs{status="success"}')).toBe(1);
      expect(value(text, 'aha_ingest_runs{status="failed"}')).toBe(1);
      expect(value(text, "aha_ingest_last_success_timestamp_seconds")).toBe(Date.parse("2026-01-02T03:04:05.000Z") / 1000);
      expect(value(text, 'aha_imports{kind="members"}')).toBe(1);
      expect(value(text, 'aha_imports{kind="payments"}')).toBe(0);
    });

    if (dialect === "sqlite")
      it("counts SQLite's waits for the write lock held by another connection", async () => {
        const native = server.services.database.native;
        if (native.dialect !== "sqlite") throw new Error("sqlite expected");
        const other = new SQLite(native.database.name);
        native.database.pragma("busy_timeout = 100");
        try {
          other.exec("begin immediate");
          await expect(server.services.database.db.transaction().execute(async () => undefined)).rejects.toThrow(/busy|locked/i);
          other.exec("commit");
        } finally {
          native.database.pragma("busy_timeout = 5000");
          other.close();
        }
        const text = await scrape(server);
        expect(value(text, "aha_db_sqlite_busy_waits_total")).toBe(1);
        expect(value(text, "aha_db_sqlite_lock_wait_seconds_total")).toBeGreaterThanOrEqual(0.09);
      });
  });

  it("counts mail sent and failed: staff notifications and the site's own mail", async () => {
    const smtp = await startSmtp();
    const server = await startTestServer(dialect, {
      METRICS_TOKEN: TOKEN,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      NOTIFY_EMAIL: "staff@example.org",
    });
    const closedPort = await freePort();
    const refused = await startTestServer(dialect, {
      METRICS_TOKEN: TOKEN,
      SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
      NOTIFY_EMAIL: "staff@example.org",
    });
    try {
      const contact = { name: "Robin Metrics", email: "robin@example.com", subject: "membership", message: "Counting mail" };
      for (const site of [server, refused]) {
        expect((await site.request("/api/forms", { method: "POST", json: contact })).status).toBe(201);
        await site.services.submissions.notifier.settled();
      }
      await server.services.mailer.send("pat@example.com", "Welcome", "Hello");
      await expect(refused.services.mailer.send("pat@example.com", "Welcome", "Hello")).rejects.toThrow();
      const sent = await scrape(server);
      expect(value(sent, 'aha_mail_sent_total{kind="staff_notification"}')).toBe(1);
      expect(value(sent, 'aha_mail_sent_total{kind="personal"}')).toBe(1);
      expect(value(sent, 'aha_mail_failed_total{kind="staff_notification"}')).toBe(0);
      expect(value(sent, "aha_mail_outbox_backlog")).toBe(0);
      const failed = await scrape(refused);
      expect(value(failed, 'aha_mail_failed_total{kind="staff_notification"}')).toBe(1);
      expect(value(failed, 'aha_mail_failed_total{kind="personal"}')).toBe(1);
      expect(value(failed, 'aha_mail_sent_total{kind="staff_notification"}')).toBe(0);
    } finally {
      await server.close();
      await refused.close();
      await smtp.close();
    }
  });

  it("counts the membership reminders sent and refused (issue 39)", async () => {
    let refusing = true;
    const smtp = await startSmtp({ refuse: () => (refusing ? "451 4.3.0 Mailbox busy, try again later" : null) });
    let clock = new Date("2027-03-20T16:00:00Z");
    const server = await startTestServer(
      dialect,
      { METRICS_TOKEN: TOKEN, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
      { reminders: { now: () => clock, settings: { ratePerSecond: 1000 } } },
    );
    try {
      const { db } = server.services.database;
      const { id } = await server.services.auth.users.createMember({
        certificate: `METRICS-REM-${dialect}`,
        birthdateDigest: server.services.auth.digestBirthdate("1980-01-15"),
        firstName: "Robin",
      });
      await db.updateTable("users").set({ email: "robin@example.org" }).where("id", "=", id).execute();
      const at = new Date().toISOString();
      // Paid through March 15: past due on March 20.
      await db
        .insertInto("membership_plans")
        .values({ user_id: id, billing: "monthly", approved_on: null, carried_paid_through: "2027-03-15", created_at: at, updated_at: at })
        .execute();
      expect(await server.services.reminders.runOnce()).toMatchObject({ sent: 0, failed: 1 });
      let text = await scrape(server);
      expect(value(text, 'aha_mail_failed_total{kind="reminder"}')).toBe(1);
      expect(value(text, 'aha_mail_sent_total{kind="reminder"}')).toBe(0);
      // A day later the mail server takes it (the retry, and any reminder the day adds).
      refusing = false;
      clock = new Date("2027-03-21T16:00:00Z");
      const second = (await server.services.reminders.runOnce())!;
      expect(second.sent).toBeGreaterThan(0);
      text = await scrape(server);
      expect(value(text, 'aha_mail_sent_total{kind="reminder"}')).toBe(smtp.received.length);
      expect(value(text, 'aha_mail_failed_total{kind="reminder"}')).toBe(1);
      // Not counted as the site's mail to one person.
      expect(value(text, 'aha_mail_sent_total{kind="personal"}')).toBe(0);
    } finally {
      await server.services.reminders.stop();
      await server.close();
      await smtp.close();
    }
  });

  it("each app has its own registry: two apps in one process count apart", async () => {
    const a = await startTestServer(dialect, { METRICS_TOKEN: TOKEN });
    const b = await startTestServer(dialect, { METRICS_TOKEN: TOKEN });
    try {
      await a.request("/api/auth/me");
      await a.request("/api/auth/me");
      await b.request("/api/auth/me");
      const series = 'http_requests_total{method="GET",route="/api/auth/me",status="200"}';
      expect(value(await scrape(a), series)).toBe(2);
      expect(value(await scrape(b), series)).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describeEachDatabase("GET /readyz", (dialect) => {
  it("is 200 when ready, 503 with Retry-After while starting or draining; /healthz stays 200 meanwhile", async () => {
    const ctx = await createTestContext(dialect);
    const readiness = new Readiness("ready");
    const app = createApp(ctx.services, { readiness });
    const server: Server = await new Promise((resolve) => {
      const s = configureHttpServer(app.listen(0, "127.0.0.1", () => resolve(s)));
    });
    const listening = endsWithTheFile({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready" });
      expect(ready.headers.get("cache-control")).toBe("no-store");
      for (const state of ["draining", "starting"] as const) {
        readiness.state = state;
        const res = await fetch(`${url}/readyz`);
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("5");
        expect(await res.json()).toEqual({ status: state });
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
      }
    } finally {
      await listening.close();
      await ctx.close();
    }
  });
});

describe("page requests and kept pages [sqlite]", () => {
  let site: PageTestServer;
  beforeAll(async () => {
    site = await startPageTestServer("sqlite", { METRICS_TOKEN: TOKEN, PUBLIC_URL: "http://localhost" });
  });
  afterAll(() => site?.close()); // none when its start ran out of time: that is the failure to read

  it("labels a page by its route id and counts the kept pages served and missed", async () => {
    expect((await site.request("/")).status).toBe(200);
    expect((await site.request("/")).status).toBe(200);
    const text = await scrape(site);
    expect(value(text, 'http_requests_total{method="GET",route="routes/home",status="200"}')).toBe(2);
    expect(value(text, 'aha_page_cache_lookups_total{result="missed"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'aha_page_cache_lookups_total{result="kept"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, "aha_page_cache_pages")).toBe(1);
  }, 60_000);

  it("counts the signed-in pages served from a kept template and rendered into one", async () => {
    const { cookie } = await loginAs(site, "member");
    // The first ask is rendered for the member alone, the second makes the template, the next two are filled from it.
    for (let i = 0; i < 4; i++) expect((await site.request("/knowledge-center", { cookie })).status).toBe(200);
    const text = await scrape(site);
    expect(value(text, 'aha_signed_in_page_answers_total{result="not_kept"}')).toBe(1);
    expect(value(text, 'aha_signed_in_page_answers_total{result="rendered"}')).toBe(1);
    expect(value(text, 'aha_signed_in_page_answers_total{result="kept"}')).toBe(2);
  }, 60_000);

  it("keeps the number of series fixed over 1,000 distinct paths", async () => {
    const kinds = [
      (i: number) => `/no-such-page-${i}`,
      (i: number) => `/api/no-such-endpoint-${i}`,
      (i: number) => `/api/admin/submissions/contact_messages/${i}`,
      (i: number) => `/knowledge-center/article-${i}`,
      (i: number) => `/favicon.svg?v=${i}`,
    ];
    for (const kind of kinds) await site.request(kind(0));
    await scrape(site);
    const before = seriesCount(await scrape(site));
    for (let i = 1; i <= 1000; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => site.request(kinds[(i + j) % kinds.length](i + j)).then((r) => r.arrayBuffer())),
      );
    }
    const after = await scrape(site);
    expect(seriesCount(after)).toBe(before);
    expect(after).not.toMatch(/no-such-page-\d|article-\d/);
  }, 180_000);
});

// The class is what main.ts serves on METRICS_PORT; it must stand on its own registry.
it("AppMetrics never touches prom-client's global registry", async () => {
  const { register } = await import("prom-client");
  const ctx = await createTestContext("sqlite");
  try {
    new AppMetrics(ctx.services);
    expect(await register.getMetricsAsJSON()).toEqual([]);
  } finally {
    await ctx.close();
  }
});
