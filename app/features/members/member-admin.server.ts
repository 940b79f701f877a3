import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import Papa from "papaparse";
import { containsAny, toBool, UniqueViolationError, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database, UserRow } from "~/platform/schema";
import { hashPassword } from "~/features/auth/credentials.server";
import { UsersRepo } from "~/features/auth/users.server";
import { StaffPermissions, type StaffPermission } from "~/features/auth/staff-permissions.server";
import { toMmddyy, parseBirthdate } from "~/features/member-import/birthdate";
import { todayUtc } from "~/platform/dates";
import type { CoverageCensus } from "~/features/membership/census.server";
import type { EmailChanges } from "~/features/account/email-change.server";
import type { Coverage } from "~/features/membership/coverage";
import { countByStatus, coverageSummary, type CoverageKind } from "~/features/membership/statuses";
import {
  EXPORT_COLUMNS,
  MEMBER_EDIT_FIELDS,
  MESSAGES,
  type MemberEditInput,
  type MemberQuery,
  type MemberRow,
  type MembersPage,
  type StaffRole,
  type StaffRow,
  type StaffSettings,
} from "./contract";
import { type AuditRecorder } from "~/domain/audit";

/** The staff account acting, and the session it acts from (kept when it resets its own password). */
export interface Actor {
  id: number;
  sessionToken?: string | null;
}

type UsersQuery = SelectQueryBuilder<Database, "users", object>;

function toMemberRow(
  row: Pick<UserRow, (typeof MEMBER_COLUMNS)[number]>,
  coverage: Coverage | undefined,
  applicationId: number | undefined,
): MemberRow {
  return {
    id: row.id,
    certificate_number: row.certificate_number ?? "",
    first_name: row.first_name,
    last_name: row.last_name,
    is_active: toBool(row.is_active),
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    email: row.email,
    phone: row.phone,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    application_id: applicationId ?? null,
    coverage: coverage ? coverageSummary(coverage) : { status: "no-plan", label: "No plan on record", paidThrough: null },
  };
}

function toStaffRow(row: Pick<UserRow, (typeof STAFF_COLUMNS)[number]>, permissions: StaffPermission[] = []): StaffRow {
  return {
    id: row.id,
    username: row.username ?? "",
    role: row.role as StaffRole,
    is_active: toBool(row.is_active),
    is_core_admin: toBool(row.is_core_admin),
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    email: row.email,
    permissions: row.role === "limited_admin" ? permissions : [],
  };
}

const MEMBER_COLUMNS = [
  "id",
  "certificate_number",
  "first_name",
  "last_name",
  "is_active",
  "last_login_at",
  "created_at",
  // The member's own contact details (My account).
  "email",
  "phone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
] as const;
/** A member the census did not see (added since): no plan on record, as a new member has none. */
const NO_PLAN: Pick<Coverage, "state" | "label"> = { state: { kind: "no-plan" satisfies CoverageKind }, label: "No plan on record" };

/**
 * The application each of these members came from: the lowest one linked to them
 * (applications.member_user_id; migration 0031 keeps the link there only).
 */
async function applicationsOf(db: Kysely<Database>, memberIds: number[]): Promise<Map<number, number>> {
  if (!memberIds.length) return new Map();
  const rows = await db
    .selectFrom("applications")
    .select(["member_user_id", (eb) => eb.fn.min<number>("id").as("id")])
    .where("member_user_id", "in", memberIds)
    .groupBy("member_user_id")
    .execute();
  return new Map(rows.map((r) => [Number(r.member_user_id), Number(r.id)]));
}

const STAFF_COLUMNS = ["id", "username", "role", "is_active", "is_core_admin", "last_login_at", "created_at", "email"] as const;

/**
 * Member administration: the member list (search, pages, export), activation and deletion of
 * members, and the super_admin's staff accounts. Every change is written to the audit log in
 * the same transaction as the change itself.
 */
export class MemberAdminService {
  constructor(
    private db: Kysely<Database>,
    private dialect: Dialect,
    private audit: AuditRecorder,
    /** The keyed digest of a normalized (MMDDYY) birthdate, as sign-in compares it. */
    private digestBirthdate: (mmddyy: string) => string,
    /** Every member's coverage on the association's calendar day. */
    private coverage: CoverageCensus,
    /** A member's waiting e-mail change, forgotten when staff set the address; the old address told. */
    private emailChanges?: Pick<EmailChanges, "cancel" | "tellOldAddress">,
  ) {}

  // ---- members -------------------------------------------------------------------------

