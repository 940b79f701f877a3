import type { Kysely } from "kysely";
import { mapUnique, nowIso, toBool } from "~/platform/db.server";
import type { Database, Role, UserRow } from "~/platform/schema";
import type { PublicUser } from "./user";
import { isAdminRole } from "./user";

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    certificate_number: row.certificate_number,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    admin: isAdminRole(row.role),
    role: row.role,
    is_active: toBool(row.is_active),
    is_core_admin: toBool(row.is_core_admin),
  };
}

/** Data access for accounts: members (certificate + birthdate digest) and staff (username + password hash). */
export class UsersRepo {
  constructor(private db: Kysely<Database>) {}

  findById(id: number) {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findMemberByCertificate(certificate: string) {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("certificate_number", "=", certificate)
      .where("role", "=", "user")
      .executeTakeFirst();
  }

  findStaffByUsername(username: string) {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("username", "=", username.trim().toLowerCase())
      .where("role", "in", ["limited_admin", "super_admin"])
      .executeTakeFirst();
  }

  async countStaff(): Promise<number> {
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("role", "in", ["limited_admin", "super_admin"])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async createStaff(input: { username: string; passwordHash: string; role: Exclude<Role, "user">; isCoreAdmin?: boolean }) {
    const now = nowIso();
    return mapUnique(() =>
      this.db
        .insertInto("users")
        .values({
          username: input.username.trim().toLowerCase(),
          password_hash: input.passwordHash,
          role: input.role,
          is_active: 1,
          is_core_admin: input.isCoreAdmin ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow(),
    );
  }

  async createMember(input: NewMember) {
    return mapUnique(() => this.db.insertInto("users").values(memberValues(input)).returning("id").executeTakeFirstOrThrow());
  }

  /**
   * A new member, unless the certificate number is taken (then undefined). The database decides
   * in the insert itself (on conflict do nothing), so a number taken a moment earlier by
   * another writer leaves the caller's transaction usable on PostgreSQL too, where a failed
   * statement would abort it.
   */
  createMemberUnlessTaken(input: NewMember) {
    return this.db
      .insertInto("users")
      .values(memberValues(input))
      .onConflict((oc) => oc.column("certificate_number").doNothing())
      .returning("id")
      .executeTakeFirst();
  }

  async setPasswordHash(userId: number, passwordHash: string) {
    await this.db.updateTable("users").set({ password_hash: passwordHash, updated_at: nowIso() }).where("id", "=", userId).execute();
  }

  async recordLogin(userId: number, at = nowIso()) {
    await this.db.updateTable("users").set({ last_login_at: at }).where("id", "=", userId).execute();
  }

  async setActive(userId: number, active: boolean) {
    await this.db
      .updateTable("users")
      .set({ is_active: active ? 1 : 0, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
  }
}

export interface NewMember {
  certificate: string;
  birthdateDigest: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  /** Contact details beside the e-mail (an application's). */
  phone?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
}

function memberValues(input: NewMember) {
  const now = nowIso();
  return {
    certificate_number: input.certificate,
    birthdate_digest: input.birthdateDigest,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    address1: input.address1 ?? null,
    address2: input.address2 ?? null,
    city: input.city ?? null,
    state: input.state ?? null,
    zip: input.zip ?? null,
    role: "user" as const,
    is_active: 1 as const,
    is_core_admin: 0 as const,
    created_at: now,
    updated_at: now,
  };
}
