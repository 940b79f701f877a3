import { stillToSend } from "~/features/membership/reminder-outbox.server";
import crypto from "node:crypto";
import http from "node:http";
import { sql } from "kysely";
import client from "prom-client";
import type { Request, RequestHandler, Response } from "express";
import type { PageCache } from "./page-cache.server";
import type { SignedInPages } from "./signed-in-pages.server";
import type { Services } from "./services.server";
import { HANDLED_EVENT_TYPES } from "~/features/membership/online/events";

/**
 * The Prometheus metrics of one app instance (GET /metrics, docs/operations.md). Each app has
 * its own registry (tests run several apps in one process). Requests are labelled by the route
 * that answered them (the Express route's pattern, or the page's React Router route id) and
 * never by their path, so the number of series stays fixed whatever addresses are asked for;
 * the rest is read from counters the services keep, or from the database, when scraped.
 */
export class AppMetrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<Label>;
  private readonly durations: client.Histogram<Label>;
  /** Each label set's series, looked up by one string instead of prom-client's label hashing. */
  private readonly children = new Map<string, { count: client.Counter.Internal; duration: client.Histogram.Internal<Label> }>();
  private pageCache: PageCache | null = null;
  private signedInPages: SignedInPages | null = null;

  constructor(private readonly services: Services) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    this.requests = new client.Counter({
      name: "http_requests_total",
      help: "Requests answered, by method, route pattern (or page route id; unmatched otherwise) and status.",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.durations = new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to its answer's last byte, by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.addServiceMetrics(registers);
    this.addDatabaseMetrics(registers);
  }

  /** Counts one answered request (called as its answer finishes). */
  observe(req: Request, res: Response, seconds: number) {
    const method = COUNTED_METHODS.has(req.method) ? req.method : "OTHER";
    const route = routeLabel(req, res);
    const status = res.statusCode;
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: this.requests.labels(labels), duration: this.durations.labels(labels) };
      this.children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  }

  /** The pages kept by the server, counted from now on. */
  watchPageCache(cache: PageCache, signedIn?: SignedInPages) {
    this.pageCache = cache;
    this.signedInPages = signedIn ?? null;
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private addServiceMetrics(registers: client.Registry[]) {
    const { auth, mailer, submissions, reminders } = this.services;
    const notifier = submissions.notifier;
    counterFrom(
      registers,
      "aha_sign_in_failures_total",
      "Sign-ins refused for wrong credentials or an inactive account.",
      () => auth.refusals.failed,
    );
    counterFrom(registers, "aha_sign_in_throttled_total", "Sign-in attempts refused by the throttle (429).", () => auth.refusals.throttled);
    new client.Counter({
      name: "aha_mail_sent_total",
      help: "Mail the mail server took: staff notifications of new submissions, the site's own mail to one person, and membership reminders.",
      labelNames: ["kind"],
      registers,
      collect() {
        setCounter(this, { kind: "staff_notification" }, notifier.counts.sent);
        setCounter(this, { kind: "personal" }, mailer.counts.sent);
        setCounter(this, { kind: "reminder" }, reminders.counts.sent);
      },
    });
    new client.Counter({
      name: "aha_mail_failed_total",
      help: "Mail the mail server refused or never took.",
      labelNames: ["kind"],
      registers,
      collect() {
        setCounter(this, { kind: "staff_notification" }, notifier.counts.failed);
        setCounter(this, { kind: "personal" }, mailer.counts.failed);
        setCounter(this, { kind: "reminder" }, reminders.counts.failed);
      },
    });
    new client.Gauge({
      name: "aha_mail_outbox_backlog",
      help: "Staff notifications started and not yet sent or failed (held in this process's memory).",
      registers,
      collect() {
        this.set(notifier.backlog);
      },
    });
    new client.Counter({
      name: "aha_announcement_mails_total",
      help: "Announcement mails by outcome in this process: sent (the mail server took it), failed (refused: retried later or given up), skipped (checked just before: opted out, deactivated, deleted, no address, cancelled).",
      labelNames: ["outcome"],
      registers,
      collect() {
        const counts = reminders.kindCounts.get("announcement") ?? { sent: 0, failed: 0, dropped: 0 };
        setCounter(this, { outcome: "sent" }, counts.sent);
        setCounter(this, { outcome: "failed" }, counts.failed);
        setCounter(this, { outcome: "skipped" }, counts.dropped);
      },
    });
    // Dues paid online (issue 40): each event's outcome in this process, and signatures refused.
    const online = this.services.online;
    new client.Counter({
      name: "aha_stripe_events_total",
      help: "Payment provider events received by this process, by type (other: a type the site ignores) and outcome (applied, pending, unmatched, ignored, duplicate).",
      labelNames: ["type", "outcome"],
      registers,
      collect() {
        for (const [key, n] of online.counters.events) {
          const [type, outcome] = key.split(" ");
          setCounter(this, { type: (HANDLED_EVENT_TYPES as readonly string[]).includes(type) ? type : "other", outcome }, n);
        }
      },
    });
    counterFrom(
      registers,
      "aha_stripe_signature_failures_total",
      "Webhook requests refused for a missing, wrong or stale Stripe-Signature (400).",
      () => online.counters.signatureFailures,
    );
    new client.Counter({
      name: "aha_stripe_webhook_refused_total",
      help: "Webhook requests whose signature verified but whose body was refused (400): not JSON (not_json), or JSON that is no event (not_an_event).",
      labelNames: ["reason"],
      registers,
      collect() {
        setCounter(this, { reason: "not_json" }, online.counters.refused.notJson);
        setCounter(this, { reason: "not_an_event" }, online.counters.refused.notAnEvent);
      },
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    new client.Counter({
      name: "aha_page_cache_lookups_total",
      help: "Public page look-ups answered from a kept page (kept) or rendered (missed).",
      labelNames: ["result"],
      registers,
      collect() {
        setCounter(this, { result: "kept" }, metrics.pageCache?.lookups.kept ?? 0);
        setCounter(this, { result: "missed" }, metrics.pageCache?.lookups.missed ?? 0);
      },
    });
    new client.Counter({
      name: "aha_signed_in_page_answers_total",
      help: "Signed-in pages answered from a kept template (kept), rendered into one (rendered), or rendered for the user alone (not_kept).",
      labelNames: ["result"],
      registers,
      collect() {
        const lookups = metrics.signedInPages?.lookups;
        setCounter(this, { result: "kept" }, lookups?.kept ?? 0);
        setCounter(this, { result: "rendered" }, lookups?.rendered ?? 0);
        setCounter(this, { result: "not_kept" }, lookups?.notKept ?? 0);
      },
    });
    new client.Gauge({
      name: "aha_page_cache_pages",
      help: "Public pages kept by this process.",
      registers,
      collect() {
        this.set(metrics.pageCache?.size ?? 0);
      },
    });
  }

  private addDatabaseMetrics(registers: client.Registry[]) {
    const { database, logger, online } = this.services;
    const db = database.db;
    const native = database.native;
    if (native.dialect === "postgres") {
      const pool = native.pool;
      new client.Gauge({
        name: "aha_db_pool_connections",
        help: "The PostgreSQL pool's connections: open in all (total) and idle among them.",
        labelNames: ["state"],
        registers,
        collect() {
          this.set({ state: "total" }, pool.totalCount);
          this.set({ state: "idle" }, pool.idleCount);
        },
      });
      new client.Gauge({
        name: "aha_db_pool_waiting",
        help: "Queries waiting for a free connection of the PostgreSQL pool.",
        registers,
        collect() {
          this.set(pool.waitingCount);
        },
      });
    } else {
      const waits = database.lockWaits;
      counterFrom(
        registers,
        "aha_db_sqlite_busy_waits_total",
        "SQLite transactions that waited over 1 ms for the write lock.",
        () => waits.count,
      );
      counterFrom(
        registers,
        "aha_db_sqlite_lock_wait_seconds_total",
        "Seconds spent taking SQLite's write lock (BEGIN IMMEDIATE).",
        () => waits.seconds,
      );
    }

    // Read from the database at each scrape (a handful of indexed counts): the whole site's figures, the same from every instance.
    const fromDatabase = (gauge: client.Gauge<string>, read: () => Promise<void>) =>
      read().catch((err: unknown) => {
        gauge.reset();
        logger.warn({ err }, "a metric could not be read from the database");
      });
    new client.Gauge({
      name: "aha_sessions_active",
      help: "Sessions not yet expired (members and staff).",
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const row = await db
            .selectFrom("sessions")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("expires_at", ">", new Date().toISOString())
            .executeTakeFirstOrThrow();
          this.set(Number(row.n));
        });
      },
    });
    new client.Gauge({
      name: "aha_feeds",
      help: "Active RSS feeds: all of them, and those whose last fetch failed (failing).",
      labelNames: ["state"],
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const row = await db
            .selectFrom("rss_feeds")
            .select((eb) => [
              eb.fn.countAll<number>().as("active"),
              sql<number>`coalesce(sum(case when consecutive_failures > 0 then 1 else 0 end), 0)`.as("failing"),
            ])
            .where("is_active", "=", 1)
            .executeTakeFirstOrThrow();
          this.set({ state: "active" }, Number(row.active));
          this.set({ state: "failing" }, Number(row.failing));
        });
      },
    });
    new client.Gauge({
      name: "aha_ingest_runs",
      help: "Ingest runs recorded, by status (running, success, failed, interrupted).",
      labelNames: ["status"],
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const rows = await db
            .selectFrom("ingest_runs")
            .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
            .groupBy("status")
            .execute();
          this.reset();
          for (const row of rows) this.set({ status: INGEST_STATUSES.has(row.status) ? row.status : "other" }, Number(row.n));
        });
      },
    });
    new client.Gauge({
      name: "aha_mail_outbox_waiting",
      help: "Mails of the outbox still to send (queued, or failed with a retry to come): membership reminders and receipts (reminder), announcements (announcement).",
      labelNames: ["kind"],
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const rows = await db
            .selectFrom("membership_reminders")
            .select((eb) => [
              sql<string>`case when kind = 'announcement' then 'announcement' else 'reminder' end`.as("k"),
              eb.fn.countAll<number>().as("n"),
            ])
            .where(stillToSend)
            .groupBy(sql`case when kind = 'announcement' then 'announcement' else 'reminder' end`)
            .execute();
          this.set({ kind: "reminder" }, 0);
          this.set({ kind: "announcement" }, 0);
          for (const r of rows) this.set({ kind: r.k }, Number(r.n));
        });
      },
    });
    new client.Gauge({
      name: "aha_stripe_unmatched_payments",
      help: "Online payment events waiting for staff (unmatched) or for what they refer to (pending).",
      labelNames: ["state"],
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const counts = await online.counts();
          this.set({ state: "unmatched" }, counts.unmatched);
          this.set({ state: "pending" }, counts.pending);
        });
      },
    });
    new client.Gauge({
      name: "aha_stripe_last_event_timestamp_seconds",
      help: "When the newest payment provider event stored was made (Unix seconds, the provider's clock; 0: none yet).",
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const row = await db
            .selectFrom("stripe_events")
            .select((eb) => eb.fn.max("created").as("at"))
            .executeTakeFirst();
          this.set(row?.at ? Number(row.at) : 0);
        });
      },
    });
    new client.Gauge({
      name: "aha_ingest_last_success_timestamp_seconds",
      help: "When the last successful ingest run finished (Unix seconds; 0: never).",
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const row = await db
            .selectFrom("ingest_runs")
            .select((eb) => eb.fn.max("finished_at").as("at"))
            .where("status", "=", "success")
            .executeTakeFirst();
          this.set(row?.at ? Date.parse(String(row.at)) / 1000 : 0);
        });
      },
    });
    new client.Gauge({
      name: "aha_imports",
      help: "Imports recorded in the audit log: the member CSV (members) and the payment portal's CSV (payments).",
      labelNames: ["kind"],
      registers,
      collect() {
        return fromDatabase(this, async () => {
          const rows = await db
            .selectFrom("audit_log")
            .select((eb) => ["action", eb.fn.countAll<number>().as("n")])
            .where("action", "in", Object.keys(IMPORT_ACTIONS))
            .groupBy("action")
            .execute();
          for (const kind of Object.values(IMPORT_ACTIONS)) this.set({ kind }, 0);
          for (const row of rows) this.set({ kind: IMPORT_ACTIONS[row.action] }, Number(row.n));
        });
      },
    });
  }
}

