import type { Kysely } from "kysely";
import { nowIso, toBool } from "~/platform/db.server";
import { UsersRepo } from "~/features/auth/users.server";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { Mailer } from "~/platform/mailer.server";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/domain/audit";
import type { ApplicationMembership, MemberChoice, MemberMatch, MemberMatches, PlanFromApplication } from "./contract";
import { MEMBERSHIP_MESSAGES } from "./contract";
import { todayIn } from "~/features/membership/coverage";
import { coverageCentsOf } from "~/features/membership/contract";
import { coInsuredOfApplication } from "~/features/membership/co-insured";
import { addCoInsuredIfNone } from "~/features/membership/co-insured.server";

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
  /** The association's time zone: the approval's calendar day is its day. */
  timeZone: string;
}

/** An application's co-applicant fields, as stored. */
type CoApplicant = Record<"co_applicant_name" | "co_dob" | "co_gender" | "co_email" | "co_phone", string | null>;

/** What createMember needs from the application. */
interface ApplicationForMember {
  id: number;
  applicant_name: string;
  dob: string;
  email: string;
}

/**
 * From an approved application to a member, by staff's explicit choice: a new member with a new
 * certificate number and the application's name, birthdate and contact details, linked
 * (applications.member_user_id, set null if the member is deleted); or a link to a member
 * who has the application's name and birthdate, chosen by staff after seeing the match
 * (matches). Anyone who knows a member's name and birthday can apply in
 * their name, so a link never happens on its own, never changes the member's stored details,
 * and the welcome e-mail with the certificate number goes only to the member's own stored
 * address (none on record: no e-mail). The welcome e-mail goes out once, only after approval,
 * when mail is set up.
 */
export class MembershipFromApplications {
  constructor(private deps: MembershipDeps) {}

  /**
   * The members with the application's name and birthdate: what staff choose from before a
   * link; and the plan the application would give, shown before staff give it to a linked
   * member who has none.
   */
  async matches(applicationId: number): Promise<MemberMatches> {
    const app = await this.deps.db
      .selectFrom("applications")
      .select([
        "id",
        "applicant_name",
        "dob",
        "email",
        "amount_of_coverage",
        "beneficiary_name",
        "beneficiary_relationship",
        "co_applicant_name",
        "co_dob",
        "co_gender",
        "co_email",
        "co_phone",
      ])
      .where("id", "=", applicationId)
      .executeTakeFirst();
    if (!app) throw DomainError.notFound(MEMBERSHIP_MESSAGES.notFound);
    return { matches: await this.matchesOf(this.deps.db, app), plan: await this.planOf(this.deps.db, app) };
  }