  private filteredMembers(query: Pick<MemberQuery, "q" | "status">): UsersQuery {
    let q = this.db.selectFrom("users").where("role", "=", "user");
    if (query.status === "active") q = q.where("is_active", "=", 1);
    if (query.status === "inactive") q = q.where("is_active", "=", 0);
    if (query.q) {
      q = q.where(
        containsAny(query.q, [
          sql<string>`certificate_number`,
          sql<string>`coalesce(first_name, '') || ' ' || coalesce(last_name, '')`,
          sql<string>`coalesce(last_name, '') || ' ' || coalesce(first_name, '')`,
          sql<string>`coalesce(email, '')`,
        ]),
      );
    }
    return q;
  }

  private sorted<Q extends UsersQuery>(q: Q, query: Pick<MemberQuery, "sort" | "dir">): Q {
    const dir = query.dir;
    let out: UsersQuery = q;
    switch (query.sort) {
      case "name":
        out = out.orderBy(sql`lower(coalesce(last_name, ''))`, dir).orderBy(sql`lower(coalesce(first_name, ''))`, dir);
        break;
      case "last_login_at":
        out = out.orderBy(sql`coalesce(last_login_at, '')`, dir);
        break;
      case "created_at":
        out = out.orderBy("created_at", dir);
        break;
      default:
        out = out.orderBy("certificate_number", dir);
    }
    return out.orderBy("id", dir) as Q;
  }

