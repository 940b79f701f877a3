import { Router, type Request, type Response } from "express";
import { clientIp, handler, jsonBody } from "~/platform/http.server";
import type { SubmissionService } from "./service.server";
import { memberIdOf } from "~/features/auth/user";

/** The answer every public form gets on success (spec: "success is success or ok, with an optional submission.id"). */
export function submissionCreated(res: Response, id: number) {
  res.status(201).json({ success: true, ok: true, id, submission: { id } });
}

/** Public form endpoints (spec section 7 and its additional notes). */
export function submissionsRouter({ submissions }: { submissions: SubmissionService }): Router {
  const router = Router();
  const json = jsonBody();

  const route = (paths: string | string[], submit: (body: unknown, ip: string, memberId: number | null) => Promise<{ id: number }>) =>
    router.post(
      paths,
      json,
      handler(async (req: Request, res: Response) => {
        const row = await submit(req.body, clientIp(req), memberIdOf(res.locals.user));
        submissionCreated(res, row.id);
      }),
    );

  route(["/api/forms", "/api/submit-contact-form"], (body, ip, member) => submissions.submitContact(body, ip, member));
  route("/api/submit-cpa-request", (body, ip, member) => submissions.submitCpaRequest(body, ip, member));
  route("/api/submit-material-request", (body, ip, member) => submissions.submitMaterialRequest(body, ip, member));
  route("/api/cpa-requests", (body, ip, member) => submissions.submitRequestForm("cpa", body, ip, member));
  route("/api/homeowner-material-requests", (body, ip, member) => submissions.submitRequestForm("homeowner", body, ip, member));
  return router;
}
