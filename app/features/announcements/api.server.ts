import express, { Router, type Response } from "express";
import { apiRequireAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { StaffPermissions } from "~/features/auth/staff-permissions.server";
import { MEMBERS_ONLY, type PublicUser } from "~/features/auth/user";
import type { Database } from "~/platform/schema";
import { DomainError, parseInput } from "~/platform/errors";
import { forbidden, handler, jsonBody, noStore } from "~/platform/http.server";
import { recordIdSchema } from "~/platform/ids";
import type { Kysely } from "kysely";
import {
  ANNOUNCEMENT_MESSAGES,
  audienceInputSchema,
  draftSchema,
  previewSchema,
  receiveSchema,
  scheduleSchema,
  type AnnouncementAnswer,
  type AnnouncementList,
  type AudienceCount,
  type AudienceOptions,
  type PreviewAnswer,
  type ReceiveAnswer,
  type TestAnswer,
} from "./contract";
import type { AnnouncementService } from "./service.server";

const userOf = (res: Response) => res.locals.user as PublicUser;
const idSchema = recordIdSchema(ANNOUNCEMENT_MESSAGES.notFound);

/**
 * The unsubscribe link's one click (RFC 8058: `List-Unsubscribe=One-Click`, posted by the
 * reader's mail program). Mounted before the session and same-origin guards: a mail program
 * sends no cookie and no Origin; the HMAC token is the authority, and all it can do is stop
 * announcements. Any other POST to the address (the page's own button) goes on to the page's
 * action, behind the guards.
 */
export function unsubscribeRouter({ announcements }: { announcements: AnnouncementService }): Router {
  const router = Router();
  router.post(
    "/unsubscribe/:token",
    express.urlencoded({ extended: false, limit: "4kb" }),
    handler(async (req, res, next) => {
      const oneClick = typeof req.body === "object" && req.body?.["List-Unsubscribe"] === "One-Click";
      if (!oneClick) return next();
      res.set("Cache-Control", "no-store");
      if (!(await announcements.unsubscribe(req.params.token)))
        return res.status(404).type("text/plain").send(ANNOUNCEMENT_MESSAGES.badLink);
      res.type("text/plain").send("You will no longer receive announcements.");
    }),
  );
  return router;
}

/** Staff's announcements (super_admin, or a limited_admin allowed in Staff) and a member's own choice. */
export function announcementsRouter({ announcements, db }: { announcements: AnnouncementService; db: Kysely<Database> }): Router {
  const router = Router();
  const json = jsonBody();
  const base = "/api/admin/announcements";
  router.use(base, noStore, apiRequireAdmin, (_req, res, next) => {
    // Read from the database on every call: a permission taken back takes effect at once.
    new StaffPermissions(db)
      .allows(userOf(res), "announcements")
      .then((allowed) => next(allowed ? undefined : forbidden(ANNOUNCEMENT_MESSAGES.forbidden)), next);
  });

  router.get(
    base,
    handler(async (_req, res) => {
      const body: AnnouncementList = { success: true, announcements: await announcements.list() };
      res.json(body);
    }),
  );
  router.post(
    base,
    json,
    handler(async (req, res) => {
      const draft = parseInput(draftSchema, req.body ?? {});
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.create(userOf(res), draft) };
      res.status(201).json(body);
    }),
  );
  router.get(
    `${base}/options`,
    handler(async (_req, res) => {
      const body: AudienceOptions = { success: true, ...(await announcements.options(userOf(res))) };
      res.json(body);
    }),
  );
  router.post(
    `${base}/audience`,
    json,
    handler(async (req, res) => {
      const { audience } = parseInput(audienceInputSchema, req.body ?? {});
      const body: AudienceCount = { success: true, ...(await announcements.count(audience)) };
      res.json(body);
    }),
  );
  router.post(
    `${base}/preview`,
    json,
    handler(async (req, res) => {
      const input = parseInput(previewSchema, req.body ?? {});
      const body: PreviewAnswer = { success: true, ...(await announcements.preview(input)) };
      res.json(body);
    }),
  );
  router.post(
    `${base}/test`,
    json,
    handler(async (req, res) => {
      const input = parseInput(previewSchema, req.body ?? {});
      const body: TestAnswer = { success: true, sentTo: await announcements.sendTest(userOf(res), input) };
      res.json(body);
    }),
  );
  router.get(
    `${base}/:id`,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.get(id) };
      res.json(body);
    }),
  );
  router.put(
    `${base}/:id`,
    json,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const draft = parseInput(draftSchema, req.body ?? {});
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.update(userOf(res), id, draft) };
      res.json(body);
    }),
  );
  router.delete(
    `${base}/:id`,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      await announcements.remove(id);
      res.json({ success: true });
    }),
  );
  router.post(
    `${base}/:id/schedule`,
    json,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const { at } = parseInput(scheduleSchema, req.body ?? {});
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.schedule(userOf(res), id, at) };
      res.json(body);
    }),
  );
  router.post(
    `${base}/:id/send`,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.sendNow(userOf(res), id) };
      res.json(body);
    }),
  );
  router.post(
    `${base}/:id/cancel`,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const body: AnnouncementAnswer = { success: true, announcement: await announcements.cancel(userOf(res), id) };
      res.json(body);
    }),
  );
  router.get(
    `${base}/:id/problems.csv`,
    handler(async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const csv = await announcements.problemsCsv(id);
      res.set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="announcement-${id}-not-sent.csv"`,
      });
      res.send(csv);
    }),
  );

  // ---- the member's own choice (My account) ----
  const memberOnly = (res: Response) => {
    const user = userOf(res);
    if (user.role !== "user") throw DomainError.forbidden(MEMBERS_ONLY);
    return user;
  };
  router.get(
    "/api/account/announcements",
    noStore,
    apiRequireUser,
    handler(async (_req, res) => {
      const body: ReceiveAnswer = { success: true, receive: await announcements.receives(memberOnly(res).id) };
      res.json(body);
    }),
  );
  router.put(
    "/api/account/announcements",
    noStore,
    apiRequireUser,
    json,
    handler(async (req, res) => {
      const user = memberOnly(res);
      const { receive } = parseInput(receiveSchema, req.body ?? {});
      await announcements.setReceive(user.id, receive, "account");
      const body: ReceiveAnswer = { success: true, receive };
      res.json(body);
    }),
  );
  return router;
}
