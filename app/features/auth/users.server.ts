import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import { mapUnique, nowIso, toBool, type Dialect } from "~/platform/db.server";
import type { Database, Role, UserRow, UserUpdate } from "~/platform/schema";
import { sessionIdHash } from "./credentials.server";
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

/** The columns of a user row a caller may ask a write to return. */
type UserColumn = keyof UserRow & string;
/** What a write returns: the columns asked for. */
type Returned<C extends UserColumn> = Pick<UserRow, C>;
const STAFF_ROLES = ["limited_admin", "super_admin"] as const;

/** A member's name and contact details, as staff's edit sets them. */
export type MemberFields = Pick<
  UserUpdate,
  "first_name" | "last_name" | "email" | "phone" | "address1" | "address2" | "city" | "state" | "zip"
>;
/** The contact details a member keeps themselves (My account). */
export type ContactFields = Pick<UserUpdate, "email" | "phone" | "address1" | "address2" | "city" | "state" | "zip">;

/** A member row of the import: the certificate number, the birthdate's digest and what the file gives. */
export interface MemberUpsert {
  certificate: string;
  digest: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}

/** What the import's upsert found and did for one chunk. */
export interface MembersUpserted {
  /** The members of the chunk that existed before it, as they were. */
  before: Array<Pick<UserRow, "id" | "certificate_number" | "birthdate_digest" | "email">>;
  /** The rows inserted or changed (a row that would change nothing is not written). */
  written: Array<{ created_at: string }>;
  /** Members whose birthdate changed, whose sessions were ended. */
  signedOut: number;
}

