import { Router, type ErrorRequestHandler, type Request, type Response } from "express";
import { apiRequireAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { recordIdSchema } from "~/platform/ids";
import { parseInput } from "~/platform/errors";
import type { MembershipFromApplications } from "./membership.server";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import type { PublicUser } from "~/features/auth/user";
import { memberChoiceSchema, type ApplicationCreated, type ApplicationRejected, type CaseFound, type MemberMatches } from "./contract";
import { ApplicationInvalid, type ApplicationsService } from "./service.server";

/** DESIGN.md: the application with its four signatures may be up to 4 MB; everything else stays at 1 MB. */
export const APPLICATION_BODY_LIMIT = "4mb";

const userOf = (res: Response) => res.locals.user as PublicUser;
export const applicationIdSchema = recordIdSchema("Application id is required");

/**
 * POST /api/applications (= /.netlify/functions/applications) and GET /api/cases/:caseNumber.
 * Signed-in users only: the user is checked and counted against the limit before the body
 * is read, so a stranger cannot make the server parse 4 MB.
 */
export function applicationsRouter({
  applications: service,
  membership,
}: {
  applications: ApplicationsService;
  membership: MembershipFromApplications;
}): Router {
  const router = Router();
  const applications = () => service;

  // Staff: the members an application could be linked to, shown before anything is done.
  router.get(
    "/api/admin/applications/:id/member-matches",
    noStore,
    apiRequireAdmin,
    handler(async (req: Request, res: Response) => {
      const id = parseInput(applicationIdSchema, req.params.id);
      const body: MemberMatches & { success: true } = { success: true, ...(await membership.matches(id)) };
      res.json(body);
    }),
  );

  // Staff: an approved application becomes a new member, or is linked to the member staff chose.
  router.post(
    "/api/admin/applications/:id/member",
    noStore,
    apiRequireAdmin,
    jsonBody(),
    handler(async (req: Request, res: Response) => {
      const id = parseInput(applicationIdSchema, req.params.id);
      const choice = parseInput(memberChoiceSchema, req.body);
      // The sign-in link of the welcome e-mail when PUBLIC_URL is not set: the address staff use.
      const site = `${req.protocol}://${req.get("host")}`;
      const result = await membership.createMember(userOf(res).id, id, choice, site);
      res.status(result.created ? 201 : 200).json({ success: true, ...result });
    }),
  );

  router.post(
    ["/api/applications", "/.netlify/functions/applications"],
    apiRequireUser,
    handler(async (_req, res, next) => {
      await applications().admitSubmission(userOf(res).id);
      next();
    }),
    jsonBody(APPLICATION_BODY_LIMIT),
    handler(async (req: Request, res: Response) => {
      const row = await applications().submit(req.body, userOf(res).id);
      const body: ApplicationCreated = { success: true, id: row.id, submittedAt: row.submitted_at };
      res.status(201).json(body);
    }),
  );

  router.get(
    "/api/cases/:caseNumber",
    apiRequireUser,
    // Personal data: never kept by a shared cache or the browser's HTTP cache.
    noStore,
    handler(async (req: Request, res: Response) => {
      const applicant = await applications().lookupCase(String(req.params.caseNumber), userOf(res).id);
      const body: CaseFound = { success: true, applicant };
      res.json(body);
    }),
  );

  const rejected: ErrorRequestHandler = (err, _req, res, next) => {
    if (!(err instanceof ApplicationInvalid)) return next(err);
    const body: ApplicationRejected = { success: false, error: err.message, details: err.messages, fields: err.fields };
    res.status(400).json(body);
  };
  router.use(rejected);
  return router;
}
