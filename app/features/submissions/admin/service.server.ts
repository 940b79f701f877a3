import type { Kysely } from "kysely";
import Papa from "papaparse";
import { nowIso, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import { FIELD_LABELS as APPLICATION_FIELD_LABELS } from "~/domain/application-fields";
import type { AuditRecorder } from "~/domain/audit";
import type { Logger } from "~/platform/logger.server";
import type { Mailer } from "~/platform/mailer.server";
import type { RateLimiter, RateLimits } from "~/platform/rate-limit.server";
import { SubmissionQueries, toSummary, type ListFilters } from "./queries.server";
import { SubmissionStore } from "../store.server";
import {
  EXPORT_COLUMNS,
  MESSAGES,
  REPLY_MESSAGES,
  SOURCES,
  SUBMISSION_TABLES,
  normalizeStatus,
  type Assignee,
  type IdsByTable,
  type LegacyFormsAnswer,
  type SignatureImage,
  type StatusChange,
  type SubmissionDetail,
  type SubmissionNote,
  type SubmissionField,
  type SubmissionQuery,
  type SubmissionsPage,
  type SubmissionStatus,
  type SubmissionTable,
} from "../contract";

/** Stored 0/1 flags, shown as yes/no. */
const FLAG_COLUMNS = new Set(["payment_monthly_billing", "payment_automatic_checking", "payment_use_credit_card", "confirm_accuracy"]);

const SIGNATURE_LABELS: Record<string, string> = {
  applicant_signature: "Applicant Signature",
  co_applicant_signature: "Co-Applicant Signature",
  ach_applicant_signature: "ACH Applicant Signature",
  ach_co_applicant_signature: "ACH Co-Applicant Signature",
};

/** Columns every source has, and the request forms' own. */
const FIELD_LABELS: Record<string, string> = {
  id: "ID",
  submitted_at: "Submitted",
  updated_at: "Last updated",
  member_id: "Membership ID",
  firm_name: "Firm name",
  address1: "Address line 1",
  address2: "Address line 2",
  zip: "ZIP",
  submitted_by: "Submitted by",
};

/** An application's columns carry the labels of the application form, where the applicant met them. */
const APPLICATION_LABELS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(APPLICATION_FIELD_LABELS).map(([field, label]) => [snakeCase(field), label])),
  beneficiary_relationship: "Beneficiary Relationship",
  cc_cardholder_signature: "Cardholder Signature (typed)",
  cc_process_date: "Card Process Date",
  confirm_accuracy: "Information confirmed as true and correct",
};

function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const labelOf = (table: SubmissionTable, key: string) =>
  (table === "applications" ? APPLICATION_LABELS[key] : undefined) ??
  FIELD_LABELS[key] ??
  key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, " ");

/** Only a PNG data URL may become an image source in the admin's browser. */
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A stored row with its 0/1 flags as booleans and a status outside the workflow (written by
 * an older version or by hand) read as pending. Ids need nothing: both drivers give numbers.
 */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (FLAG_COLUMNS.has(key)) out[key] = Number(value) === 1;
    else if (key === "status") out[key] = normalizeStatus(value);
    else out[key] = value;
  }
  return out;
}

export interface Actor {
  id: number;
}

/**
 * Replies are mail to an address the (anonymous) sender chose: a few a minute per submission
 * and per staff member, counted in the database so every instance shares the count.
 */
export const REPLY_RATE_LIMIT = { perSubmission: 3, perStaff: 6, windowMs: 60_000 };

/**
 * The admin side of the four submission tables: the unified list (searched, filtered, sorted
 * and paged by the database), one submission with every field, status changes, deletions,
 * the CSV export and the legacy admin-forms answer. Changes and exports are written to the
 * audit log with ids and counts only, never a name, e-mail or search text.
 */
export class SubmissionAdminService {
  readonly queries: SubmissionQueries;
  private store: SubmissionStore;
  private replyLimits: { submission: RateLimiter; staff: RateLimiter } | null;