  /**
   * `site`: the site's address for the sign-in link in the welcome e-mail when PUBLIC_URL is
   * not set (the address staff called).
   */
  async createMember(
    actorId: number,
    applicationId: number,
    choice: MemberChoice,
    site: string | null = null,
  ): Promise<ApplicationMembership> {
    const { db, audit } = this.deps;
    const outcome = await db.transaction().execute(async (trx) => {
      const app = await trx
        .selectFrom("applications as a")
        .innerJoin("submissions as s", "s.id", "a.submission_id")
        .select([
          "a.id",
          "s.status",
          "a.applicant_name",
          "a.dob",
          "a.email",
          "a.phone",
          "a.address1",
          "a.address2",
          "a.city",
          "a.state",
          "a.zip",
          "a.amount_of_coverage",
          "a.beneficiary_name",
          "a.beneficiary_relationship",
          "a.co_applicant_name",
          "a.co_dob",
          "a.co_gender",
          "a.co_email",
          "a.co_phone",
        ])
        .where("a.id", "=", applicationId)
        .executeTakeFirst();
      if (!app) throw DomainError.notFound(MEMBERSHIP_MESSAGES.notFound);
      if (app.status !== "approved") throw DomainError.conflict(MEMBERSHIP_MESSAGES.notApproved);
      // Claimed first (the row locked until this ends): of two staff doing this at once, the
      // second waits and then finds the first's member, or a claim still standing.
      const claimed = await trx
        .updateTable("applications")
        .set({ member_claimed_at: nowIso() })
        .where("id", "=", applicationId)
        .where("member_user_id", "is", null)
        .where("member_claimed_at", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { kind: "existing" as const };

      let member: { id: number; certificate: string };
      let created: boolean;
      /** Where the certificate number may be sent: a new member's own (the application's), a linked member's stored one. */
      let email: string | null;
      if (choice.linkTo !== null) {
        const linkTo = choice.linkTo;
        const match = (await this.matchesOf(trx, app)).find((m) => m.id === linkTo);
        // Thrown inside the transaction: the claim above is given back.
        if (!match) throw DomainError.conflict(MEMBERSHIP_MESSAGES.notAMatch);
        const stored = await trx.selectFrom("users").select("email").where("id", "=", match.id).executeTakeFirstOrThrow();
        member = { id: match.id, certificate: match.certificate };
        created = false;
        email = stored.email?.trim() || null;
      } else {
        member = await this.newMember(trx, app);
        created = true;
        email = app.email;
      }
      // The link replaces the claim.
      await trx
        .updateTable("applications")
        .set({ member_user_id: member.id, member_claimed_at: null })
        .where("id", "=", applicationId)
        .execute();
      // A linked member gets the application's plan (coverage, beneficiary) only when staff chose to give it.
      const planGiven = created || choice.givePlan ? await this.planFromApplication(trx, actorId, app, member) : false;
      await audit.record(
        {
          actorId,
          action: created ? "applications.member_created" : "applications.member_linked",
          target: { type: "member", id: member.id, label: member.certificate },
          details: { application: `application_${applicationId}`, ...(created ? {} : { planGiven }) },
        },
        trx,
      );
      return { kind: "done" as const, member, created, email, planGiven };
    });
    if (outcome.kind === "existing") return this.membershipOf(applicationId);
    const welcome = await this.sendWelcome(actorId, applicationId, outcome.member.certificate, outcome.email, site);
    return { member: outcome.member, created: outcome.created, welcome, planGiven: outcome.planGiven };
  }

  /**
   * The member's plan from the application: its amount of coverage and beneficiary, billed
   * monthly (the application's payment options, monthly billing, automatic checking and
   * credit card, are ways to pay the monthly dues: none asks for the annual plan, which staff
   * can choose on the member's row), approved on the day staff approved the application (the
   * association's calendar day of its last change to approved in the audit log; today if the
   * log has none).
   */
  private async planOf(
    db: Kysely<Database>,
    app: { id: number; amount_of_coverage: string; beneficiary_name: string | null; beneficiary_relationship: string | null } & CoApplicant,
  ): Promise<PlanFromApplication> {
    const approval = await db
      .selectFrom("audit_log")
      .select(["created_at", "details"])
      .where("action", "=", "submissions.status")
      .where("target_label", "=", `application_${app.id}`)
      .orderBy("id", "desc")
      .execute();
    const approvedAt = approval.find((r) => (JSON.parse(r.details ?? "{}") as { to?: unknown }).to === "approved")?.created_at;
    return {
      billing: "monthly",
      coverageCents: coverageCentsOf(app.amount_of_coverage),
      beneficiaryName: app.beneficiary_name,
      beneficiaryRelationship: app.beneficiary_relationship,
      approvedOn: todayIn(this.deps.timeZone, approvedAt ? new Date(approvedAt) : new Date()),
      coInsuredName: coInsuredName(coInsuredOfApplication(splitName(app.co_applicant_name ?? ""), app)),
    };
  }

  /**
   * Gives the member the plan from the application (planOf), with the co-applicant as its
   * co-insured, unless they have a plan: whether it was given. A member who already has a plan
   * keeps it, and its co-insured or none.
   */
  private async planFromApplication(
    trx: Kysely<Database>,
    actorId: number,
    app: { id: number; amount_of_coverage: string; beneficiary_name: string | null; beneficiary_relationship: string | null } & CoApplicant,
    member: { id: number; certificate: string },
  ): Promise<boolean> {
    const plan = await this.planOf(trx, app);
    const now = nowIso();
    const inserted = await trx
      .insertInto("membership_plans")
      .values({
        user_id: member.id,
        billing: plan.billing,
        coverage_cents: plan.coverageCents,
        beneficiary_name: plan.beneficiaryName,
        beneficiary_relationship: plan.beneficiaryRelationship,
        approved_on: plan.approvedOn,
        carried_paid_through: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!inserted) return false;
    await this.deps.audit.record(
      {
        actorId,
        action: "membership.plan",
        target: { type: "member", id: member.id, label: member.certificate },
        details: { billing: plan.billing, approvedOn: plan.approvedOn, application: `application_${app.id}` },
      },
      trx,
    );
    await this.coInsuredFromApplication(trx, actorId, app, member);
    return true;
  }

  /** The co-applicant, covered with the applicant: recorded on the plan just made from the application. */
  private async coInsuredFromApplication(
    trx: Kysely<Database>,
    actorId: number,
    app: { id: number } & CoApplicant,
    member: { id: number; certificate: string },
  ): Promise<void> {
    const person = coInsuredOfApplication(splitName(app.co_applicant_name ?? ""), app);
    if (!person || !(await addCoInsuredIfNone(trx, member.id, person))) return;
    await this.deps.audit.record(
      {
        actorId,
        action: "membership.co_insured",
        target: { type: "member", id: member.id, label: member.certificate },
        details: { change: "added", application: `application_${app.id}` },
      },
      trx,
    );
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
    // Claimed, the member not made yet.
    if (row.member_user_id === null) throw DomainError.conflict(MEMBERSHIP_MESSAGES.inProgress);
    return {
      member: { id: Number(row.member_user_id), certificate: row.certificate_number ?? "" },
      created: false,
      welcome: row.welcome_sent_at ? "already-sent" : this.deps.mailer?.enabled ? "not-sent" : "mail-off",
      planGiven: false,
    };
  }

  private async matchesOf(db: Kysely<Database>, app: ApplicationForMember): Promise<MemberMatch[]> {
    const name = splitName(app.applicant_name);
    const same = await db
      .selectFrom("users")
      .leftJoin("membership_plans", "membership_plans.user_id", "users.id")
      .select(["id", "certificate_number", "first_name", "last_name", "email", "is_active", "membership_plans.user_id as plan_of"])
      .where("role", "=", "user")
      .where("birthdate_digest", "=", this.deps.digestBirthdate(app.dob))
      .orderBy("id")
      .execute();
    return same
      .filter((u) => sameName(u.first_name, name.first) && sameName(u.last_name, name.last))
      .map((u) => {
        const stored = u.email?.trim() ?? "";
        return {
          id: Number(u.id),
          certificate: u.certificate_number ?? "",
          name: [u.first_name, u.last_name].filter(Boolean).join(" "),
          active: toBool(u.is_active),
          email: !stored ? "missing" : stored.toLowerCase() === app.email.trim().toLowerCase() ? "same" : "different",
          hasPlan: u.plan_of !== null,
        };
      });
  }

  /** A new number from the counter; one already taken (an imported member) is skipped. */
  private async newMember(
    trx: Kysely<Database>,
    app: ApplicationForMember & Record<"phone" | "address1" | "address2" | "city" | "state" | "zip", string | null>,
  ) {
    const name = splitName(app.applicant_name);
    const users = new UsersRepo(trx);
    for (let attempt = 0; attempt < 1000; attempt++) {
      const next = await trx
        .updateTable("certificate_counter")
        .set((eb) => ({ last_value: eb("last_value", "+", 1) }))
        .where("name", "=", "members")
        .returning("last_value")
        .executeTakeFirstOrThrow();
      const certificate = formatCertificate(this.deps.certificateFormat, Number(next.last_value));
      const row = await users.createMemberUnlessTaken({
        certificate,
        birthdateDigest: this.deps.digestBirthdate(app.dob),
        firstName: name.first,
        lastName: name.last,
        email: app.email,
        phone: app.phone,
        address1: app.address1,
        address2: app.address2,
        city: app.city,
        state: app.state,
        zip: app.zip,
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
    email: string | null,
    site: string | null,
  ): Promise<ApplicationMembership["welcome"]> {
    const { db, mailer, logger, audit } = this.deps;
    if (!email) return "no-address";
    if (!mailer?.enabled) return "mail-off";
    const claimed = await db
      .updateTable("applications")
      .set({ welcome_sent_at: nowIso() })
      .where("id", "=", applicationId)
      .where("welcome_sent_at", "is", null)
      .where("submission_id", "in", (eb) => eb.selectFrom("submissions").select("id").where("status", "=", "approved"))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return "already-sent";
    try {
      await mailer.send(
        email,
        `Welcome to the ${this.deps.orgName}`,
        welcomeText(this.deps.orgName, certificate, this.deps.publicUrl ?? site),
      );
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

/**
 * The welcome e-mail's text. `siteUrl` (PUBLIC_URL, else the address staff use) gives the
 * sign-in page's link, on a line of its own so mail programs make it clickable.
 */
export function welcomeText(orgName: string, certificate: string, siteUrl: string | null): string {
  const signIn = siteUrl
    ? ["To sign in to the members' knowledge center, open", `${siteUrl.replace(/\/$/, "")}/login`]
    : ["To sign in to the members' knowledge center, open our website's Member Login page,"];
  return [
    `Welcome to the ${orgName}!`,
    "",
    "Your membership application has been approved.",
    `Your certificate number is ${certificate}.`,
    "",
    ...signIn,
    "and enter your certificate number and your date of birth as MMDDYY (for example, 030785 for March 7, 1985).",
    "",
    `The ${orgName}`,
  ].join("\n");
}

const coInsuredName = (person: { firstName: string; lastName: string | null } | null) =>
  person ? [person.firstName, person.lastName].filter(Boolean).join(" ") : null;
