import crypto from "node:crypto";
import { Router, type RequestHandler } from "express";
import { z } from "~/platform/zod";
import { oneLineString } from "~/platform/text-fields";
import { recordIdSchema } from "~/platform/ids";
import { apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { handler, HttpError, jsonBody, noStore, notFound, unauthorized } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { ArticleQueries } from "./article-queries.server";
import type { FeedAdmin } from "./feeds.server";
import type { IngestService } from "./ingest-service.server";
import { isSuperAdmin, type PublicUser } from "~/features/auth/user";
import { isArticleCategory } from "~/domain/article-categories";
import { ARTICLES_DEFAULT_LIMIT, ARTICLES_MAX_LIMIT } from "./article-queries.server";

export const INVALID_INGEST_TOKEN = "Invalid ingest token";

/** A whole number in a query string, written in decimal digits ("0x10" and "1e1" are refused). */
const wholeNumber = (name: string, max: number, rangeMessage: string) =>
  z
    .string({ error: `${name} must be a whole number` })
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().min(1, rangeMessage).max(max, rangeMessage));

const limitMessage = (name: string) => `${name} must be between 1 and ${ARTICLES_MAX_LIMIT}`;

export const articlesQuery = z
  .object({
    page: wholeNumber("page", 1_000_000_000, "page must be 1 or more").optional(),
    limit: wholeNumber("limit", ARTICLES_MAX_LIMIT, limitMessage("limit")).optional(),
    pageSize: wholeNumber("pageSize", ARTICLES_MAX_LIMIT, limitMessage("pageSize")).optional(),
    category: oneLineString("category")
      .trim()
      .optional()
      .refine((v) => !v || v === "all" || isArticleCategory(v), "Unknown category"),
  })
  .transform((q) => ({
    page: q.page ?? 1,
    limit: q.limit ?? q.pageSize ?? ARTICLES_DEFAULT_LIMIT,
    category: q.category && q.category !== "all" ? q.category : null,
  }));

export const feedId = recordIdSchema("Feed id is required");
export const exportQuery = z.object({ month: oneLineString("month").trim().optional() });
export const ingestStatusQuery = z.object({ run: wholeNumber("run", 1_000_000_000, "run must be 1 or more").optional() });
export const NO_INGEST_RUN = "No such ingest run";

/** Blank query values count as absent (`?category=&page=`). */
function queryOf(q: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== "" && value !== undefined) out[k] = value;
  }
  return out;
}

/** Constant-time comparison of a presented bearer token with INGEST_TOKEN. */
export function tokenMatches(presented: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = crypto.createHash("sha256").update(presented).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m ? m[1] : null;
}

/**
 * /api/rss/* and /api/featured-articles. Feeds, export and health: super_admin. Articles: any
 * signed-in user. Ingest: any signed-in user, or a scheduler with the INGEST_TOKEN bearer.
 * Featured articles: public.
 */