  constructor(
    private db: Kysely<Database>,
    private dialect: Dialect,
    private audit: AuditRecorder,
    private mailer: Mailer | null = null,
    private logger: Logger | null = null,
    limits: RateLimits | null = null,
    replyLimit = REPLY_RATE_LIMIT,
  ) {
    this.queries = new SubmissionQueries(db, dialect);
    this.store = new SubmissionStore(db, dialect);
    this.replyLimits = limits && {
      submission: limits.limiter({ name: "reply_submission", points: replyLimit.perSubmission, windowMs: replyLimit.windowMs }),
      staff: limits.limiter({ name: "reply_staff", points: replyLimit.perStaff, windowMs: replyLimit.windowMs }),
    };
  }

  /**
   * One atomic consume per counter before a reply is sent: concurrent replies cannot all pass
   * a count taken before any was sent. A staff point taken for a reply the submission's count
   * refuses is given back.
   */
  private async consumeReply(actor: Actor, table: SubmissionTable, id: number) {
    if (!this.replyLimits) return;
    const staffKey = String(actor.id);
    const staff = await this.replyLimits.staff.consume(staffKey);
    if (!staff.allowed) throw DomainError.rateLimited(REPLY_MESSAGES.tooMany(staff.retryAfterSeconds), staff.retryAfterSeconds);
    const submission = await this.replyLimits.submission.consume(`${table}:${id}`);
    if (!submission.allowed) {
      await this.replyLimits.staff.reward(staffKey);
      throw DomainError.rateLimited(REPLY_MESSAGES.tooMany(submission.retryAfterSeconds), submission.retryAfterSeconds);
    }
  }

  /** The query's filters for the queries: 'Assigned to me' becomes the viewer's id. */
  private filtersOf(viewer: Actor, query: SubmissionQuery): ListFilters {
    const { assigned, ...filters } = query;
    return assigned === "me" ? { ...filters, assignedTo: viewer.id } : filters;
  }

