import { Router, type Response } from "express";
import { apiRequireAdmin } from "~/features/auth/guards.server";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { PublicUser } from "~/features/auth/user";
import type { SubmissionAdminService } from "./service.server";
import {
  SUBMISSION_TABLES,
  assignSchema,
  bulkDeleteSchema,
  exportFileName,
  noteSchema,
  replySchema,
  statusChangeSchema,
  submissionIdSchema,
  submissionQuerySchema,
  type AssignAnswer,
  type BulkDeleteAnswer,
  type LegacyFormsAnswer,
  type NoteAnswer,
  type StatusChangeAnswer,
  type SubmissionDetailAnswer,
  type SubmissionsPage,
} from "../contract";

const actorOf = (res: Response) => ({ id: (res.locals.user as PublicUser).id });

/** The spec's admin-forms calls, under their canonical path and the Netlify alias. */
const FORMS_PATHS = ["/api/admin/forms", "/.netlify/functions/admin-forms"];

/**
 * The submissions tab's API, for any admin (DESIGN.md, deliberate difference 2: an admin
 * session is required; anonymous 401, members 403, before anything is read):
 * - GET /api/admin/submissions?search=&type=&status=&sort=&assigned=&page=&limit= (one page of the unified list; assigned=me: the caller's)
 * - GET /api/admin/submissions/export (the same filters, text/csv)
 * - GET /api/admin/submissions/:id (every stored field, the signature images, the notes and the status history)
 * - POST /api/admin/submissions/:id/notes {body} (an internal note)
 * - POST /api/admin/submissions/:id/reply {subject, message} (an e-mail to the sender, when mail is set up)
 * - PUT /api/admin/submissions/:id/assignee {userId} (to an active staff member, or null: nobody)
 * - GET, PUT, DELETE /api/admin/forms = /.netlify/functions/admin-forms (the spec's shapes)
 */
export function submissionsAdminRouter(deps: { submissionAdmin: SubmissionAdminService; logger: Logger }): Router {
  const router = Router();
  const json = jsonBody();
  const admin = deps.submissionAdmin;

  // Personal data: never kept by a browser cache or a proxy.
  router.use(["/api/admin/submissions", ...FORMS_PATHS], noStore, apiRequireAdmin);

  router.get(
    "/api/admin/submissions",
    handler(async (req, res) => {
      const query = parseInput(submissionQuerySchema, req.query);
      const body: SubmissionsPage = { success: true, ...(await admin.list(actorOf(res), query)) };
      res.json(body);
    }),
  );

  router.get(
    "/api/admin/submissions/export",
    handler(async (req, res) => {
      const query = parseInput(submissionQuerySchema, req.query);
      const { csv } = await admin.exportCsv(actorOf(res), query);
      res.set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName()}"`,
        "X-Content-Type-Options": "nosniff",
      });
      res.send(csv);
    }),
  );

  router.get(
    "/api/admin/submissions/:id",
    handler(async (req, res) => {
      const { table, id } = parseInput(submissionIdSchema, req.params.id);
      const body: SubmissionDetailAnswer = { success: true, submission: await admin.detail(table, id) };
      res.json(body);
    }),
  );

  router.post(
    "/api/admin/submissions/:id/notes",
    json,
    handler(async (req, res) => {
      const { table, id } = parseInput(submissionIdSchema, req.params.id);
      const { body } = parseInput(noteSchema, req.body ?? {});
      const user = res.locals.user as PublicUser;
      const note = await admin.addNote({ id: user.id, label: user.username }, table, id, body);
      res.status(201).json({ success: true, note } satisfies NoteAnswer);
    }),
  );

  router.post(
    "/api/admin/submissions/:id/reply",
    json,
    handler(async (req, res) => {
      const { table, id } = parseInput(submissionIdSchema, req.params.id);
      const mail = parseInput(replySchema, req.body ?? {});
      const user = res.locals.user as PublicUser;
      const note = await admin.reply({ id: user.id, label: user.username }, table, id, mail);
      res.status(201).json({ success: true, note } satisfies NoteAnswer);
    }),
  );

  router.put(
    "/api/admin/submissions/:id/assignee",
    json,
    handler(async (req, res) => {
      const { table, id } = parseInput(submissionIdSchema, req.params.id);
      const { userId } = parseInput(assignSchema, req.body ?? {});
      const assignedTo = await admin.assign(actorOf(res), table, id, userId);
      res.json({ success: true, assignedTo } satisfies AssignAnswer);
    }),
  );

  router.get(
    FORMS_PATHS,
    handler(async (_req, res) => {
      let body: LegacyFormsAnswer;
      try {
        body = await admin.legacyForms();
      } catch (err) {
        deps.logger.error({ err }, "admin-forms: loading submissions failed");
        const empty = Object.fromEntries(SUBMISSION_TABLES.map((t) => [t, []])) as unknown as Omit<LegacyFormsAnswer, "ok" | "error">;
        res.status(500).json({ ok: false, error: "Failed to load submissions", ...empty } satisfies LegacyFormsAnswer);
        return;
      }
      res.json(body);
    }),
  );

  router.put(
    FORMS_PATHS,
    json,
    handler(async (req, res) => {
      const { id, status } = parseInput(statusChangeSchema, req.body ?? {});
      const changed = await admin.setStatus(actorOf(res), id.table, id.id, status);
      const body: StatusChangeAnswer = { success: true, ok: true, ...changed };
      res.json(body);
    }),
  );

  router.delete(
    FORMS_PATHS,
    json,
    handler(async (req, res) => {
      const { idsByTable } = parseInput(bulkDeleteSchema, req.body ?? {});
      const deleted = await admin.deleteMany(actorOf(res), idsByTable);
      const body: BulkDeleteAnswer = { success: true, ok: true, deleted };
      res.json(body);
    }),
  );

  return router;
}
