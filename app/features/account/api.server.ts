import { Router, type Response } from "express";
import { apiRequireUser } from "~/features/auth/guards.server";
import type { PublicUser } from "~/features/auth/user";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import type { AccountService } from "./service.server";
import type { ContactSaved, SignOutEverywhereAnswer } from "./contract";

const userOf = (res: Response) => res.locals.user as PublicUser;

/**
 * GET /api/account and PUT /api/account/contact: the signed-in member's own account (staff: 403).
 * POST /api/account/sign-out-everywhere: any signed-in account ends its other sessions.
 */
export function accountRouter({ account }: { account: AccountService }): Router {
  const router = Router();
  router.use("/api/account", noStore, apiRequireUser);
  router.get(
    "/api/account",
    handler(async (_req, res) => {
      res.json({ success: true, ...(await account.overview(userOf(res).id)) });
    }),
  );
  router.put(
    "/api/account/contact",
    jsonBody(),
    handler(async (req, res) => {
      const body: ContactSaved = {
        success: true,
        ...(await account.updateContact(userOf(res).id, req.body)),
      };
      res.json(body);
    }),
  );
  router.post(
    "/api/account/sign-out-everywhere",
    jsonBody(),
    handler(async (_req, res) => {
      const body: SignOutEverywhereAnswer = {
        success: true,
        ended: await account.signOutEverywhere(userOf(res).id, res.locals.sessionToken as string),
      };
      res.json(body);
    }),
  );
  return router;
}
