import http from "node:http";
import { createRequire } from "node:module";
import type { ViteDevServer } from "vite";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig } from "~/platform/config.server";
import { createApp, metricsOf } from "~/server/app.server";
import { startMetricsServer } from "~/server/metrics.server";
import { Readiness } from "~/server/readiness.server";
import { stopOnSignals } from "~/server/shutdown.server";
import { configureHttpServer } from "~/platform/http.server";
import { markServerUsing } from "~/platform/backup.server";
import { NO_STAFF_HINT, ensureFirstAdmin, startServices } from "~/server/bootstrap.server";

export interface StartOptions {
  /** Development: the Vite dev server (hot reload); pages are loaded through it on every request. */
  vite?: ViteDevServer;
  /** Production: the build directory holding client/ (static assets). */
  clientDir?: string;
}

/**
 * The whole server: configuration, services, the Express app and the listening socket.
 * In production this module is the entry of the Vite server build (one module graph with
 * the pages); in development `server.js` loads it through Vite.
 */
export async function startServer(opts: StartOptions = {}) {
  const dev = !!opts.vite;
  const config = loadConfig({ ...process.env, NODE_ENV: dev ? "development" : "production" });
  // The socket opens first. While the database migrates and the services start, /readyz and
  // /healthz answer 503 "starting" at once, so a load balancer that checks waits; any other
  // request (one a proxy sent without checking) waits for the site and is then answered, so a
  // restart loses none of them.
  const readiness = new Readiness("starting");
  const held: Array<[http.IncomingMessage, http.ServerResponse]> = [];
  let handle: http.RequestListener = (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === "/readyz" || path === "/healthz" || held.length >= MAX_HELD_WHILE_STARTING) answerStarting(req, res);
    else held.push([req, res]);
  };
  const server = configureHttpServer(http.createServer((req, res) => handle(req, res)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => (server.off("error", reject), resolve()));
  });
  const services = await startServices(config);
  const { logger } = services;
  // On the embedded database: a restore refuses to replace the file while this server uses it.
  const native = services.database.native;
  const unmark = native.dialect === "sqlite" ? markServerUsing(native.database.name) : () => {};
  process.once("exit", unmark);
  if ((await ensureFirstAdmin(services)) === "none") console.log(`\n${NO_STAFF_HINT}\n`);
  // Default RSS feeds on the first start, and the ingest scheduler (RSS_INGEST_INTERVAL_MINUTES).
  await services.ingest.start();
  // Membership reminder e-mails (REMINDERS_ENABLED, with SMTP_URL): each check under a lease.
  await services.reminders.start(Math.min(15_000, config.REMINDER_CHECK_SECONDS * 1000));
  // The default video catalogue, once, on the first start.
  await services.videos.seedDefaults();

  const vite = opts.vite;
  const app = vite
    ? createApp(services, {
        dev: true,
        viteMiddleware: vite.middlewares,
        build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
      })
    : createApp(services, {
        build: (await import("virtual:react-router/server-build")) as unknown as ServerBuild,
        clientDir: opts.clientDir,
        readiness,
      });
  const metrics = metricsOf(app);
  const metricsServer = metrics && config.METRICS_PORT ? await startMetricsServer(metrics, config.METRICS_PORT) : null;

  handle = app;
  readiness.state = "ready";
  for (const [req, res] of held.splice(0)) app(req, res);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  logger.info({ port, dialect: services.database.dialect, reactBuild: loadedReactBuild() }, "listening");
  console.log(`Site running on http://localhost:${port} (${services.database.dialect})`);

  stopOnSignals({
    server,
    readiness,
    services,
    config,
    metricsServer,
    afterClose: async () => {
      unmark();
      await vite?.close();
    },
  });
}

/** Requests held while the instance starts; past them, a request is told to come back. */
const MAX_HELD_WHILE_STARTING = 1000;

/** The checks' answer while the instance starts (and any request past MAX_HELD_WHILE_STARTING). */
function answerStarting(_req: http.IncomingMessage, res: http.ServerResponse) {
  res.writeHead(503, {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "Retry-After": "5",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(JSON.stringify({ status: "starting" }));
}

/** Which build of react-dom/server Node loaded: "production" or "development" (it picks by NODE_ENV at load). */
function loadedReactBuild(): string {
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  const server = loaded.find((file) => /react-dom[\\/]cjs[\\/]react-dom-server\.node\./.test(file));
  return server ? (server.includes(".production.") ? "production" : "development") : "unknown";
}

export function reportStartupError(err: unknown): never {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("Start-up failed:", err instanceof Error ? err.message : err);
  process.exit(1);
}
