import type { Kysely } from "kysely";
import { nowIso, UniqueViolationError } from "~/platform/db.server";
import { UsersRepo } from "~/features/auth/users.server";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Mailer } from "~/platform/mailer.server";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/features/members/contract";
import type { ApplicationMembership } from "./contract";
import { MEMBERSHIP_MESSAGES } from "./contract";

/** A certificate number from CERTIFICATE_FORMAT ("AHA{0000000}") and a counter value. */
export function formatCertificate(format: string, n: number): string {
  return format.replace(/\{(0+)\}/, (_m, zeros: string) => String(n).padStart(zeros.length, "0"));
}

/** "Dana Q. Reyes" -> Dana Q. / Reyes: the last word is the last name. */
export function splitName(full: string): { first: string | null; last: string | null } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first: null, last: null };
  if (words.length === 1) return { first: words[0], last: null };
  return { first: words.slice(0, -1).join(" "), last: words[words.length - 1] };
}

export interface MembershipDeps {
  db: Kysely<Database>;
  audit: AuditRecorder;
  mailer: Mailer | null;
  logger: Logger;
  digestBirthdate: (birthdate: string) => string;
  certificateFormat: string;
  orgName: string;
  publicUrl: string | null;
}

/**
 * From an approved application to a member, in one step: a new member with a new certificate
 * number, the application's name and birthdate, linked both ways; or, when a member with the
 * same birthdate and name already exists, a link to that member instead of a second account.
 * The welcome e-mail goes out once, only after approval, when mail is set up.
 */
export class MembershipFromApplications {
  constructor(private deps: MembershipDeps) {}

