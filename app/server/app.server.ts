import path from "node:path";
import compression from "compression";
import express, { type RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { authRouter, sessionMiddleware } from "~/features/auth/api.server";
import { submissionsRouter } from "~/features/submissions/intake/api.server";
import { submissionsAdminRouter } from "~/features/submissions/admin/api.server";
import { articlesRouter } from "~/features/articles/api.server";
import { memberAdminRouter } from "~/features/members/api.server";
import { videosRouter } from "~/features/videos/api.server";
import { apiErrorHandler, noStore, notFound } from "~/platform/http.server";
import { pingDatabase } from "~/platform/db.server";
import { accountRouter } from "~/features/account/api.server";
import { membershipRouter } from "~/features/membership/api.server";
import { onlinePaymentsRouter, stripeWebhookRouter } from "~/features/membership/online/api.server";
import { announcementsRouter, unsubscribeRouter } from "~/features/announcements/api.server";
import { applicationsRouter } from "~/features/applications/api.server";
import { memberImportRouter } from "~/features/member-import/api.server";
import { reactRouterHandler } from "./react-router-handler.server";
import { PageCache } from "./page-cache.server";
import { SignedInPages } from "./signed-in-pages.server";
import { readPageGeneration } from "~/platform/page-generations.server";
import { hashedAssets } from "./hashed-assets.server";
import { staticFiles } from "./static-files.server";
import { openApiDocument } from "./openapi.server";
import { AppMetrics, metricsWithToken } from "./metrics.server";
import { Readiness } from "./readiness.server";
import { contentSecurityPolicy, hostHeaderGuard, privateWhenSignedIn, sameOriginGuard, securityHeaders } from "~/platform/security.server";
import type { Services } from "./services.server";

/**
 * Compression for clients that take it. A client that accepts none (a health checker, a load
 * balancer's probe) skips the middleware altogether.
 */
function compressWhenAccepted(): RequestHandler {
  const compress = compression();
  return (req, res, next) => (ACCEPTS_COMPRESSION.test(req.headers["accept-encoding"] ?? "") ? compress(req, res, next) : next());
}
const ACCEPTS_COMPRESSION = /\b(?:br|gzip|deflate)\b/i;

export interface AppOptions {
  /** The React Router build (or a loader of it in dev); omitted in API-only tests. */
  build?: ServerBuild | (() => Promise<ServerBuild>);
  /** Vite dev middleware, in development only. */
  viteMiddleware?: RequestHandler;
  /** Directory of built client assets (build/client). */
  clientDir?: string;
  dev?: boolean;
  /** Starting, ready or draining: what /readyz answers (ready when omitted). */
  readiness?: Readiness;
  /** False: every page rendered for its request (tests compare kept pages with it). Kept outside development by default. */
  keepPages?: boolean;
}

/** The app's metrics, when METRICS_TOKEN or METRICS_PORT is set (main.ts serves them on METRICS_PORT). */
export function metricsOf(app: express.Express): AppMetrics | null {
  return (app.locals.metrics as AppMetrics | undefined) ?? null;
}

/** The whole HTTP application: security, API, then pages. */
export function createApp(services: Services, opts: AppOptions = {}) {
  const { config, logger } = services;
  const app = express();
  let openApi: Record<string, unknown> | undefined;
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  const metrics = config.METRICS_TOKEN || config.METRICS_PORT ? new AppMetrics(services) : null;
  app.locals.metrics = metrics;
  const readiness = opts.readiness ?? new Readiness("ready");

  // Hashed build files first: nothing else concerns them (decision 007).
  if (opts.clientDir) app.use("/assets", hashedAssets(path.join(opts.clientDir, "assets")));

  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    // The page handler names the page's route (res.locals.pageRouteId) for the metrics' label.
    if (metrics) res.locals.countRoute = true;
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      metrics?.observe(req, res, ms / 1000);
      // The path only: query strings may carry tokens (e-mail confirmation links).
      logger.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) }, "request");
    });
    next();
  });
  app.use(hostHeaderGuard);
  const csp = contentSecurityPolicy({ dev: !!opts.dev, frameSources: ["https://www.youtube-nocookie.com", "https://www.youtube.com"] });
  app.use(securityHeaders(csp));
  app.use(compressWhenAccepted());

  app.get("/api/openapi.json", (_req, res) => {
    res.set("Cache-Control", "public, max-age=300");
    res.json((openApi ??= openApiDocument()));
  });
  app.get("/healthz", noStore, async (_req, res) => {
    try {
      await pingDatabase(services.database);
      res.json({ status: "ok", database: "ok", dialect: services.database.dialect });
    } catch (err) {
      logger.error({ err }, "health check failed");
      res.status(503).json({ status: "error", database: "unreachable", dialect: services.database.dialect });
    }
  });
  // Readiness, for a load balancer: 503 while the instance starts or drains after SIGTERM.
  app.get("/readyz", noStore, (_req, res) => {
    const state = readiness.state;
    if (state !== "ready") res.set("Retry-After", "5");
    res.status(state === "ready" ? 200 : 503).json({ status: state });
  });
  // Never public: with a token here; on METRICS_PORT (loopback) from main.ts; else not at all (404).
  if (metrics && config.METRICS_TOKEN) app.get("/metrics", noStore, metricsWithToken(metrics, config.METRICS_TOKEN));

  // The payment provider's signed events: raw body, before any guard or parser (no cookie, no Origin).
  app.use(stripeWebhookRouter({ online: services.online }));
  app.use(unsubscribeRouter({ announcements: services.announcements }));

  if (opts.viteMiddleware) app.use(opts.viteMiddleware);
  if (opts.clientDir) app.use(staticFiles(opts.clientDir));

  app.use(sameOriginGuard(config.PUBLIC_URL));
  app.use(sessionMiddleware({ auth: services.auth }));
  app.use(privateWhenSignedIn);
  // In development every render shows the code as it is now.
  const keepPages = !opts.dev && opts.keepPages !== false && !!opts.build;
  const signedInPages = keepPages
    ? new SignedInPages({
        articles: async () => String(await readPageGeneration(services.database.db, "articles")),
        membership: () => services.membershipDashboard.version(),
      })
    : undefined;
  app.locals.signedInPages = signedInPages;

  const api = express.Router();
  // Each feature's router receives only what it uses.
  api.use(authRouter({ auth: services.auth, logger }));
  api.use(submissionsRouter({ submissions: services.submissions }));
  api.use(submissionsAdminRouter({ submissionAdmin: services.submissionAdmin, logger }));
  api.use(
    articlesRouter({
      articles: services.articles,
      feeds: services.feeds,
      ingest: services.ingest,
      logger,
      ingestToken: config.INGEST_TOKEN,
    }),
  );
  api.use(memberAdminRouter({ memberAdmin: services.memberAdmin, audit: services.audit }));
  api.use(videosRouter({ videos: services.videos, logger }));
  api.use(
    membershipRouter({
      coverage: services.coverage,
      paymentsImport: services.paymentsImport,
      verify: services.verify,
      publicUrl: config.PUBLIC_URL,
      reminders: services.reminders,
    }),
  );
  api.use(onlinePaymentsRouter({ online: services.online, stripe: config.stripe }));
  api.use(accountRouter({ account: services.account }));
  api.use(announcementsRouter({ announcements: services.announcements, db: services.database.db }));
  api.use(applicationsRouter({ applications: services.applications, membership: services.membership }));
  api.use(memberImportRouter({ auth: services.auth, memberImport: services.memberImport }));
  app.use(api);
  app.use(["/api", "/.netlify/functions"], (_req, _res, next) => next(notFound("No such API endpoint")));
  app.use(["/api", "/.netlify/functions"], apiErrorHandler(logger));

  if (opts.build) {
    const pageCache = keepPages ? new PageCache() : undefined;
    app.locals.pageCache = pageCache;
    if (pageCache) metrics?.watchPageCache(pageCache, signedInPages);
    app.use(reactRouterHandler(services, opts.build, { mode: opts.dev ? "development" : "production", csp, pageCache, signedInPages }));
  }
  app.use(apiErrorHandler(logger));
  return app;
}
