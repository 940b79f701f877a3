import { Router, type RequestHandler } from "express";
import { apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { handler, HttpError, jsonBody, noStore } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { VideosService } from "./service.server";
import { videoIdSchema, videoListQuerySchema } from "./contract";

/** Blank query values count as absent; a repeated parameter counts once. */
function queryOf(q: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== "" && value !== undefined) out[k] = value;
  }
  return out;
}

/** /api/videos: any signed-in user reads the catalogue; only a super_admin changes it (contract.ts). */
export function videosRouter({ videos: service, logger }: { videos: VideosService; logger: Logger }): Router {
  const router = Router();
  const json = jsonBody();
  const videos = () => service;
  const log = (res: { locals: Record<string, unknown> }, msg: string, extra: object) =>
    logger.info({ ...extra, userId: (res.locals.user as { id?: number } | undefined)?.id }, msg);

  router.get(
    "/api/videos/categories",
    noStore,
    apiRequireUser,
    handler(async (_req, res) => {
      res.json({ success: true, categories: await videos().categories() });
    }),
  );

  router.get(
    "/api/videos",
    noStore,
    apiRequireUser,
    handler(async (req, res) => {
      const { category } = parseInput(videoListQuerySchema, queryOf(req.query as Record<string, unknown>));
      res.json({ success: true, videos: await videos().list(category) });
    }),
  );

  router.post(
    "/api/videos",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const video = await videos().create(req.body);
      log(res, "video added", { videoId: video.id });
      res.status(201).json({ success: true, video });
    }),
  );

  // Before /:id, so "order" is never read as an id.
  router.put(
    "/api/videos/order",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const list = await videos().reorder(req.body);
      log(res, "videos reordered", { category: list[0]?.category });
      res.json({ success: true, videos: list });
    }),
  );

  router.put(
    "/api/videos/:id",
    noStore,
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(videoIdSchema, req.params.id);
      const video = await videos().update(id, req.body);
      log(res, "video updated", { videoId: id });
      res.json({ success: true, video });
    }),
  );

  router.delete(
    "/api/videos/:id",
    noStore,
    apiRequireSuperAdmin,
    handler(async (req, res) => {
      const id = parseInput(videoIdSchema, req.params.id);
      await videos().delete(id);
      log(res, "video deleted", { videoId: id });
      res.json({ success: true });
    }),
  );

  const notAllowed: RequestHandler = (_req, _res, next) => next(new HttpError(405, "Method not allowed"));
  router.all("/api/videos", notAllowed);
  router.all("/api/videos/categories", notAllowed);
  router.all("/api/videos/order", notAllowed);
  router.all("/api/videos/:id", notAllowed);
  return router;
}
