import { Router, type Request, type Response } from "express";
import { apiRequireAdmin, apiRequireSuperAdmin, apiRequireUser } from "~/features/auth/guards.server";
import { MEMBERS_ONLY, type PublicUser } from "~/features/auth/user";
import { recordIdSchema } from "~/platform/ids";
import { DomainError, parseInput } from "~/platform/errors";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import {
  cancelSchema,
  paymentSchemaOn,
  paymentsImportSchema,
  PAYMENTS_IMPORT_LIMIT,
  planSchemaOn,
  refundSchemaOn,
  reinstateSchemaOn,
  type CardAnswer,
  type MembershipAnswer,
  type VerifyAnswer,
  type PaymentsImportAnswer,
  type MemberRemindersAnswer,
  type MembersWithoutEmailAnswer,
} from "./contract";
import { formatCents } from "./coverage";
import { coInsuredSchema } from "./co-insured";
import { qrCodeSvg, verifyUrl } from "./proof-card.server";
import { PAYMENTS_IMPORT_MESSAGES, type PaymentsImportReport, type PaymentsImportService } from "./payments-import.server";
import type { CoverageService } from "./service.server";
import type { VerifyService } from "./verify.server";
import type { ReminderService } from "./reminders.server";

/** A member's id in the path, refused as member administration refuses it. */
const idParamSchema = recordIdSchema("Invalid id");

function importMessage(report: PaymentsImportReport, applied: boolean): string {
  const skipped = report.skipped
    ? ` ${report.skipped.toLocaleString("en-US")} already recorded ${report.skipped === 1 ? "is" : "are"} skipped.`
    : "";
  if (report.problems)
    return applied ? PAYMENTS_IMPORT_MESSAGES.hasProblems(report.problems) : PAYMENTS_IMPORT_MESSAGES.previewProblems(report.problems);
  const count = (n: number) => n.toLocaleString("en-US");
  const refunds = report.refunds
    ? `${count(report.refunds)} ${report.refunds === 1 ? "refund" : "refunds"} (${formatCents(report.refundCents)})`
    : "";
  const notPaid = report.notPaid
    ? ` ${count(report.notPaid)} ${report.notPaid === 1 ? "row that took no money is" : "rows that took no money are"} skipped.`
    : "";
  const leftOut = report.leftOut
    ? ` ${count(report.leftOut)} ${report.leftOut === 1 ? "row that names no member is" : "rows that name no member are"} left out.`
    : "";
  if (!report.toRecord && !report.refunds) return `${PAYMENTS_IMPORT_MESSAGES.nothingNew}${notPaid}${leftOut}`;
  const what = report.toRecord
    ? `${count(report.toRecord)} ${report.toRecord === 1 ? "payment" : "payments"} (${formatCents(report.totalCents)}) for ${count(report.members)} ${report.members === 1 ? "member" : "members"}${refunds ? ` and ${refunds}` : ""}`
    : refunds;
  return applied ? `Recorded ${what}.${skipped}${notPaid}${leftOut}` : `Ready to record ${what}.${skipped}${notPaid}${leftOut}`;
}

const userOf = (res: Response) => res.locals.user as PublicUser;
const answer = (res: Response, view: Omit<MembershipAnswer, "success">, status = 200) =>
  res.status(status).json({ success: true, ...view } satisfies MembershipAnswer);

/**
 * A member's plan, payments and coverage: staff record payments and refunds and set plans;
 * only a super_admin cancels or reinstates; a member reads their own, and nobody else's.
 */