  async createMember(actorId: number, applicationId: number): Promise<ApplicationMembership> {
    const { db, audit } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      const app = await trx
        .selectFrom("applications")
        .select(["id", "status", "applicant_name", "dob", "email", "member_user_id"])
        .where("id", "=", applicationId)
        .executeTakeFirst();
      if (!app) throw DomainError.notFound(MEMBERSHIP_MESSAGES.notFound);
      if (app.status !== "approved") throw DomainError.conflict(MEMBERSHIP_MESSAGES.notApproved);
      // Claimed first: of two staff doing this at once, the second sees the first's member.
      const claimed = await trx
        .updateTable("applications")
        .set({ member_user_id: -1 })
        .where("id", "=", applicationId)
        .where("member_user_id", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { kind: "existing" as const };

      const digest = this.deps.digestBirthdate(app.dob);
      const name = splitName(app.applicant_name);
      const same = await trx
        .selectFrom("users")
        .select(["id", "certificate_number", "first_name", "last_name"])
        .where("role", "=", "user")
        .where("birthdate_digest", "=", digest)
        .execute();
      const match = same.find((u) => sameName(u.first_name, name.first) && sameName(u.last_name, name.last));
      let member: { id: number; certificate: string };
      let created: boolean;
      if (match) {
        member = { id: Number(match.id), certificate: match.certificate_number ?? "" };
        created = false;
        await trx
          .updateTable("users")
          .set({ application_id: applicationId, updated_at: nowIso() })
          .where("id", "=", member.id)
          .where("application_id", "is", null)
          .execute();
      } else {
        member = await this.newMember(trx, { digest, name, email: app.email, applicationId });
        created = true;
      }
      await trx.updateTable("applications").set({ member_user_id: member.id }).where("id", "=", applicationId).execute();
      await audit.record(
        {
          actorId,
          action: created ? "applications.member_created" : "applications.member_linked",
          target: { type: "member", id: member.id, label: member.certificate },
          details: { application: `application_${applicationId}` },
        },
        trx,
      );
      return { kind: "done" as const, member, created, email: app.email };
    });
    if (outcome.kind === "existing") return this.membershipOf(applicationId);
    const welcome = await this.sendWelcome(actorId, applicationId, outcome.member.certificate, outcome.email);
    return { member: outcome.member, created: outcome.created, welcome };
  }

  /** What the application is linked to now (for a second click, or the detail dialog). */
  async membershipOf(applicationId: number): Promise<ApplicationMembership> {
    const row = await this.deps.db
      .selectFrom("applications")
      .leftJoin("users", "users.id", "applications.member_user_id")
      .select(["applications.member_user_id", "applications.welcome_sent_at", "users.certificate_number"])
      .where("applications.id", "=", applicationId)
      .executeTakeFirst();
    if (!row) throw DomainError.notFound(MEMBERSHIP_MESSAGES.notFound);
    if (row.member_user_id === null || Number(row.member_user_id) < 0) throw DomainError.conflict(MEMBERSHIP_MESSAGES.inProgress);
    return {
      member: { id: Number(row.member_user_id), certificate: row.certificate_number ?? "" },
      created: false,
      welcome: row.welcome_sent_at ? "already-sent" : this.deps.mailer?.enabled ? "not-sent" : "mail-off",
    };
  }

  /** A new number from the counter; one already taken (an imported member) is skipped. */
  private async newMember(
    trx: Kysely<Database>,
    input: { digest: string; name: { first: string | null; last: string | null }; email: string; applicationId: number },
  ) {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const next = await trx
        .updateTable("certificate_counter")
        .set((eb) => ({ last_value: eb("last_value", "+", 1) }))
        .where("name", "=", "members")
        .returning("last_value")
        .executeTakeFirstOrThrow();
      const certificate = formatCertificate(this.deps.certificateFormat, Number(next.last_value));
      const taken = await trx.selectFrom("users").select("id").where("certificate_number", "=", certificate).executeTakeFirst();
      if (taken) continue;
      const row = await new UsersRepo(trx)
        .createMember({
          certificate,
          birthdateDigest: input.digest,
          firstName: input.name.first,
          lastName: input.name.last,
          email: input.email,
          applicationId: input.applicationId,
        })
        .catch((err) => {
          if (err instanceof UniqueViolationError) return null;
          throw err;
        });
      if (row) return { id: Number(row.id), certificate };
    }
    throw DomainError.conflict(MEMBERSHIP_MESSAGES.noNumber);
  }

  /** Once: the claim (welcome_sent_at) is taken before sending and given back if the mail server refuses. */
  private async sendWelcome(
    actorId: number,
    applicationId: number,
    certificate: string,
    email: string,
  ): Promise<ApplicationMembership["welcome"]> {
    const { db, mailer, logger, audit } = this.deps;
    if (!mailer?.enabled) return "mail-off";
    const claimed = await db
      .updateTable("applications")
      .set({ welcome_sent_at: nowIso() })
      .where("id", "=", applicationId)
      .where("welcome_sent_at", "is", null)
      .where("status", "=", "approved")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return "already-sent";
    try {
      await mailer.send(email, `Welcome to the ${this.deps.orgName}`, welcomeText(this.deps.orgName, certificate, this.deps.publicUrl));
    } catch (err) {
      logger.error({ application: applicationId, error: (err as Error)?.message }, "welcome e-mail could not be sent");
      await db.updateTable("applications").set({ welcome_sent_at: null }).where("id", "=", applicationId).execute();
      return "failed";
    }
    await audit.record({ actorId, action: "applications.welcome_sent", target: { type: "member", id: null, label: certificate } });
    return "sent";
  }
}

const sameName = (a: string | null, b: string | null) => (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

export function welcomeText(orgName: string, certificate: string, publicUrl: string | null): string {
  const signIn = publicUrl ? `${publicUrl.replace(/\/$/, "")}/login` : "our website's Member Login page";
  return [
    `Welcome to the ${orgName}!`,
    "",
    "Your membership application has been approved.",
    `Your certificate number is ${certificate}.`,
    "",
    `To sign in to the members' knowledge center, go to ${signIn}, enter your certificate number,`,
    "and your date of birth as MMDDYY (for example, 030785 for March 7, 1985).",
    "",
    `The ${orgName}`,
  ].join("\n");
}
