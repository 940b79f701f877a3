import { Router, type Request, type Response } from "express";
import { clientIp, handler, jsonBody } from "~/platform/http.server";
import type { SubmissionService } from "./service.server";

/** The answer every public form gets on success (spec: "success is success or ok, with an optional submission.id"). */
export function submissionCreated(res: Response, id: number) {
  res.status(201).json({ success: true, ok: true, id, submission: { id } });
}

/** Public form endpoints (spec section 7 and its additional notes). */
export function submissionsRouter({ submissions }: { submissions: SubmissionService }): Router {
  const router = Router();
  const json = jsonBody();

  const route = (paths: string | string[], submit: (body: unknown, ip: string) => Promise<{ id: number }>) =>
    router.post(
      paths,
      json,
      handler(async (req: Request, res: Response) => {
        const row = await submit(req.body, clientIp(req));
        submissionCreated(res, row.id);
      }),
    );

  route(["/api/forms", "/api/submit-contact-form"], (body, ip) => submissions.submitContact(body, ip));
  route("/api/submit-cpa-request", (body, ip) => submissions.submitCpaRequest(body, ip));
  route("/api/submit-material-request", (body, ip) => submissions.submitMaterialRequest(body, ip));
  route("/api/cpa-requests", (body, ip) => submissions.submitRequestForm("cpa", body, ip));
  route("/api/homeowner-material-requests", (body, ip) => submissions.submitRequestForm("homeowner", body, ip));
  return router;
}