export function membershipRouter({
  coverage,
  paymentsImport,
  verify,
  publicUrl = null,
  reminders,
}: {
  coverage: CoverageService;
  paymentsImport: PaymentsImportService;
  verify: VerifyService;
  /** PUBLIC_URL: the origin a card's QR code names (else the request's own). */
  publicUrl?: string | null;
  reminders: ReminderService;
}): Router {
  const router = Router();
  const memberOnly = (res: Response) => {
    const user = userOf(res);
    if (user.role !== "user") throw DomainError.forbidden(MEMBERS_ONLY);
    return user;
  };
  const card = async (req: Request, res: Response, token: string) => {
    const url = verifyUrl(publicUrl?.trim() || `${req.protocol}://${req.get("host")}`, token);
    res.json({ success: true, token, verifyPath: `/verify/${token}`, verifyUrl: url, qrSvg: await qrCodeSvg(url) } satisfies CardAnswer);
  };
  const json = jsonBody();
  const memberId = (raw: unknown) => parseInput(idParamSchema, raw);

  router.get(
    "/api/account/membership",
    noStore,
    apiRequireUser,
    handler(async (_req, res) => answer(res, await coverage.forMember(memberOnly(res).id))),
  );
  router.get(
    "/api/account/membership/card",
    noStore,
    apiRequireUser,
    handler(async (req, res) => card(req, res, await verify.tokenFor(memberOnly(res).id))),
  );
  router.post(
    "/api/account/membership/card",
    noStore,
    apiRequireUser,
    handler(async (req, res) => card(req, res, await verify.renew(memberOnly(res).id))),
  );
  // Public: what a scanned card shows (first name, last initial, covered or not, through when).
  router.get(
    "/api/verify/:token",
    noStore,
    handler(async (req, res) => {
      const found = await verify.verify(String(req.params.token), req.ip ?? "unknown");
      res.json({ success: true, ...found } satisfies VerifyAnswer);
    }),
  );

  router.use(["/api/admin/members/:id/membership", "/api/admin/membership"], noStore);
  router.get(
    "/api/admin/members/:id/membership",
    apiRequireAdmin,
    handler(async (req, res) => answer(res, await coverage.view(memberId(req.params.id)))),
  );
  // Staff see each member's reminder mails and state, and who gets none for want of an address.
  router.get(
    "/api/admin/members/:id/membership/reminders",
    apiRequireAdmin,
    handler(async (req, res) => {
      const found = await reminders.forMember(memberId(req.params.id));
      res.json({ success: true, ...found } satisfies MemberRemindersAnswer);
    }),
  );
  router.get(
    "/api/admin/membership/reminders/without-email",
    apiRequireAdmin,
    handler(async (_req, res) =>
      res.json({ success: true, ...(await reminders.membersWithoutEmail()) } satisfies MembersWithoutEmailAnswer),
    ),
  );
  router.put(
    "/api/admin/members/:id/membership/plan",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = memberId(req.params.id);
      answer(res, await coverage.setPlan(userOf(res), id, parseInput(planSchemaOn(coverage.today()), req.body ?? {})));
    }),
  );
  router.post(
    "/api/admin/members/:id/membership/payments",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = memberId(req.params.id);
      answer(res, await coverage.recordPayment(userOf(res), id, parseInput(paymentSchemaOn(coverage.today()), req.body ?? {})), 201);
    }),
  );
  router.post(
    "/api/admin/membership/payments/:id/refund",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      answer(res, await coverage.refund(userOf(res), id, parseInput(refundSchemaOn(coverage.today()), req.body ?? {})), 201);
    }),
  );
  router.post(
    "/api/admin/members/:id/membership/cancel",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = memberId(req.params.id);
      answer(res, await coverage.cancel(userOf(res), id, parseInput(cancelSchema, req.body ?? {})));
    }),
  );
  router.post(
    "/api/admin/members/:id/membership/reinstate",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = memberId(req.params.id);
      answer(res, await coverage.reinstate(userOf(res), id, parseInput(reinstateSchemaOn(coverage.today()), req.body ?? {})));
    }),
  );
  // The household's second person: any staff enters, changes or removes them (audited).
  router.put(
    "/api/admin/members/:id/membership/co-insured",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = memberId(req.params.id);
      answer(res, await coverage.setCoInsured(userOf(res), id, parseInput(coInsuredSchema, req.body ?? {})));
    }),
  );
  router.delete(
    "/api/admin/members/:id/membership/co-insured",
    apiRequireAdmin,
    handler(async (req, res) => answer(res, await coverage.removeCoInsured(userOf(res), memberId(req.params.id)))),
  );
  router.post(
    "/api/admin/membership/payments/import",
    apiRequireAdmin,
    jsonBody(PAYMENTS_IMPORT_LIMIT),
    handler(async (req, res) => {
      const { csv, apply, mapping, leaveOutNotDues } = parseInput(paymentsImportSchema, req.body ?? {});
      const actor = userOf(res);
      const choices = { mapping: mapping ?? null, leaveOutNotDues };
      const report = apply ? await paymentsImport.apply(actor, csv, choices) : await paymentsImport.preview(csv, { ...choices, actor });
      const body: PaymentsImportAnswer = { success: true, applied: apply, message: importMessage(report, apply), report };
      res.status(apply && (report.toRecord || report.refunds) ? 201 : 200).json(body);
    }),
  );
  return router;
}