type Label = "method" | "route" | "status";
const COUNTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const INGEST_STATUSES = new Set(["running", "success", "failed", "interrupted"]);
const IMPORT_ACTIONS: Record<string, string> = { "members.import": "members", "membership.payments_import": "payments" };

/**
 * The label of the route that answered: the Express route's pattern, the page's React Router
 * route id (set by the page handler), or "unmatched" (static files, unknown API addresses).
 */
export function routeLabel(req: Request, res: Response): string {
  // Every router is mounted at the root with whole paths (req.baseUrl, at the answer's end, is
  // the last mount the request went through, an error handler's perhaps, not the route's).
  const route = (req as { route?: { path?: unknown } }).route;
  if (route && route.path !== undefined) return Array.isArray(route.path) ? route.path.join("|") : String(route.path);
  const page = res.locals.pageRouteId as string | undefined;
  return page ?? "unmatched";
}

/** A counter that follows a number kept elsewhere (it only grows). */
function counterFrom(registers: client.Registry[], name: string, help: string, read: () => number) {
  new client.Counter({
    name,
    help,
    registers,
    collect() {
      setCounter(this, {}, read());
    },
  });
}

/** Brings a counter's series up to the number kept elsewhere (the counter's own last value is remembered here). */
function setCounter<T extends string>(counter: client.Counter<T>, labels: Partial<Record<T, string>>, value: number) {
  let seen = counterValues.get(counter);
  if (!seen) counterValues.set(counter, (seen = new Map()));
  const key = JSON.stringify(labels);
  const current = seen.get(key) ?? 0;
  const series = Object.keys(labels).length ? counter.labels(labels as client.LabelValues<T>) : counter;
  // inc(0) makes the series appear (at 0) before the first event.
  series.inc(Math.max(0, value - current));
  seen.set(key, Math.max(value, current));
}
const counterValues = new WeakMap<object, Map<string, number>>();

/**
 * GET /metrics for a caller with the token (`Authorization: Bearer <METRICS_TOKEN>`), compared
 * in constant time; anyone else gets a 401.
 */
export function metricsWithToken(metrics: AppMetrics, token: string): RequestHandler {
  const expected = digest(token);
  return async (req, res, next) => {
    // The scheme is case-insensitive (RFC 9110 §11.1): "bearer x" and "BEARER x" are "Bearer x".
    const given = /^Bearer +(\S.*)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    if (!crypto.timingSafeEqual(digest(given), expected)) {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"').status(401).json({ success: false, error: "Authentication required" });
      return;
    }
    try {
      res.set("Content-Type", metrics.contentType).send(await metrics.text());
    } catch (err) {
      next(err);
    }
  };
}

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();

/** GET /metrics, and nothing else, on its own port of the loopback address (METRICS_PORT). */
export function startMetricsServer(metrics: AppMetrics, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found\n");
      return;
    }
    metrics.text().then(
      (text) =>
        res
          .writeHead(200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" })
          .end(req.method === "HEAD" ? undefined : text),
      () => res.writeHead(500, { "Content-Type": "text/plain" }).end("Metrics unavailable\n"),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