  async list(viewer: Actor, query: SubmissionQuery): Promise<Omit<SubmissionsPage, "success">> {
    const { rows, total } = await this.queries.page(this.filtersOf(viewer, query), query.page, query.limit);
    return {
      submissions: rows.map(toSummary),
      pagination: { page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) },
    };
  }

  async detail(table: SubmissionTable, id: number): Promise<SubmissionDetail> {
    const [summary, row, submission, assigned, assignees] = await Promise.all([
      this.queries.summary(table, id),
      this.queries.find(table, id),
      this.queries.identity(table, id),
      this.queries.assigneesOf([{ source: table, id }]),
      this.assignees(),
    ]);
    if (!summary || !row || submission === undefined) throw DomainError.notFound(MESSAGES.notFound);
    summary.assigned_to = assigned.get(`${table}:${id}`);
    const submittedAt = String(row.submitted_at ?? "");
    const email = typeof row.email === "string" && row.email.trim() ? row.email.trim() : null;
    const [notes, history] = await Promise.all([this.notes(submission, email), this.history(table, id, submittedAt)]);
    const fields: SubmissionField[] = [];
    const signatures: SignatureImage[] = [];
    for (const [key, value] of Object.entries(plainRow(row))) {
      // The membership section shows these.
      if (key === "member_user_id" || key === "welcome_sent_at") continue;
      if (key in SIGNATURE_LABELS) {
        if (typeof value === "string" && PNG_DATA_URL.test(value)) signatures.push({ key, label: SIGNATURE_LABELS[key], dataUrl: value });
        continue;
      }
      const shown = key === "submitted_by" ? await this.submitterName(value) : value;
      fields.push({ key, label: labelOf(table, key), value: shown as SubmissionField["value"] });
    }
    const membership = table === "applications" ? await this.membershipOf(row) : undefined;
    return {
      ...toSummary(summary),
      fields,
      signatures,
      notes,
      history,
      replyTo: this.mailer?.enabled ? email : null,
      assignees,
      membership,
    };
  }

  /** Who sent a submission while signed in, by name: a member with their certificate, staff by username, a deleted account as such. */
  private async submitterName(userId: unknown): Promise<string | null> {
    if (userId === null || userId === undefined) return null;
    const id = Number(userId);
    const user = await this.db
      .selectFrom("users")
      .select(["role", "username", "first_name", "last_name", "certificate_number"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!user) return `A deleted user (#${id})`;
    if (user.role !== "user") return `${user.username ?? `#${id}`} (staff)`;
    const name = [user.first_name, user.last_name].filter(Boolean).join(" ");
    const certificate = user.certificate_number ? `certificate ${user.certificate_number}` : `#${id}`;
    return name ? `${name} (member, ${certificate})` : `Member, ${certificate}`;
  }

  /** The active staff accounts, by name: whom a submission can be assigned to. */
  private async assignees(): Promise<Assignee[]> {
    const rows = await this.db
      .selectFrom("users")
      .select(["id", "username"])
      .where("role", "in", ["limited_admin", "super_admin"])
      .where("is_active", "=", 1)
      .orderBy("username")
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.username ?? `#${r.id}` }));
  }

  /**
   * Assigns a submission to an active staff member, or to nobody (userId null). Assigning it
   * to whom it is already assigned changes nothing; a change is recorded in the audit log
   * with both names. On PostgreSQL the submission's row is locked meanwhile, so a deletion
   * running at the same time cannot leave an assignment behind.
   */
  async assign(actor: Actor, table: SubmissionTable, id: number, userId: number | null): Promise<Assignee | null> {
    const ref = `${SOURCES[table].prefix}${id}`;
    return this.db.transaction().execute(async (trx) => {
      const submission = await this.queries.identity(table, id, trx, true);
      if (submission === undefined) throw DomainError.notFound(MESSAGES.notFound);
      let assignee: Assignee | null = null;
      if (userId !== null) {
        const staff = trx
          .selectFrom("users")
          .select(["id", "username"])
          .where("id", "=", userId)
          .where("role", "in", ["limited_admin", "super_admin"])
          .where("is_active", "=", 1);
        const user = await (this.dialect === "postgres" ? staff.forShare() : staff).executeTakeFirst();
        if (!user) throw DomainError.invalid(MESSAGES.badAssignee);
        assignee = { id: Number(user.id), name: user.username ?? `#${user.id}` };
      }
      const before = await trx
        .selectFrom("submission_assignments as a")
        .leftJoin("users as u", "u.id", "a.user_id")
        .select(["a.user_id", "u.username"])
        .where("a.submission_id", "=", submission)
        .executeTakeFirst();
      if ((before ? Number(before.user_id) : null) === userId) return assignee;
      if (assignee) {
        const values = { submission_id: submission, user_id: assignee.id, assigned_by: actor.id, assigned_at: nowIso() };
        await trx
          .insertInto("submission_assignments")
          .values(values)
          .onConflict((oc) =>
            oc
              .column("submission_id")
              .doUpdateSet({ user_id: values.user_id, assigned_by: values.assigned_by, assigned_at: values.assigned_at }),
          )
          .execute();
      } else {
        await trx.deleteFrom("submission_assignments").where("submission_id", "=", submission).execute();
      }
      await this.audit.record(
        {
          actorId: actor.id,
          action: "submissions.assign",
          target: { type: "submission", id, label: ref },
          details: { table, from: before ? (before.username ?? `#${before.user_id}`) : null, to: assignee?.name ?? null },
        },
        trx,
      );
      return assignee;
    });
  }

  /** The member an application became (or was linked to), and whether the welcome e-mail went out. */
  private async membershipOf(row: Record<string, unknown>): Promise<SubmissionDetail["membership"]> {
    const memberId = row.member_user_id === null || row.member_user_id === undefined ? null : Number(row.member_user_id);
    if (memberId === null) return { member: null, welcomeSentAt: null };
    const user = await this.db.selectFrom("users").select(["id", "certificate_number"]).where("id", "=", memberId).executeTakeFirst();
    return {
      member: user ? { id: Number(user.id), certificate: user.certificate_number ?? "" } : null,
      welcomeSentAt: typeof row.welcome_sent_at === "string" ? row.welcome_sent_at : null,
    };
  }

  /**
   * Staff's e-mail reply to the sender, sent at once; once the mail server took it, it is kept
   * with the notes (subject, text, address) and recorded in the audit log (without its text).
   */
  async reply(actor: Actor & { label: string | null }, table: SubmissionTable, id: number, mail: { subject: string; message: string }) {
    if (!this.mailer?.enabled) throw DomainError.conflict(REPLY_MESSAGES.mailOff);
    const row = await this.queries.find(table, id);
    if (!row) throw DomainError.notFound(MESSAGES.notFound);
    const to = typeof row.email === "string" ? row.email.trim() : "";
    if (!to) throw DomainError.conflict(REPLY_MESSAGES.noAddress);
    await this.consumeReply(actor, table, id);
    const ref = `${SOURCES[table].prefix}${id}`;
    try {
      await this.mailer.send(to, mail.subject, mail.message);
    } catch (err) {
      // The error text only: the SMTP URL (with its password) stays out of the log.
      this.logger?.error({ submission: ref, error: (err as Error)?.message }, "reply to a submission could not be sent");
      throw DomainError.unavailable(REPLY_MESSAGES.notSent);
    }
    // Deleted while the mail went out: the reply is sent, there is nothing to keep it with (404).
    return this.keep(actor, table, id, { kind: "reply", subject: mail.subject, body: mail.message, to });
  }

  /** A staff member's note on a submission, kept with the author's name and recorded in the audit log. */
  async addNote(actor: Actor & { label: string | null }, table: SubmissionTable, id: number, body: string): Promise<SubmissionNote> {
    return this.keep(actor, table, id, { kind: "note", subject: null, body, to: null });
  }

  /**
   * Keeps a note or a sent reply with its submission (by its identity, so with no other) and
   * records it in the audit log (without its text), in one transaction.
   */
  private async keep(
    actor: Actor & { label: string | null },
    table: SubmissionTable,
    id: number,
    note: Pick<SubmissionNote, "kind" | "subject" | "body" | "to">,
  ): Promise<SubmissionNote> {
    return this.db.transaction().execute(async (trx) => {
      // Locked on PostgreSQL: a deletion running at the same time waits, or this answers 404.
      const submission = await this.queries.identity(table, id, trx, true);
      if (submission === undefined) throw DomainError.notFound(MESSAGES.notFound);
      const createdAt = nowIso();
      const { kind, subject, body } = note;
      const row = await trx
        .insertInto("submission_notes")
        .values({ submission_id: submission, author_id: actor.id, author_label: actor.label, kind, subject, body, created_at: createdAt })
        .returning("id")
        .executeTakeFirstOrThrow();
      await this.audit.record(
        {
          actorId: actor.id,
          action: kind === "reply" ? "submissions.reply" : "submissions.note",
          target: { type: "submission", id, label: `${SOURCES[table].prefix}${id}` },
        },
        trx,
      );
      return { id: Number(row.id), kind, author: actor.label, subject, to: note.to, body, createdAt };
    });
  }

  /** The notes and replies of a submission, by its identity (its list row's id). */
  private async notes(submission: number, email: string | null): Promise<SubmissionNote[]> {
    const rows = await this.db
      .selectFrom("submission_notes")
      .select(["id", "kind", "author_label", "subject", "body", "created_at"])
      .where("submission_id", "=", submission)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind === "reply" ? "reply" : "note",
      author: r.author_label,
      subject: r.subject,
      to: r.kind === "reply" ? email : null,
      body: r.body,
      createdAt: r.created_at,
    }));
  }

  /**
   * The status changes recorded for this submission since it was submitted (an id the
   * database gave again after a deletion does not inherit the old row's history).
   */
  private async history(table: SubmissionTable, id: number, submittedAt: string): Promise<StatusChange[]> {
    const rows = await this.db
      .selectFrom("audit_log")
      .select(["actor_label", "created_at", "details"])
      .where("target_type", "=", "submission")
      .where("target_label", "=", `${SOURCES[table].prefix}${id}`)
      .where("action", "=", "submissions.status")
      .where("created_at", ">=", submittedAt)
      .orderBy("id")
      .execute();
    return rows.map((r) => {
      const details = JSON.parse(r.details ?? "{}") as { from?: unknown; to?: unknown };
      return { from: normalizeStatus(details.from), to: normalizeStatus(details.to), by: r.actor_label, at: r.created_at };
    });
  }

  async setStatus(
    actor: Actor,
    table: SubmissionTable,
    id: number,
    status: SubmissionStatus,
  ): Promise<{ id: string; status: SubmissionStatus }> {
    const ref = `${SOURCES[table].prefix}${id}`;
    await this.db.transaction().execute(async (trx) => {
      const before = await this.store.setStatus(table, id, status, nowIso(), trx);
      if (before === undefined) throw DomainError.notFound(MESSAGES.notFound);
      await this.audit.record(
        {
          actorId: actor.id,
          action: "submissions.status",
          target: { type: "submission", id, label: ref },
          details: { table, from: normalizeStatus(before), to: status },
        },
        trx,
      );
    });
    return { id: ref, status };
  }

  /** Deletes the given rows of each table in one transaction; answers how many were deleted. */
  async deleteMany(actor: Actor, idsByTable: IdsByTable): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const byTable: Partial<Record<SubmissionTable, number>> = {};
      let deleted = 0;
      for (const table of SUBMISSION_TABLES) {
        const ids = [...new Set(idsByTable[table])];
        if (!ids.length) continue;
        // The kind row, notes and assignment go with the submission (foreign keys, 0028 and 0030).
        const n = await this.store.deleteRows(table, ids, trx);
        byTable[table] = n;
        deleted += n;
      }
      const ids = Object.fromEntries(SUBMISSION_TABLES.filter((t) => idsByTable[t].length).map((t) => [t, [...new Set(idsByTable[t])]]));
      await this.audit.record(
        { actorId: actor.id, action: "submissions.delete", rowCount: deleted, details: { deletedByTable: byTable, requestedIds: ids } },
        trx,
      );
      return deleted;
    });
  }

  /** The filtered list as CSV, safe to open in a spreadsheet; the export itself is audited. */
  async exportCsv(actor: Actor, query: SubmissionQuery): Promise<{ csv: string; rows: number }> {
    const rows = (await this.queries.all(this.filtersOf(actor, query))).map(toSummary);
    const csv = Papa.unparse(
      {
        fields: [...EXPORT_COLUMNS],
        data: rows.map((r) => EXPORT_COLUMNS.map((c) => String(r[c] ?? ""))),
      },
      // A cell starting with = + - @, tab or carriage return gets a leading ' so it stays text.
      { escapeFormulae: true, newline: "\r\n" },
    );
    await this.audit.record({
      actorId: actor.id,
      action: "submissions.export",
      rowCount: rows.length,
      details: { type: query.type, status: query.status, sort: query.sort, searched: !!query.search, assigned: query.assigned },
    });
    return { csv: `${csv}\r\n`, rows: rows.length };
  }

  /** GET /api/admin/forms: every stored row of the four tables, as stored (flags as booleans). */
  async legacyForms(): Promise<LegacyFormsAnswer> {
    const [contact, cpa, homeowner, applications] = await Promise.all(SUBMISSION_TABLES.map((t) => this.queries.table(t)));
    return {
      ok: true,
      error: null,
      contact_messages: contact.map(plainRow),
      cpa_requests: cpa.map(plainRow),
      homeowner_material_requests: homeowner.map(plainRow),
      applications: applications.map(plainRow),
    };
  }
}