  /**
   * A page of members with each one's coverage, and the counts of each coverage status among
   * the members the search and the active filter match. Coverage is computed, never stored,
   * so the coverage filter cannot be a WHERE: the database gives the matching ids in the
   * list's order, the census (one pass over all members' ledgers) their statuses, and the
   * page's rows are read by id. bench/members.ts measures it at 50,000 members.
   */
  async listMembers(query: MemberQuery): Promise<Omit<MembersPage, "success">> {
    const [{ today, census }, ordered] = await Promise.all([
      this.coverage.all(),
      this.sorted(this.filteredMembers(query).select("id"), query).execute(),
    ]);
    const ids = ordered.map((r) => Number(r.id));
    const matching = query.coverage ? ids.filter((id) => census.get(id)?.state.kind === query.coverage) : ids;
    const pageIds = matching.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
    const rows = pageIds.length ? await this.db.selectFrom("users").select(MEMBER_COLUMNS).where("id", "in", pageIds).execute() : [];
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const applications = await applicationsOf(this.db, pageIds);
    const total = matching.length;
    return {
      members: pageIds.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toMemberRow(row, census.get(id), applications.get(id))] : [];
      }),
      pagination: { page: query.page, pageSize: query.pageSize, total, totalPages: Math.ceil(total / query.pageSize) },
      coverageCounts: countByStatus(ids.map((id) => census.get(id) ?? NO_PLAN)),
      coverageDay: today,
    };
  }

  /**
   * The filtered list as CSV for any admin, who sees the same in the list and the member's
   * dialog: contact details, plan and coverage amount, no birthdates, no digests. The export
   * itself is audited; a cell that a spreadsheet would read as a formula is kept text.
   */
  async exportMembers(actor: Actor, query: MemberQuery): Promise<{ csv: string; rows: number }> {
    const [{ census }, all, plans] = await Promise.all([
      this.coverage.all(),
      this.sorted(this.filteredMembers(query).select(MEMBER_COLUMNS), query).execute(),
      this.db
        .selectFrom("membership_plans")
        .select(["user_id", "billing", "coverage_cents"])
        .where("user_id", "in", this.filteredMembers(query).select("id"))
        .execute(),
    ]);
    const planOf = new Map(plans.map((p) => [Number(p.user_id), p]));
    const rows = query.coverage ? all.filter((r) => census.get(Number(r.id))?.state.kind === query.coverage) : all;
    const csv = Papa.unparse(
      {
        fields: [...EXPORT_COLUMNS],
        data: rows.map((r) => {
          const coverage = census.get(Number(r.id));
          const plan = planOf.get(Number(r.id));
          return [
            r.certificate_number ?? "",
            r.first_name ?? "",
            r.last_name ?? "",
            r.email ?? "",
            toBool(r.is_active) ? "active" : "inactive",
            coverage?.label ?? NO_PLAN.label,
            coverage?.paidThrough ?? "",
            r.last_login_at ?? "",
            r.created_at,
            r.phone ?? "",
            r.address1 ?? "",
            r.address2 ?? "",
            r.city ?? "",
            r.state ?? "",
            r.zip ?? "",
            plan?.billing ?? "",
            plan?.coverage_cents == null ? "" : (Number(plan.coverage_cents) / 100).toFixed(2),
          ];
        }),
      },
      // A name like "=HYPERLINK(...)" must stay text when the file is opened in a spreadsheet.
      { escapeFormulae: true, newline: "\r\n" },
    );
    await this.audit.record({
      actorId: actor.id,
      action: "members.export",
      rowCount: rows.length,
      details: { q: query.q || undefined, status: query.status, coverage: query.coverage },
    });
    return { csv: `${csv}\r\n`, rows: rows.length };
  }

  /** One member's coverage today, for a row just changed. */
  private async coverageOf(memberId: number): Promise<Coverage | undefined> {
    return this.coverage.of(memberId);
  }

  /** Activates or deactivates a member; deactivation ends their sessions in the same transaction. */
  async setMemberActive(actor: Actor, memberId: number, active: boolean): Promise<MemberRow> {
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await new UsersRepo(trx).setMemberActive(memberId, active, MEMBER_COLUMNS);
      if (!updated) throw DomainError.notFound(MESSAGES.memberNotFound);
      await this.audit.record(
        {
          actorId: actor.id,
          action: active ? "members.activate" : "members.deactivate",
          target: { type: "member", id: memberId, label: updated.certificate_number },
        },
        trx,
      );
      return updated;
    });
    return toMemberRow(row, await this.coverageOf(memberId), (await applicationsOf(this.db, [memberId])).get(memberId));
  }

  /**
   * A member's name, contact details and, when one is given, a new birthdate (stored as its
   * keyed digest only; the member's sessions end, as they signed in with the old one). The
   * audit entry names the fields that changed, never a value; a birthdate given counts as
   * changed whether or not it matches the old one, so the log tells nothing about it.
   */
  async updateMember(actor: Actor, memberId: number, input: MemberEditInput): Promise<MemberRow> {
    const { birthdate, ...fields } = input;
    let digest: string | undefined;
    if (birthdate !== undefined) {
      const parsed = parseBirthdate(birthdate, todayUtc());
      if (!parsed.ok) throw DomainError.invalid(MESSAGES.badBirthdate);
      digest = this.digestBirthdate(toMmddyy(parsed.year, parsed.month, parsed.day));
    }
    let toTell: string | null = null;
    const row = await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom("users")
        .select(MEMBER_COLUMNS)
        .where("id", "=", memberId)
        .where("role", "=", "user")
        .executeTakeFirst();
      if (!before) throw DomainError.notFound(MESSAGES.memberNotFound);
      const changed = MEMBER_EDIT_FIELDS.filter((f) => (f === "birthdate" ? digest !== undefined : before[f] !== fields[f]));
      if (!changed.length) return before;
      const updated = await new UsersRepo(trx).updateMember(memberId, fields, digest, MEMBER_COLUMNS);
      if (!updated) throw DomainError.notFound(MESSAGES.memberNotFound);
      // Staff set the address at once: a link the member is waiting for no longer counts.
      if (changed.includes("email")) await this.emailChanges?.cancel(memberId, trx);
      await this.audit.record(
        {
          actorId: actor.id,
          action: "members.update",
          target: { type: "member", id: memberId, label: updated.certificate_number },
          details: { fields: changed },
        },
        trx,
      );
      if (changed.includes("email") && before.email && before.email.toLowerCase() !== (updated.email ?? "").toLowerCase())
        toTell = before.email;
      return updated;
    });
    if (toTell) await this.emailChanges?.tellOldAddress(memberId, toTell);
    return toMemberRow(row, await this.coverageOf(memberId), (await applicationsOf(this.db, [memberId])).get(memberId));
  }

  /** Deletes a member; their sessions go with them (foreign key cascade, and explicitly). */
  async deleteMember(actor: Actor, memberId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const deleted = await new UsersRepo(trx).deleteMember(memberId);
      if (!deleted) throw DomainError.notFound(MESSAGES.memberNotFound);
      await this.audit.record(
        { actorId: actor.id, action: "members.delete", target: { type: "member", id: memberId, label: deleted.certificate_number } },
        trx,
      );
    });
  }

  // ---- staff ---------------------------------------------------------------------------

  async listStaff(): Promise<StaffRow[]> {
    const rows = await this.db
      .selectFrom("users")
      .select(STAFF_COLUMNS)
      .where("role", "in", ["limited_admin", "super_admin"])
      .orderBy("username")
      .execute();
    const permissions = await new StaffPermissions(this.db).of(rows.map((r) => Number(r.id)));
    return rows.map((r) => toStaffRow(r, permissions.get(Number(r.id))));
  }

  /**
   * A staff member's own e-mail address and, for a limited admin, the announcements
   * permission (a super admin may write them anyway: nothing is stored for one). One audit
   * entry names what changed (the address by field name only, as for members); nothing
   * changed, nothing recorded.
   */
  async setStaffSettings(actor: Actor, staffId: number, input: StaffSettings): Promise<StaffRow> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom("users")
        .select(STAFF_COLUMNS)
        .where("id", "=", staffId)
        .where("role", "in", ["limited_admin", "super_admin"])
        .executeTakeFirst();
      if (!before) throw DomainError.notFound(MESSAGES.staffNotFound);
      const permissions = new StaffPermissions(trx);
      const emailChanged = (before.email ?? null) !== input.email;
      const row = emailChanged ? await new UsersRepo(trx).setStaffEmail(staffId, input.email, STAFF_COLUMNS) : before;
      if (!row) throw DomainError.notFound(MESSAGES.staffNotFound);
      let permissionChanged = false;
      if (row.role === "limited_admin")
        permissionChanged = await permissions.set(staffId, "announcements", input.announcements, actor.id, new Date().toISOString());
      if (emailChanged || permissionChanged) {
        await this.audit.record(
          {
            actorId: actor.id,
            action: "staff.settings",
            target: { type: "staff", id: staffId, label: row.username },
            details: {
              ...(emailChanged ? { fields: ["email"] } : {}),
              ...(permissionChanged ? { announcements: input.announcements ? "granted" : "revoked" } : {}),
            },
          },
          trx,
        );
      }
      return toStaffRow(row, (await permissions.of([staffId])).get(staffId));
    });
  }

  async createStaff(actor: Actor, input: { username: string; role: StaffRole; password: string }): Promise<StaffRow> {
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await new UsersRepo(trx).createStaff({ username: input.username, passwordHash, role: input.role }, STAFF_COLUMNS);
        await this.audit.record(
          {
            actorId: actor.id,
            action: "staff.create",
            target: { type: "staff", id: row.id, label: row.username },
            details: { role: input.role },
          },
          trx,
        );
        return toStaffRow(row);
      });
    } catch (err) {
      if (err instanceof UniqueViolationError) throw DomainError.conflict(MESSAGES.usernameTaken);
      throw err;
    }
  }

  /** Sets a new password and ends that person's sessions (the caller keeps the one it acts from). */
  async resetStaffPassword(actor: Actor, staffId: number, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      const row = await new UsersRepo(trx).setStaffPassword(staffId, passwordHash, staffId === actor.id ? actor.sessionToken : null);
      if (!row) throw DomainError.notFound(MESSAGES.staffNotFound);
      await this.audit.record(
        { actorId: actor.id, action: "staff.password_reset", target: { type: "staff", id: staffId, label: row.username } },
        trx,
      );
    });
  }

  /**
   * Changes a staff member's role. The core-admin and last-super_admin rules are part of the
   * UPDATE's own condition (UsersRepo.setStaffRole), so two demotions racing each other cannot
   * both pass; on PostgreSQL the super_admin rows are locked first, which makes the second
   * statement wait for the first and then see its result.
   */
  async changeStaffRole(actor: Actor, staffId: number, role: StaffRole): Promise<StaffRow> {
    if (staffId === actor.id) throw DomainError.conflict(MESSAGES.notYourself);
    return this.db.transaction().execute(async (trx) => {
      const users = new UsersRepo(trx);
      await users.lockSuperAdmins(this.dialect);
      const before = await this.findStaff(trx, staffId);
      const updated = await users.setStaffRole(staffId, role, STAFF_COLUMNS);
      if (!updated) throw this.refusal(before);
      if (before!.role !== role) {
        await this.audit.record(
          {
            actorId: actor.id,
            action: "staff.role_change",
            target: { type: "staff", id: staffId, label: updated.username },
            details: { from: before!.role, to: role },
          },
          trx,
        );
      }
      return toStaffRow(updated, (await new StaffPermissions(trx).of([staffId])).get(staffId));
    });
  }

  /** Removes a staff account, under the same rules as a demotion; its sessions end with it. */
  async deleteStaff(actor: Actor, staffId: number): Promise<void> {
    if (staffId === actor.id) throw DomainError.conflict(MESSAGES.notYourself);
    await this.db.transaction().execute(async (trx) => {
      const users = new UsersRepo(trx);
      await users.lockSuperAdmins(this.dialect);
      const before = await this.findStaff(trx, staffId);
      const deleted = await users.deleteStaff(staffId);
      if (!deleted) throw this.refusal(before);
      await this.audit.record(
        {
          actorId: actor.id,
          action: "staff.delete",
          target: { type: "staff", id: staffId, label: deleted.username },
          details: { role: deleted.role },
        },
        trx,
      );
    });
  }

  private findStaff(db: Kysely<Database>, staffId: number) {
    return db
      .selectFrom("users")
      .select(["id", "role", "is_core_admin"])
      .where("id", "=", staffId)
      .where("role", "in", ["limited_admin", "super_admin"])
      .executeTakeFirst();
  }

  /** Why a guarded change matched no row. */
  private refusal(before: { is_core_admin: number } | undefined): DomainError {
    if (!before) return DomainError.notFound(MESSAGES.staffNotFound);
    if (toBool(before.is_core_admin)) return DomainError.conflict(MESSAGES.coreAdmin);
    return DomainError.conflict(MESSAGES.lastSuperAdmin);
  }
}