/**
 * The one writer of `users`: staff, members and accounts alike (an ESLint rule holds it: no
 * other module of app/ inserts, updates or deletes a user row), and the reads of sign-in. Every
 * method runs on the handle given to the constructor, so a caller's transaction
 * (`new UsersRepo(trx)`) keeps its audit entry, locks and other writes with the change. It owns
 * what every writer must do alike: a new row's defaults (role, active, not a core admin,
 * timestamps), the birthdate digest, and the sessions that end with a changed birthdate, a
 * deactivation, a new password or a deletion (in the same transaction as the change, when the
 * caller gives one).
 */
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
      .where("role", "in", STAFF_ROLES)
      .executeTakeFirst();
  }

  async countStaff(): Promise<number> {
    const row = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("role", "in", STAFF_ROLES)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  // ---- staff ---------------------------------------------------------------------------

  /** A new staff account (UniqueViolationError when the username is taken); returns the columns asked for (its id by default). */
  async createStaff<C extends UserColumn = "id">(
    input: { username: string; passwordHash: string; role: Exclude<Role, "user">; isCoreAdmin?: boolean },
    columns: readonly C[] = ["id"] as unknown as readonly C[],
  ): Promise<Returned<C>> {
    const now = nowIso();
    return mapUnique(
      () =>
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
          .returning(columns)
          .executeTakeFirstOrThrow() as unknown as Promise<Returned<C>>,
    );
  }

  /**
   * A staff account's new password; its sessions end, all but the one whose token is kept (the
   * caller resetting their own). Undefined, and nothing ended, when no staff account has the id.
   */
  async setStaffPassword(staffId: number, passwordHash: string, keepSessionToken?: string | null) {
    const row = await this.db
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where("id", "=", staffId)
      .where("role", "in", STAFF_ROLES)
      .returning(["username"])
      .executeTakeFirst();
    if (!row) return undefined;
    let sessions = this.db.deleteFrom("sessions").where("user_id", "=", staffId);
    if (keepSessionToken) sessions = sessions.where("id_hash", "<>", sessionIdHash(keepSessionToken));
    await sessions.execute();
    return row;
  }

  /**
   * A staff account's new role. A demotion (to any role but super_admin) must keep the rule of
   * mayLoseSuperAdmin in the UPDATE's own condition. Undefined when no row passed.
   */
  async setStaffRole<C extends UserColumn>(staffId: number, role: Exclude<Role, "user">, columns: readonly C[]) {
    let update = this.db
      .updateTable("users")
      .set({ role, updated_at: nowIso() })
      .where("id", "=", staffId)
      .where("role", "in", STAFF_ROLES);
    if (role !== "super_admin") update = update.where((eb) => mayLoseSuperAdmin(eb, staffId));
    return (await update.returning(columns).executeTakeFirst()) as Returned<C> | undefined;
  }

  /** Removes a staff account under the rule of mayLoseSuperAdmin; its sessions end with it. Undefined when no row passed. */
  async deleteStaff(staffId: number) {
    const deleted = await this.db
      .deleteFrom("users")
      .where("id", "=", staffId)
      .where("role", "in", STAFF_ROLES)
      .where((eb) => mayLoseSuperAdmin(eb, staffId))
      .returning(["username", "role"])
      .executeTakeFirst();
    if (deleted) await this.db.deleteFrom("sessions").where("user_id", "=", staffId).execute();
    return deleted;
  }

  /** A staff account's own e-mail address (where an announcement's test goes); undefined when no staff account has the id. */
  async setStaffEmail<C extends UserColumn>(staffId: number, email: string | null, columns: readonly C[]) {
    return (await this.db
      .updateTable("users")
      .set({ email, updated_at: nowIso() })
      .where("id", "=", staffId)
      .where("role", "in", STAFF_ROLES)
      .returning(columns)
      .executeTakeFirst()) as Returned<C> | undefined;
  }

  /**
   * PostgreSQL: holds every super_admin row until the caller's transaction ends, so concurrent
   * demotions and deletions run one after the other and each sees the one before.
   */
  async lockSuperAdmins(dialect: Dialect) {
    if (dialect !== "postgres") return; // SQLite: one writer, and the conditional statement is atomic
    await this.db.selectFrom("users").select("id").where("role", "=", "super_admin").orderBy("id").forUpdate().execute();
  }

  // ---- members -------------------------------------------------------------------------

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

  /** Activates or deactivates a member (not a staff account); deactivation ends their sessions. Undefined when no member has the id. */
  async setMemberActive<C extends UserColumn>(memberId: number, active: boolean, columns: readonly C[]) {
    const updated = (await this.db
      .updateTable("users")
      .set({ is_active: active ? 1 : 0, updated_at: nowIso() })
      .where("id", "=", memberId)
      .where("role", "=", "user")
      .returning(columns)
      .executeTakeFirst()) as Returned<C> | undefined;
    if (updated && !active) await this.endSessions([memberId]);
    return updated;
  }

  /**
   * A member's name and contact details and, when a digest is given, their new birthdate: their
   * sessions end, as they signed in with the old one. Undefined when no member has the id.
   */
  async updateMember<C extends UserColumn>(
    memberId: number,
    fields: MemberFields,
    birthdateDigest: string | undefined,
    columns: readonly C[],
  ) {
    const updated = (await this.db
      .updateTable("users")
      .set({ ...fields, ...(birthdateDigest !== undefined ? { birthdate_digest: birthdateDigest } : {}), updated_at: nowIso() })
      .where("id", "=", memberId)
      .where("role", "=", "user")
      .returning(columns)
      .executeTakeFirst()) as Returned<C> | undefined;
    if (updated && birthdateDigest !== undefined) await this.endSessions([memberId]);
    return updated;
  }

  /** A member's own contact details (My account). */
  async setContactDetails(userId: number, contact: ContactFields) {
    await this.db
      .updateTable("users")
      .set({ ...contact, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
  }

  /** A member's new e-mail address, confirmed by its link at `at`. */
  async setEmail(userId: number, email: string, at: string) {
    await this.db.updateTable("users").set({ email, updated_at: at }).where("id", "=", userId).execute();
  }

  /** Deletes a member (not a staff account) and their sessions (foreign key cascade, and explicitly). Undefined when no member has the id. */
  async deleteMember(memberId: number) {
    await this.endSessions([memberId]);
    return this.db
      .deleteFrom("users")
      .where("id", "=", memberId)
      .where("role", "=", "user")
      .returning(["certificate_number"])
      .executeTakeFirst();
  }

  /**
   * The member import's bulk write of one chunk, in one statement: a new certificate number
   * becomes a member with a new member's defaults; an existing member gets the new birthdate
   * digest and any name or e-mail the row gives (null keeps what is stored). The upsert's
   * WHERE skips rows that would change nothing, so the same file twice writes nothing and
   * updated_at moves only when something did, and it never touches a staff account. Before the
   * write, a member whose birthdate (their sign-in credential) changes loses every session, as
   * staff's edit ends them.
   *
   * Rows travel as arrays (PostgreSQL unnest) or one JSON text (SQLite json_each): a statement
   * of 2,000 rows has 3 to 7 parameters, which keeps query building off the profile.
   */
  async upsertMembers(dialect: Dialect, rows: readonly MemberUpsert[], now: string): Promise<MembersUpserted> {
    const byCertificate = new Map(rows.map((r) => [r.certificate, r]));
    const before = await this.db
      .selectFrom("users")
      .select(["id", "certificate_number", "birthdate_digest", "email"])
      .where("role", "=", "user")
      .where("certificate_number", "in", [...byCertificate.keys()])
      .execute();
    const signedOut = before
      .filter((user) => user.birthdate_digest !== byCertificate.get(user.certificate_number!)!.digest)
      .map((u) => u.id);
    if (signedOut.length) await this.endSessions(signedOut);
    const written = dialect === "postgres" ? await this.upsertPostgres(rows, now) : await this.upsertSqlite(rows, now);
    return { before, written, signedOut: signedOut.length };
  }

  private async upsertPostgres(rows: readonly MemberUpsert[], now: string) {
    const { rows: written } = await sql<{ created_at: string }>`
      insert into users (certificate_number, birthdate_digest, first_name, last_name, email, role, is_active, is_core_admin, created_at, updated_at)
      select c, d, f, l, e, 'user', 1, 0, ${now}, ${now}
      from unnest(${rows.map((r) => r.certificate)}::text[], ${rows.map((r) => r.digest)}::text[],
                  ${rows.map((r) => r.firstName)}::text[], ${rows.map((r) => r.lastName)}::text[],
                  ${rows.map((r) => r.email)}::text[]) as t(c, d, f, l, e)
      ${MEMBER_UPSERT_CONFLICT}`.execute(this.db);
    return written;
  }

  private async upsertSqlite(rows: readonly MemberUpsert[], now: string) {
    const json = JSON.stringify(rows.map((r) => [r.certificate, r.digest, r.firstName, r.lastName, r.email]));
    // "where true" keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
    const { rows: written } = await sql<{ created_at: string }>`
      insert into users (certificate_number, birthdate_digest, first_name, last_name, email, role, is_active, is_core_admin, created_at, updated_at)
      select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, 'user', 1, 0, ${now}, ${now}
      from json_each(${json}) where true
      ${MEMBER_UPSERT_CONFLICT}`.execute(this.db);
    return written;
  }

  // ---- any account ---------------------------------------------------------------------

  async recordLogin(userId: number, at = nowIso()) {
    await this.db.updateTable("users").set({ last_login_at: at }).where("id", "=", userId).execute();
  }

  /** Activates or deactivates any account; deactivation ends its sessions. */
  async setActive(userId: number, active: boolean) {
    await this.db
      .updateTable("users")
      .set({ is_active: active ? 1 : 0, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
    if (!active) await this.endSessions([userId]);
  }

  /** Every session of these accounts ends: their credential changed, or they may no longer sign in. */
  private async endSessions(userIds: number[]) {
    if (userIds.length === 1) await this.db.deleteFrom("sessions").where("user_id", "=", userIds[0]).execute();
    else await this.db.deleteFrom("sessions").where("user_id", "in", userIds).execute();
  }
}

/** Not a core admin, and either not a super_admin or not the last active one. */
function mayLoseSuperAdmin(eb: ExpressionBuilder<Database, "users">, staffId: number) {
  return eb.and([
    eb("is_core_admin", "=", 0),
    eb.or([
      eb("role", "<>", "super_admin"),
      eb.exists(
        eb
          .selectFrom("users as other")
          .select("other.id")
          .where("other.role", "=", "super_admin")
          .where("other.is_active", "=", 1)
          .where("other.id", "<>", staffId),
      ),
    ]),
  ]);
}

const MEMBER_UPSERT_CONFLICT = sql`
  on conflict (certificate_number) do update set
    birthdate_digest = excluded.birthdate_digest,
    first_name = coalesce(excluded.first_name, users.first_name),
    last_name = coalesce(excluded.last_name, users.last_name),
    email = coalesce(excluded.email, users.email),
    updated_at = excluded.updated_at
  where users.role = 'user' and (
    users.birthdate_digest is distinct from excluded.birthdate_digest
    or (excluded.first_name is not null and users.first_name is distinct from excluded.first_name)
    or (excluded.last_name is not null and users.last_name is distinct from excluded.last_name)
    or (excluded.email is not null and users.email is distinct from excluded.email))
  returning created_at`;

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
