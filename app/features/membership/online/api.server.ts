import express, { Router, type Response } from "express";
import { apiRequireAdmin, apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import type { PublicUser } from "~/features/auth/user";
import { ACCOUNT_MESSAGES } from "~/features/account/contract";
import { DomainError, parseInput } from "~/platform/errors";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import { assignSchema, eventIdSchema, handledSchema, type OnlineAccountAnswer } from "./contract";
import type { OnlinePayments } from "./service.server";

/** The largest event body taken: Stripe's events are a few kilobytes. */
const WEBHOOK_LIMIT = "512kb";

/**
 * POST /api/payments/stripe/webhook: the provider's signed events. The body is read raw (no
 * JSON parser runs on this path) and verified with the provider's library before anything of
 * it is parsed; a missing, wrong or stale signature is 400 and nothing is stored. Mounted
 * before the session and same-origin guards: the caller is the provider, with no cookie.
 */
export function stripeWebhookRouter({ online }: { online: OnlinePayments }): Router {
  const router = Router();
  router.post(
    "/api/payments/stripe/webhook",
    noStore,
    express.raw({ type: () => true, limit: WEBHOOK_LIMIT }),
    handler(async (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const event = online.verify(raw, req.get("stripe-signature"));
      const { state, duplicate } = await online.receive(event);
      res.json({ received: true, state, duplicate });
    }),
  );
  return router;
}

const userOf = (res: Response) => res.locals.user as PublicUser;

/** A member's autopay and whether their online payment has arrived; staff's Unmatched payments. */
export function onlinePaymentsRouter({ online, customerPortalUrl }: { online: OnlinePayments; customerPortalUrl: string | null }): Router {
  const router = Router();
  const json = jsonBody();
  router.get(
    "/api/account/membership/online",
    noStore,
    apiRequireUser,
    handler(async (req, res) => {
      const user = userOf(res);
      if (user.role !== "user") throw DomainError.forbidden(ACCOUNT_MESSAGES.membersOnly);
      const since = typeof req.query.since === "string" && !Number.isNaN(Date.parse(req.query.since)) ? req.query.since : null;
      const body: OnlineAccountAnswer = {
        success: true,
        enabled: online.enabled,
        autopay: await online.autopayOf(user.id),
        recorded: since ? !!(await online.onlinePaymentSince(user.id, new Date(since).toISOString())) : false,
        customerPortalUrl,
      };
      res.json(body);
    }),
  );
  router.use("/api/admin/membership/unmatched-payments", noStore);
  router.get(
    "/api/admin/membership/unmatched-payments",
    apiRequireAdmin,
    handler(async (_req, res) => res.json(await online.unmatched())),
  );
  router.post(
    "/api/admin/membership/unmatched-payments/:id/assign",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(eventIdSchema, req.params.id);
      const { certificateNumber } = parseInput(assignSchema, req.body ?? {});
      await online.assign(userOf(res), id, certificateNumber);
      res.json({ success: true });
    }),
  );
  router.post(
    "/api/admin/membership/unmatched-payments/:id/handled",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(eventIdSchema, req.params.id);
      const { note } = parseInput(handledSchema, req.body ?? {});
      await online.markHandled(userOf(res), id, note);
      res.json({ success: true });
    }),
  );
  return router;
}
