import express, { Router, type Response } from "express";
import { apiRequireAdmin, apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { MEMBERS_ONLY, type PublicUser } from "~/features/auth/user";
import { DomainError, parseInput } from "~/platform/errors";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import { assignSchema, eventIdSchema, handledSchema, type OnlineAccountAnswer } from "./contract";
import type { OnlinePayments } from "./service.server";
import type { Billing } from "../coverage";

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
export function onlinePaymentsRouter({
  online,
  stripe,
}: {
  online: OnlinePayments;
  /** The plans' payment links and the customer portal; null when online payments are off. */
  stripe: { links: Record<Billing, string>; customerPortalUrl: string | null } | null;
}): Router {
  const router = Router();
  const json = jsonBody();
  /**
   * A signed-in member's Make a Payment: their plan's payment page, told the member's payment
   * reference and stored address. Anyone else (a visitor, staff, a member without a plan, or
   * online payments off) gets the hand-off with the Membership ID field, as before.
   */
  router.get(
    "/api/account/membership/pay",
    noStore,
    handler(async (_req, res) => {
      const user = res.locals.user as PublicUser | null | undefined;
      const to = stripe && user?.role === "user" ? await online.paymentLink(user.id, stripe.links) : null;
      res.redirect(302, to ?? "/make-payment");
    }),
  );
  router.get(
    "/api/account/membership/online",
    noStore,
    apiRequireUser,
    handler(async (_req, res) => {
      const user = userOf(res);
      if (user.role !== "user") throw DomainError.forbidden(MEMBERS_ONLY);
      const body: OnlineAccountAnswer = {
        success: true,
        enabled: online.enabled,
        autopay: await online.autopayOf(user.id),
        recordedRecently: !!(await online.onlinePaymentSince(user.id, new Date(Date.now() - 3_600_000).toISOString())),
        customerPortalUrl: stripe?.customerPortalUrl ?? null,
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
