import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/platform/schema";
import type { PublicUser } from "./user";
import type { StaffPermission } from "./staff-permissions";

/** The names and labels live in ./staff-permissions (the browser shows them too). */
export { STAFF_PERMISSIONS, STAFF_PERMISSION_LABELS, type StaffPermission } from "./staff-permissions";

/**
 * The one reader and writer of `staff_permissions`. A super_admin may everything; a
 * limited_admin what a super_admin granted; a member nothing.
 */
export class StaffPermissions {
  constructor(private db: Kysely<Database> | Transaction<Database>) {}

  /** Whether `user` may do what `permission` names, read from the database (never from the session). */
  async allows(user: PublicUser | null | undefined, permission: StaffPermission): Promise<boolean> {
    if (!user || !user.is_active) return false;
    if (user.role === "super_admin") return true;
    if (user.role !== "limited_admin") return false;
    const row = await this.db
      .selectFrom("staff_permissions")
      .select("user_id")
      .where("user_id", "=", user.id)
      .where("permission", "=", permission)
      .executeTakeFirst();
    return !!row;
  }

  /** The permissions of each of `userIds` (staff rows of the Staff list). */
  async of(userIds: number[]): Promise<Map<number, StaffPermission[]>> {
    const out = new Map<number, StaffPermission[]>();
    if (!userIds.length) return out;
    const rows = await this.db.selectFrom("staff_permissions").select(["user_id", "permission"]).where("user_id", "in", userIds).execute();
    for (const r of rows) {
      const id = Number(r.user_id);
      out.set(id, [...(out.get(id) ?? []), r.permission as StaffPermission]);
    }
    return out;
  }

  /** Grants or takes back; returns whether anything changed (for the audit entry). */
  async set(userId: number, permission: StaffPermission, granted: boolean, grantedBy: number, at: string): Promise<boolean> {
    if (granted) {
      const res = await this.db
        .insertInto("staff_permissions")
        .values({ user_id: userId, permission, granted_by: grantedBy, granted_at: at })
        .onConflict((oc) => oc.columns(["user_id", "permission"]).doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    const res = await this.db
      .deleteFrom("staff_permissions")
      .where("user_id", "=", userId)
      .where("permission", "=", permission)
      .executeTakeFirst();
    return Number(res.numDeletedRows ?? 0) > 0;
  }
}
