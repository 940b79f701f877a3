import { Router, type Response } from "express";
import { apiRequireAdmin, apiRequireSuperAdmin } from "~/features/auth/guards.server";
import { handler, jsonBody, noStore } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { AuditLog } from "./audit-log.server";
import type { MemberAdminService } from "./member-admin.server";
import type { PublicUser } from "~/features/auth/user";
import type { Actor } from "./member-admin.server";
import {
  auditQuerySchema,
  changeRoleSchema,
  createStaffSchema,
  exportFileName,
  idParamSchema,
  memberEditSchema,
  memberQuerySchema,
  memberStatusSchema,
  resetPasswordSchema,
  staffSettingsSchema,
  type AuditPage,
  type MemberAnswer,
  type MembersPage,
  type StaffAnswer,
  type StaffList,
} from "./contract";

function actorOf(res: Response): Actor {
  const user = res.locals.user as PublicUser;
  return { id: user.id, sessionToken: (res.locals.sessionToken as string | null | undefined) ?? null };
}

/**
 * /api/admin/...: members for any admin, staff accounts and the audit log for super_admin.
 * Roles are checked before anything is read; every input goes through the contract's schemas.
 */
export function memberAdminRouter({ memberAdmin: admin, audit }: { memberAdmin: MemberAdminService; audit: AuditLog }): Router {
  const router = Router();
  const json = jsonBody();
  router.use("/api/admin", noStore);

  // ---- members (any admin) ----
  router.get(
    "/api/admin/members",
    apiRequireAdmin,
    handler(async (req, res) => {
      const query = parseInput(memberQuerySchema, req.query);
      const body: MembersPage = { success: true, ...(await admin.listMembers(query)) };
      res.json(body);
    }),
  );

  router.get(
    "/api/admin/members/export",
    apiRequireAdmin,
    handler(async (req, res) => {
      const query = parseInput(memberQuerySchema, req.query);
      const { csv } = await admin.exportMembers(actorOf(res), query);
      res.set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName()}"`,
        "X-Content-Type-Options": "nosniff",
      });
      res.send(csv);
    }),
  );

  router.patch(
    "/api/admin/members/:id",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      const { is_active } = parseInput(memberStatusSchema, req.body ?? {});
      const body: MemberAnswer = { success: true, member: await admin.setMemberActive(actorOf(res), id, is_active) };
      res.json(body);
    }),
  );

  router.put(
    "/api/admin/members/:id",
    apiRequireAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      const input = parseInput(memberEditSchema, req.body ?? {});
      const body: MemberAnswer = { success: true, member: await admin.updateMember(actorOf(res), id, input) };
      res.json(body);
    }),
  );

  router.delete(
    "/api/admin/members/:id",
    apiRequireAdmin,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      await admin.deleteMember(actorOf(res), id);
      res.json({ success: true });
    }),
  );

  // ---- staff accounts (super_admin) ----
  router.get(
    "/api/admin/staff",
    apiRequireSuperAdmin,
    handler(async (_req, res) => {
      const body: StaffList = { success: true, staff: await admin.listStaff() };
      res.json(body);
    }),
  );

  router.post(
    "/api/admin/staff",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const input = parseInput(createStaffSchema, req.body ?? {});
      const body: StaffAnswer = { success: true, staff: await admin.createStaff(actorOf(res), input) };
      res.status(201).json(body);
    }),
  );

  router.patch(
    "/api/admin/staff/:id",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      const { role } = parseInput(changeRoleSchema, req.body ?? {});
      const body: StaffAnswer = { success: true, staff: await admin.changeStaffRole(actorOf(res), id, role) };
      res.json(body);
    }),
  );

  router.put(
    "/api/admin/staff/:id/settings",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      const input = parseInput(staffSettingsSchema, req.body ?? {});
      const body: StaffAnswer = { success: true, staff: await admin.setStaffSettings(actorOf(res), id, input) };
      res.json(body);
    }),
  );

  router.post(
    "/api/admin/staff/:id/password",
    apiRequireSuperAdmin,
    json,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      const { password } = parseInput(resetPasswordSchema, req.body ?? {});
      await admin.resetStaffPassword(actorOf(res), id, password);
      res.json({ success: true });
    }),
  );

  router.delete(
    "/api/admin/staff/:id",
    apiRequireSuperAdmin,
    handler(async (req, res) => {
      const id = parseInput(idParamSchema, req.params.id);
      await admin.deleteStaff(actorOf(res), id);
      res.json({ success: true });
    }),
  );

  // ---- audit log (super_admin) ----
  router.get(
    "/api/admin/audit",
    apiRequireSuperAdmin,
    handler(async (req, res) => {
      const query = parseInput(auditQuerySchema, req.query);
      const body: AuditPage = { success: true, ...(await audit.list(query)) };
      res.json(body);
    }),
  );

  return router;
}