export function articlesRouter({
  articles,
  feeds,
  ingest,
  logger,
  ingestToken,
}: {
  articles: ArticleQueries;
  feeds: FeedAdmin;
  ingest: IngestService;
  logger: Logger;
  ingestToken: string | undefined;
}): Router {
  const router = Router();
  const json = jsonBody();

  router.get(
    "/api/featured-articles",
    handler(async (_req, res) => {
      const result = await articles.featured();
      res.set("Cache-Control", "public, max-age=60");
      res.status(result.success ? 200 : 503).json(result);
    }),
  );

  router.get(
    "/api/rss/articles",
    noStore,
    apiRequireUser,
    handler(async (req, res) => {
      const q = parseInput(articlesQuery, queryOf(req.query as Record<string, unknown>));
      const page = await articles.listArticles(q);
      res.json({ success: true, ...page });
    }),
  );

  const ingestAuth: RequestHandler = (req, res, next) => {
    if (res.locals.user) return next();
    const token = bearerToken(req.get("authorization"));
    if (token === null) return next(unauthorized());
    if (!tokenMatches(token, ingestToken)) return next(unauthorized(INVALID_INGEST_TOKEN));
    res.locals.ingestByToken = true;
    next();
  };

  router.post(
    "/api/rss/ingest",
    noStore,
    ingestAuth,
    json,
    handler(async (req, res) => {
      const reason = res.locals.ingestByToken ? "token" : "manual";
      // Only a member's Refresh may be answered with a run finished moments ago (DESIGN.md,
      // deliberate difference 8); a super_admin's ingest and the scheduler's always run.
      const coalesce = !res.locals.ingestByToken && !isSuperAdmin(res.locals.user);
      const result = await ingest.ingestAll({ reason, coalesce });
      logger.info(
        { reason, userId: res.locals.user?.id, runId: result.run.id, reused: result.run.reused, coalesced: !!result.coalesced },
        "RSS ingest requested",
      );
      res.status(result.inProgress ? 202 : 200).json(result);
    }),
  );

  // Following a run another server was running when POST /api/rss/ingest was called.
  router.get(
    "/api/rss/ingest/status",
    noStore,
    ingestAuth,
    handler(async (req, res) => {
      const { run } = parseInput(ingestStatusQuery, queryOf(req.query as Record<string, unknown>));
      const result = await ingest.status(run ?? null);
      if (!result) throw notFound(NO_INGEST_RUN);
      res.status(result.inProgress ? 202 : 200).json(result);
    }),
  );

  router.get(
    "/api/rss/feeds",
    noStore,
    apiRequireSuperAdmin,
    handler(async (_req, res) => {
      res.json({ success: true, feeds: await feeds.listFeeds() });
    }),
  );

  router.post(
    "/api/rss/feeds",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const feed = await feeds.createFeed(req.body ?? {});
      logger.info({ feedId: feed.id, userId: res.locals.user?.id }, "RSS feed added");
      res.status(201).json({ success: true, feed });
    }),
  );

  router.put(
    "/api/rss/feeds",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
      const id = parseInput(feedId, body.id ?? req.query.id);
      const feed = await feeds.updateFeed({ ...body, id });
      logger.info({ feedId: id, userId: res.locals.user?.id }, "RSS feed updated");
      res.json({ success: true, feed });
    }),
  );

  router.delete(
    "/api/rss/feeds",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
      const id = parseInput(feedId, body.id ?? req.query.id);
      await feeds.deleteFeed(id);
      logger.info({ feedId: id, userId: res.locals.user?.id }, "RSS feed deleted");
      res.json({ success: true });
    }),
  );

  router.post(
    "/api/rss/feeds/retry",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
      const id = parseInput(feedId, body.id);
      const result = await ingest.retryFeed((res.locals.user as PublicUser).id, id);
      logger.info({ feedId: id, userId: res.locals.user?.id, status: result.outcome.status }, "RSS feed retried");
      res.json({ success: true, ...result });
    }),
  );
  router.all("/api/rss/feeds/retry", (_req, _res, next) => next(new HttpError(405, "Method not allowed")));

  router.get(
    "/api/rss/export",
    noStore,
    apiRequireSuperAdmin,
    handler(async (req, res) => {
      const { month } = parseInput(exportQuery, queryOf(req.query as Record<string, unknown>));
      const digest = await articles.exportMonth(month);
      res.type("text/plain; charset=utf-8");
      res.set("Content-Disposition", `inline; filename="knowledge-center-${digest.month}.txt"`);
      res.send(digest.text);
    }),
  );

  router.get(
    "/api/rss/health",
    noStore,
    apiRequireSuperAdmin,
    handler(async (_req, res) => {
      res.json(await feeds.health());
    }),
  );

  // Other methods on the feeds path are a clear 405, not a 404.
  router.all("/api/rss/feeds", (_req, _res, next) => next(new HttpError(405, "Method not allowed")));
  return router;
}
