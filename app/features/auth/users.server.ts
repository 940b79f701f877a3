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

  async createMember(input: {
    certificate: string;
    birthdateDigest: string;
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    applicationId?: number | null;
  }) {
    const now = nowIso();
    return mapUnique(() =>
      this.db
        .insertInto("users")
        .values({
          certificate_number: input.certificate,
          birthdate_digest: input.birthdateDigest,
          first_name: input.firstName ?? null,
          last_name: input.lastName ?? null,
          email: input.email ?? null,
          application_id: input.applicationId ?? null,
          role: "user",
          is_active: 1,
          is_core_admin: 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow(),
    );
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
