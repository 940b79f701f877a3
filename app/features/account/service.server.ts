import type { Kysely } from "kysely";
import { toBool } from "~/platform/db.server";
import { DomainError, parseInput } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/domain/audit";
import { sessionIdHash } from "~/features/auth/credentials.server";
import { UsersRepo } from "~/features/auth/users.server";
import { SOURCES, STATUS_LABELS, normalizeStatus, type SubmissionTable } from "~/features/submissions/contract";
import { memberSubmissions } from "~/features/submissions/admin/queries.server";
import {
  ACCOUNT_MESSAGES,
  contactDetailsSchema,
  type AccountOverview,
  type AccountSubmission,
  type ContactDetails,
  type ContactSaved,
} from "./contract";
import type { EmailChanges } from "./email-change.server";

const CONTACT_COLUMNS = ["email", "phone", "address1", "address2", "city", "state", "zip"] as const;

/** A member's own account: what the account page shows, and the contact details they keep. */
export class AccountService {
  constructor(
    private db: Kysely<Database>,
    private audit: AuditRecorder,
    private emailChanges: EmailChanges,
  ) {}

  async overview(userId: number): Promise<AccountOverview> {
    const user = await this.member(userId);
    return {
      membership: {
        certificate: user.certificate_number ?? "",
        firstName: user.first_name,
        lastName: user.last_name,
        active: toBool(user.is_active),
        memberSince: user.created_at,
      },
      contact: contactOf(user),
      emailPending: await this.emailChanges.pending(userId),
      submissions: await this.submissions(userId),
    };
  }

  /**
   * The member's new contact details; recorded in the audit log by field name, never by value.
   * A new e-mail address waits for the link sent to it; the one on record stays until then. An address removed takes effect at once
   * (a waiting link with it), and is told.
   */
  async updateContact(userId: number, input: unknown): Promise<Omit<ContactSaved, "success">> {
    const asked = parseInput(contactDetailsSchema, input ?? {});
    const before = contactOf(await this.member(userId));
    const sameEmail = (asked.email ?? "").toLowerCase() === (before.email ?? "").toLowerCase();
    const emailPending = asked.email !== null && !sameEmail ? asked.email : null;
    // Before anything is written: a refusal (no mail, too many changes) saves nothing. The
    // address already waiting for its link is not sent another.
    const waiting = emailPending ? await this.emailChanges.pending(userId) : null;
    if (emailPending && waiting?.toLowerCase() !== emailPending.toLowerCase()) await this.emailChanges.request(userId, emailPending);
    const contact = emailPending ? { ...asked, email: before.email } : asked;
    const changed = CONTACT_COLUMNS.filter((c) => before[c] !== contact[c]);
    await this.db.transaction().execute(async (trx) => {
      await new UsersRepo(trx).setContactDetails(userId, contact);
      // An address removed: a link still waiting no longer counts.
      if (asked.email === null) await this.emailChanges.cancel(userId, trx);
      if (changed.length)
        await this.audit.record(
          {
            actorId: userId,
            action: "account.contact_update",
            target: { type: "member", id: userId, label: null },
            details: { fields: changed },
          },
          trx,
        );
    });
    if (before.email && contact.email === null) await this.emailChanges.tellOldAddress(userId, before.email);
    return { contact, emailPending };
  }

  /**
   * 'Sign out everywhere' (members and staff): ends every session of the account but the one
   * asking, and records how many in the audit log, in one transaction. Returns that number.
   */
  async signOutEverywhere(userId: number, currentToken: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom("users")
        .select(["role", "username", "certificate_number"])
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      const result = await trx
        .deleteFrom("sessions")
        .where("user_id", "=", userId)
        .where("id_hash", "<>", sessionIdHash(currentToken))
        .executeTakeFirst();
      const ended = Number(result.numDeletedRows);
      const member = user.role === "user";
      await this.audit.record(
        {
          actorId: userId,
          action: "account.sign_out_everywhere",
          target: { type: member ? "member" : "staff", id: userId, label: member ? user.certificate_number : user.username },
          rowCount: ended,
        },
        trx,
      );
      return ended;
    });
  }

  private async member(userId: number) {
    const user = await this.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!user || user.role !== "user") throw DomainError.forbidden(ACCOUNT_MESSAGES.membersOnly);
    return user;
  }

  private async submissions(userId: number): Promise<AccountSubmission[]> {
    const rows = (await memberSubmissions(this.db, userId)).map((r) => {
      const source = SOURCES[r.source as SubmissionTable];
      return {
        ref: `${source.prefix}${Number(r.row_id)}`,
        formType: source.formType,
        submittedAt: String(r.submitted_at),
        status: normalizeStatus(r.status),
      };
    });
    if (!rows.length) return [];
    const changes = await this.db
      .selectFrom("audit_log")
      .select(["target_label", "created_at", "details"])
      .where("target_type", "=", "submission")
      .where("action", "=", "submissions.status")
      .where(
        "target_label",
        "in",
        rows.map((r) => r.ref),
      )
      .orderBy("id")
      .execute();
    return rows
      .map((r) => ({
        ...r,
        statusLabel: STATUS_LABELS[r.status],
        changes: changes
          .filter((c) => c.target_label === r.ref && c.created_at >= r.submittedAt)
          .map((c) => ({
            toLabel: STATUS_LABELS[normalizeStatus((JSON.parse(c.details ?? "{}") as { to?: unknown }).to)],
            at: c.created_at,
          })),
      }))
      .sort((a, b) => (a.submittedAt < b.submittedAt ? 1 : a.submittedAt > b.submittedAt ? -1 : 0));
  }
}

function contactOf(user: Record<(typeof CONTACT_COLUMNS)[number], string | null>): ContactDetails {
  return Object.fromEntries(CONTACT_COLUMNS.map((c) => [c, user[c] ?? null])) as ContactDetails;
}
