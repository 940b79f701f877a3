import type { Kysely } from "kysely";
import Papa from "papaparse";
import type { AuditRecorder } from "~/domain/audit";
import type { Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { RateLimiter } from "~/platform/rate-limit.server";
import type { Database } from "~/platform/schema";
import { instantOfWallTime } from "~/platform/dates";
import { normalizeCertificate } from "~/features/auth/normalize";
import type { PublicUser } from "~/features/auth/user";
import type { CoverageCensus } from "~/features/membership/census.server";
import { coverageOn } from "~/features/membership/coverage";
import { ReminderOutbox, stillToSend, type ClaimedReminder } from "~/features/membership/reminder-outbox.server";
import type { OutboxMailKind, PreparedMail, ReminderTransport } from "~/features/membership/reminders.server";
import { AudienceIndex, countAudience, type AudienceMember } from "./audience.server";
import {
  ANNOUNCEMENT_MESSAGES,
  audienceSchema,
  SKIP_REASONS,
  type AnnouncementDetail,
  type AnnouncementStatus,
  type AnnouncementSummary,
  type Audience,
  type AudienceCount,
  type AudienceOptions,
  type Draft,
  type PreviewAnswer,
  type PreviewMissing,
  type Progress,
  type RecipientProblem,
} from "./contract";
import { renderAnnouncement, type MergeValues } from "./merge";
import type { UnsubscribeTokens } from "./unsubscribe-token.server";

type Db = Kysely<Database>;

/** The outbox kind of an announcement's mails; the row's period is the announcement's id. */
export const ANNOUNCEMENT_KIND = "announcement";
/** Rows added to the outbox per statement when sending starts. */
const INSERT_CHUNK = 500;
/** Failed and skipped recipients shown on the page (all of them in the CSV). */
const PROBLEMS_SHOWN = 100;
/** Stored while Send now adds the rows (a moment): shown as scheduled, for now. */
const STARTING = "starting";

export interface AnnouncementDeps {
  db: Db;
  dialect: Dialect;
  census: CoverageCensus;
  audit: AuditRecorder;
  tokens: UnsubscribeTokens;
  /** Send test's mail (the staff member's own address); null without SMTP. */
  testMail: ReminderTransport | null;
  /** Whether the outbox sends at all (SMTP set and reminders on): without it nothing is started. */
  sending: boolean;
  /** The site's public address: the unsubscribe links are made from it alone. */
  publicUrl: string | null;
  orgName: string;
  timeZone: string;
  logger: Logger;
  /** Send test: a few a staff member an hour. */
  testLimiter: RateLimiter;
  now?: () => Date;
}

/**
 * Announcements (issue 41): staff write to members chosen by their coverage. A draft is
 * edited until it is sent or scheduled; sending starts once (one conditional update, whoever
 * presses Send and however many instances run), fixes the audience then, and puts one row per
 * member in the reminders' outbox, which sends each once, paced, retried and shared by the
 * instances under its lease. Each mail is checked again just before it goes.
 */
export class AnnouncementService {
  /** Asks the outbox's sender for a check now (services wire it to ReminderService.kick). */
  kick: () => void = () => {};
  private outbox: ReminderOutbox;
  private audience: AudienceIndex;

  constructor(private deps: AnnouncementDeps) {
    this.outbox = new ReminderOutbox(deps.db, deps.dialect);
    this.audience = new AudienceIndex(deps.db, deps.census);
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  // ---- the list and one announcement ----

  async list(): Promise<AnnouncementSummary[]> {
    const rows = await this.base().orderBy("announcements.id", "desc").limit(200).execute();
    const progress = await this.progressOf(rows.filter((r) => r.recipients !== null).map((r) => Number(r.id)));
    return rows.map((r) => this.summary(r, progress.get(Number(r.id)) ?? null));
  }

  async get(id: number): Promise<AnnouncementDetail> {
    const row = await this.base().where("announcements.id", "=", id).executeTakeFirst();
    if (!row) throw DomainError.notFound(ANNOUNCEMENT_MESSAGES.notFound);
    const progress = row.recipients === null ? null : ((await this.progressOf([id])).get(id) ?? null);
    return {
      ...this.summary(row, progress),
      body: row.body,
      problems: row.recipients === null ? [] : await this.problems(id, PROBLEMS_SHOWN),
    };
  }

  private base() {
    return this.deps.db
      .selectFrom("announcements")
      .leftJoin("users as creator", "creator.id", "announcements.created_by")
      .leftJoin("users as sender", "sender.id", "announcements.sent_by")
      .selectAll("announcements")
      .select(["creator.username as creator_name", "sender.username as sender_name"]);
  }

  private summary(
    r: Awaited<ReturnType<ReturnType<AnnouncementService["base"]>["execute"]>>[number],
    progress: Progress | null,
  ): AnnouncementSummary {
    return {
      id: Number(r.id),
      subject: r.subject,
      status: (r.status === STARTING ? "scheduled" : r.status) as AnnouncementStatus,
      audience: readAudience(r.audience),
      scheduledAt: r.scheduled_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      cancelledAt: r.cancelled_at,
      createdBy: r.creator_name,
      sentBy: r.sender_name,
      progress,
    };
  }

  /** Each started announcement's outbox rows counted by state, in one grouped query. */
  private async progressOf(ids: number[]): Promise<Map<number, Progress>> {
    const out = new Map<number, Progress>();
    if (!ids.length) return out;
    const [announcements, rows] = await Promise.all([
      this.deps.db.selectFrom("announcements").select(["id", "recipients"]).where("id", "in", ids).execute(),
      this.deps.db
        .selectFrom("membership_reminders")
        .select((eb) => [
          "period",
          "status",
          "last_error",
          eb.fn.countAll<number>().as("n"),
          eb.fn.count<number>("next_attempt_at").as("retrying"),
        ])
        .where("kind", "=", ANNOUNCEMENT_KIND)
        .where(
          "period",
          "in",
          ids.map((id) => String(id)),
        )
        .groupBy(["period", "status", "last_error"])
        .execute(),
    ]);
    for (const a of announcements)
      out.set(Number(a.id), { recipients: Number(a.recipients ?? 0), sent: 0, waiting: 0, failed: 0, skipped: {} });
    for (const r of rows) {
      const p = out.get(Number(r.period));
      if (!p) continue;
      const n = Number(r.n);
      if (r.status === "sent") p.sent += n;
      else if (r.status === "queued") p.waiting += n;
      else if (r.status === "failed") {
        // A failure with a next attempt is still waiting; one given up is failed.
        const retrying = Number(r.retrying);
        p.waiting += retrying;
        p.failed += n - retrying;
      } else {
        const reason = r.last_error ?? SKIP_REASONS.cancelled;
        p.skipped[reason] = (p.skipped[reason] ?? 0) + n;
      }
    }
    for (const p of out.values()) {
      const counted = p.sent + p.waiting + p.failed + Object.values(p.skipped).reduce((a, b) => a + b, 0);
      // A deleted member takes their outbox row with them: counted here, named nowhere.
      if (counted < p.recipients) p.skipped[SKIP_REASONS.deleted] = p.recipients - counted;
    }
    return out;
  }

  /** Failed (given up) and skipped recipients, in member order. */
  async problems(id: number, limit: number): Promise<RecipientProblem[]> {
    const rows = await this.deps.db
      .selectFrom("membership_reminders as r")
      .innerJoin("users as u", "u.id", "r.user_id")
      .select(["r.user_id", "r.status", "r.last_error", "r.attempts", "u.certificate_number", "u.first_name", "u.last_name"])
      .where("r.kind", "=", ANNOUNCEMENT_KIND)
      .where("r.period", "=", String(id))
      .where((eb) => eb.or([eb("r.status", "=", "dropped"), eb.and([eb("r.status", "=", "failed"), eb("r.next_attempt_at", "is", null)])]))
      .orderBy("r.id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      memberId: Number(r.user_id),
      certificateNumber: r.certificate_number,
      name: [r.first_name, r.last_name].filter(Boolean).join(" "),
      status: r.status === "failed" ? "failed" : "skipped",
      reason: r.last_error ?? "",
      attempts: Number(r.attempts),
    }));
  }

  // ---- writing ----

  async create(actor: PublicUser, draft: Draft): Promise<AnnouncementDetail> {
    const now = this.now().toISOString();
    const row = await this.deps.db
      .insertInto("announcements")
      .values({
        subject: draft.subject,
        body: draft.body,
        audience: JSON.stringify(draft.audience),
        status: "draft",
        created_by: actor.id,
        updated_by: actor.id,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return this.get(Number(row.id));
  }

  /** A draft or a scheduled announcement (it keeps its time); one sent, sending or cancelled is as it was. */
  async update(actor: PublicUser, id: number, draft: Draft): Promise<AnnouncementDetail> {
    const res = await this.deps.db
      .updateTable("announcements")
      .set({
        subject: draft.subject,
        body: draft.body,
        audience: JSON.stringify(draft.audience),
        updated_by: actor.id,
        updated_at: this.now().toISOString(),
      })
      .where("id", "=", id)
      .where("status", "in", ["draft", "scheduled"])
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows)) await this.refuse(id, ANNOUNCEMENT_MESSAGES.notEditable);
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    const res = await this.deps.db.deleteFrom("announcements").where("id", "=", id).where("status", "=", "draft").executeTakeFirst();
    if (!Number(res.numDeletedRows)) await this.refuse(id, ANNOUNCEMENT_MESSAGES.notDeletable);
  }

  /** 404 when the announcement is not there, else 409 with `message`. */
  private async refuse(id: number, message: string): Promise<never> {
    const row = await this.deps.db.selectFrom("announcements").select("id").where("id", "=", id).executeTakeFirst();
    throw row ? DomainError.conflict(message) : DomainError.notFound(ANNOUNCEMENT_MESSAGES.notFound);
  }

  // ---- the audience, preview and test ----

  async options(actor: PublicUser): Promise<Omit<AudienceOptions, "success">> {
    const [states, me] = await Promise.all([
      this.deps.db
        .selectFrom("users")
        .select("state")
        .distinct()
        .where("role", "=", "user")
        .where("state", "is not", null)
        .where("state", "<>", "")
        .orderBy("state")
        .limit(100)
        .execute(),
      this.deps.db.selectFrom("users").select("email").where("id", "=", actor.id).executeTakeFirst(),
    ]);
    return {
      states: states.map((s) => String(s.state).toUpperCase()).filter((s, i, all) => /^[A-Z]{2}$/.test(s) && all.indexOf(s) === i),
      mailEnabled: this.deps.sending,
      timeZone: this.deps.timeZone,
      testAddress: me?.email?.trim() || null,
    };
  }

  async count(audience: Audience): Promise<Omit<AudienceCount, "success">> {
    return countAudience(await this.audience.members(audience));
  }

  /** The text as `certificateNumber`'s member (or the audience's first) would read it, the link shown but not made. */
  async preview(input: {
    subject: string;
    body: string;
    audience: Audience;
    certificateNumber: string | null;
  }): Promise<Omit<PreviewAnswer, "success">> {
    const member = await this.previewMember(input.audience, input.certificateNumber);
    const rendered = renderAnnouncement(input, member.values, this.foot("…"));
    return { ...rendered, member: { certificateNumber: member.values.certificateNumber, name: member.name, missing: member.missing } };
  }

  /**
   * The member a preview is read as: the one named, else the audience's first who will receive
   * it (issue 48: its very first may have no address), else its first, with why they would not.
   */
  private async previewMember(
    audience: Audience,
    certificateNumber: string | null,
  ): Promise<{ values: MergeValues; name: string; missing: PreviewMissing | null }> {
    const missingOf = (email: string | null, optedOut: boolean): PreviewMissing | null =>
      !email?.trim() ? "address" : optedOut ? "opted-out" : null;
    if (certificateNumber) {
      const row = await this.deps.db
        .selectFrom("users")
        .leftJoin("announcement_opt_outs", "announcement_opt_outs.user_id", "users.id")
        .select([
          "users.id",
          "users.first_name",
          "users.last_name",
          "users.certificate_number",
          "users.email",
          "announcement_opt_outs.user_id as opted_out",
        ])
        .where("users.role", "=", "user")
        .where("users.certificate_number", "=", normalizeCertificate(certificateNumber))
        .executeTakeFirst();
      if (!row) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.previewMember);
      const coverage = await this.deps.census.of(Number(row.id));
      return {
        values: { firstName: row.first_name, certificateNumber: row.certificate_number, paidThrough: coverage?.paidThrough ?? null },
        name: [row.first_name, row.last_name].filter(Boolean).join(" "),
        missing: missingOf(row.email, row.opted_out !== null),
      };
    }
    const members = await this.audience.members(audience);
    const first = members.find((m) => m.email && !m.optedOut) ?? members[0];
    if (!first) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.previewNobody);
    return {
      values: valuesOf(first),
      name: [first.firstName, first.lastName].filter(Boolean).join(" "),
      missing: missingOf(first.email, first.optedOut),
    };
  }

  /** Send test: the preview, to the staff member's own stored address only (never an address typed here). */
  async sendTest(
    actor: PublicUser,
    input: { subject: string; body: string; audience: Audience; certificateNumber: string | null },
  ): Promise<string> {
    const transport = this.deps.testMail;
    if (!transport) throw DomainError.unavailable(ANNOUNCEMENT_MESSAGES.mailOff);
    const me = await this.deps.db.selectFrom("users").select("email").where("id", "=", actor.id).executeTakeFirst();
    const to = me?.email?.trim();
    if (!to) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.noTestAddress);
    const allowed = await this.deps.testLimiter.consume(`staff:${actor.id}`);
    if (!allowed.allowed) throw DomainError.rateLimited("Too many test mails: try again later", allowed.retryAfterSeconds);
    const preview = await this.preview(input);
    await transport.send(to, `[Test] ${preview.subject}`, preview.text);
    return to;
  }

  // ---- sending ----

  private foot(link: string) {
    return this.deps.publicUrl ? { orgName: this.deps.orgName, unsubscribeUrl: this.unsubscribeUrl(link) } : null;
  }

  /** A member's one-click address; the link part is the token (or "…" in a preview). */
  unsubscribeUrl(token: string): string {
    return new URL(`/unsubscribe/${token}`, this.deps.publicUrl ?? "http://localhost").toString().replace("%E2%80%A6", "…");
  }

  private checkCanSend() {
    if (!this.deps.sending) throw DomainError.unavailable(ANNOUNCEMENT_MESSAGES.mailOff);
    if (!this.deps.publicUrl) throw DomainError.unavailable(ANNOUNCEMENT_MESSAGES.noPublicUrl);
  }

  /** Schedules for a wall-clock time in the association's time zone. */
  async schedule(actor: PublicUser, id: number, at: string): Promise<AnnouncementDetail> {
    this.checkCanSend();
    const when = instantOfWallTime(at, this.deps.timeZone);
    const now = this.now();
    if (when.getTime() <= now.getTime()) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.scheduleFuture);
    if (when.getTime() > now.getTime() + 366 * 86_400_000) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.scheduleTooFar);
    const current = await this.get(id);
    const counted = await this.count(current.audience);
    await this.deps.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable("announcements")
        .set({ status: "scheduled", scheduled_at: when.toISOString(), sent_by: actor.id, updated_at: now.toISOString() })
        .where("id", "=", id)
        .where("status", "in", ["draft", "scheduled"])
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) throw DomainError.conflict(ANNOUNCEMENT_MESSAGES.notStartable);
      await this.deps.audit.record(
        {
          actorId: actor.id,
          action: "announcements.schedule",
          target: { type: "announcement", id, label: current.subject },
          rowCount: counted.recipients,
          details: { at: when.toISOString(), audience: current.audience, matching: counted.matching },
        },
        trx,
      );
    });
    this.kick();
    return this.get(id);
  }

  /**
   * Send now: starts at once. The first press moves it to "starting" in one conditional
   * update; a second press, another staff member's or another instance's, finds it so (409).
   * A server stopped between the two steps leaves it starting: the next check starts it.
   */
  async sendNow(actor: PublicUser, id: number): Promise<AnnouncementDetail> {
    this.checkCanSend();
    const current = await this.get(id);
    if (current.status === "draft" || current.status === "scheduled") {
      if (!(await this.count(current.audience)).recipients) throw DomainError.invalid(ANNOUNCEMENT_MESSAGES.noRecipients);
    }
    const now = this.now().toISOString();
    const res = await this.deps.db
      .updateTable("announcements")
      .set({ status: STARTING, scheduled_at: now, sent_by: actor.id, updated_at: now })
      .where("id", "=", id)
      .where("status", "in", ["draft", "scheduled"])
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows)) await this.refuse(id, ANNOUNCEMENT_MESSAGES.notStartable);
    await this.start(id);
    this.kick();
    return this.get(id);
  }

  /**
   * Starts a scheduled announcement whose time came: its audience is read now and fixed, one
   * outbox row per member added with the status change, in one transaction that only the first
   * caller gets through (the status is the condition). A member without an address or opted
   * out gets a row already skipped, so the count adds up. Returns whether this call started it.
   */
  async start(id: number): Promise<boolean> {
    const row = await this.deps.db.selectFrom("announcements").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row || (row.status !== "scheduled" && row.status !== STARTING)) return false;
    const members = await this.audience.members(readAudience(row.audience), { fresh: true });
    const now = this.now().toISOString();
    const started = await this.deps.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable("announcements")
        .set({ status: "sending", started_at: now, updated_at: now, recipients: members.length })
        .where("id", "=", id)
        .where("status", "=", row.status)
        // Edited since its audience was read: the next check starts it with the new one.
        .where("updated_at", "=", row.updated_at)
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) return false;
      for (let i = 0; i < members.length; i += INSERT_CHUNK) {
        await trx
          .insertInto("membership_reminders")
          .values(
            members.slice(i, i + INSERT_CHUNK).map((m) => {
              const skip = m.optedOut ? SKIP_REASONS.optedOut : !m.email ? SKIP_REASONS.noAddress : null;
              return {
                user_id: m.id,
                kind: ANNOUNCEMENT_KIND,
                period: String(id),
                due_on: now.slice(0, 10),
                status: skip ? "dropped" : "queued",
                last_error: skip,
                next_attempt_at: skip ? null : now,
                created_at: now,
                updated_at: now,
              };
            }),
          )
          .onConflict((oc) => oc.columns(["user_id", "kind", "period"]).doNothing())
          .execute();
      }
      const counted = countAudience(members);
      await this.deps.audit.record(
        {
          actorId: row.sent_by,
          action: "announcements.send",
          target: { type: "announcement", id, label: row.subject },
          rowCount: counted.recipients,
          details: {
            audience: readAudience(row.audience),
            matching: counted.matching,
            withoutEmail: counted.withoutEmail,
            optedOut: counted.optedOut,
          },
        },
        trx,
      );
      return true;
    });
    if (started) this.deps.logger.info({ announcement: id, members: members.length }, "announcement sending started");
    return started;
  }

  /** Under the outbox's lease: starts every scheduled announcement whose time came. */
  async startDue(): Promise<void> {
    const due = await this.deps.db
      .selectFrom("announcements")
      .select("id")
      .where("status", "in", ["scheduled", STARTING])
      .where("scheduled_at", "<=", this.now().toISOString())
      .orderBy("scheduled_at")
      .execute();
    for (const a of due) await this.start(Number(a.id));
  }

  /** Marks sent each sending announcement with nothing left to send (every row sent, skipped or given up). */
  async finishDone(): Promise<void> {
    const sending = await this.deps.db.selectFrom("announcements").select("id").where("status", "=", "sending").execute();
    for (const a of sending) {
      const waiting = await this.deps.db
        .selectFrom("membership_reminders")
        .select("id")
        .where("kind", "=", ANNOUNCEMENT_KIND)
        .where("period", "=", String(a.id))
        .where(stillToSend)
        .limit(1)
        .executeTakeFirst();
      if (waiting) continue;
      const now = this.now().toISOString();
      await this.deps.db
        .updateTable("announcements")
        .set({ status: "sent", finished_at: now, updated_at: now })
        .where("id", "=", a.id)
        .where("status", "=", "sending")
        .execute();
    }
  }

  /** Stops a scheduled or sending announcement: what was sent stays sent, what waits is skipped. */
  async cancel(actor: PublicUser, id: number): Promise<AnnouncementDetail> {
    const now = this.now().toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom("announcements").select(["subject"]).where("id", "=", id).executeTakeFirst();
      if (!row) throw DomainError.notFound(ANNOUNCEMENT_MESSAGES.notFound);
      const res = await trx
        .updateTable("announcements")
        .set({ status: "cancelled", cancelled_at: now, updated_at: now })
        .where("id", "=", id)
        .where("status", "in", ["scheduled", STARTING, "sending"])
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) throw DomainError.conflict(ANNOUNCEMENT_MESSAGES.notCancellable);
      // A row a sender holds right now is checked again before it goes (the announcement is cancelled).
      const dropped = await trx
        .updateTable("membership_reminders")
        .set({ status: "dropped", last_error: SKIP_REASONS.cancelled, next_attempt_at: null, updated_at: now })
        .where("kind", "=", ANNOUNCEMENT_KIND)
        .where("period", "=", String(id))
        .where(stillToSend)
        .executeTakeFirst();
      await this.deps.audit.record(
        {
          actorId: actor.id,
          action: "announcements.cancel",
          target: { type: "announcement", id, label: row.subject },
          rowCount: Number(dropped.numUpdatedRows ?? 0),
        },
        trx,
      );
    });
    return this.get(id);
  }

  /** Every failed and skipped recipient as CSV (a name like "=HYPERLINK(...)" stays text in a spreadsheet). */
  async problemsCsv(id: number): Promise<string> {
    await this.get(id);
    const rows = await this.problems(id, 1_000_000);
    return Papa.unparse(
      {
        fields: ["certificate_number", "name", "status", "reason", "attempts"],
        data: rows.map((r) => [r.certificateNumber ?? "", r.name, r.status, r.reason, String(r.attempts)]),
      },
      { escapeFormulae: true, newline: "\r\n" },
    );
  }

  // ---- the outbox's side ----

  /** How the outbox sends this kind (registered with ReminderService). */
  readonly outboxKind: OutboxMailKind = {
    beforeSend: () => this.startDue(),
    afterSend: () => this.finishDone(),
    prepare: (rows, today) => this.prepare(rows, today),
  };

  /** Each claimed row's mail, checked again now: cancelled, deleted, deactivated, opted out or without an address is skipped. */
  private async prepare(rows: ClaimedReminder[], today: string): Promise<Map<number, PreparedMail>> {
    const out = new Map<number, PreparedMail>();
    const ids = [...new Set(rows.map((r) => Number(r.period)))].filter((n) => Number.isSafeInteger(n) && n > 0);
    const userIds = [...new Set(rows.map((r) => r.userId))];
    const [announcements, users, optOuts, plans] = await Promise.all([
      ids.length
        ? this.deps.db.selectFrom("announcements").select(["id", "subject", "body", "status"]).where("id", "in", ids).execute()
        : [],
      this.deps.db
        .selectFrom("users")
        .select(["id", "email", "first_name", "certificate_number", "is_active"])
        .where("id", "in", userIds)
        .where("role", "=", "user")
        .execute(),
      this.deps.db.selectFrom("announcement_opt_outs").select("user_id").where("user_id", "in", userIds).execute(),
      this.outbox.membersById(userIds),
    ]);
    const byId = new Map(announcements.map((a) => [Number(a.id), a]));
    const userOf = new Map(users.map((u) => [Number(u.id), u]));
    const optedOut = new Set(optOuts.map((o) => Number(o.user_id)));
    for (const row of rows) {
      const a = byId.get(Number(row.period));
      const u = userOf.get(row.userId);
      const to = u?.email?.trim();
      const drop =
        !a || a.status !== "sending"
          ? SKIP_REASONS.cancelled
          : !u
            ? SKIP_REASONS.deleted
            : !u.is_active
              ? SKIP_REASONS.deactivated
              : optedOut.has(row.userId)
                ? SKIP_REASONS.optedOut
                : !to
                  ? SKIP_REASONS.noAddress
                  : null;
      if (drop || !a || !u || !to) {
        out.set(row.id, { drop: drop ?? SKIP_REASONS.noAddress });
        continue;
      }
      const plan = plans.get(row.userId);
      const paidThrough = plan ? coverageOn(plan.record, today).paidThrough : null;
      const url = this.unsubscribeUrl(this.deps.tokens.make(row.userId));
      const mail = renderAnnouncement(
        a,
        { firstName: u.first_name, certificateNumber: u.certificate_number, paidThrough },
        {
          orgName: this.deps.orgName,
          unsubscribeUrl: url,
        },
      );
      out.set(row.id, {
        to,
        ...mail,
        headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
    }
    return out;
  }

  // ---- members' choice ----

  async receives(userId: number): Promise<boolean> {
    const row = await this.deps.db.selectFrom("announcement_opt_outs").select("user_id").where("user_id", "=", userId).executeTakeFirst();
    return !row;
  }

  /** Stops or resumes announcements for a member (idempotent). */
  async setReceive(userId: number, receive: boolean, source: "link" | "account"): Promise<void> {
    if (receive) {
      await this.deps.db.deleteFrom("announcement_opt_outs").where("user_id", "=", userId).execute();
      return;
    }
    await this.deps.db
      .insertInto("announcement_opt_outs")
      .values({ user_id: userId, source, created_at: this.now().toISOString() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
  }

  /** The member an unsubscribe link names (a member who still exists), or null. */
  async linkMember(token: unknown): Promise<{ id: number; firstName: string | null; receives: boolean } | null> {
    const id = this.deps.tokens.read(token);
    if (id === null) return null;
    const row = await this.deps.db
      .selectFrom("users")
      .select(["id", "first_name"])
      .where("id", "=", id)
      .where("role", "=", "user")
      .executeTakeFirst();
    if (!row) return null;
    return { id, firstName: row.first_name, receives: await this.receives(id) };
  }

  /** One click: stops announcements for the link's member; false when the link is not valid. */
  async unsubscribe(token: unknown): Promise<boolean> {
    const member = await this.linkMember(token);
    if (!member) return false;
    await this.setReceive(member.id, false, "link");
    return true;
  }
}

function valuesOf(m: AudienceMember): MergeValues {
  return { firstName: m.firstName, certificateNumber: m.certificateNumber, paidThrough: m.paidThrough };
}

function readAudience(json: string): Audience {
  try {
    const parsed = audienceSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through: an unreadable audience reaches nobody rather than everybody
  }
  // No member lives in state "--": an audience that cannot be read reaches nobody.
  return { statuses: [], plans: [], states: ["--"], joinedAfter: null, joinedBefore: null };
}
