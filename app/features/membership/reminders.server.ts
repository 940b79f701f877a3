import type { Kysely } from "kysely";
import type { Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import { Lease } from "~/platform/lease.server";
import type { Logger } from "~/platform/logger.server";
import { newHolderId } from "~/platform/process-holder.server";
import type { Database } from "~/platform/schema";
import { coverageOn, todayIn } from "./coverage";
import { MEMBERSHIP_MESSAGES, type MemberReminders, type ReminderView, type MembersWithoutEmail } from "./contract";
import { ReminderOutbox, type ClaimedReminder, type ReminderMember, type SendOutcome } from "./reminder-outbox.server";
import {
  RECEIPT_KIND,
  receiptMail,
  reminderAbout,
  REMINDER_LABELS,
  reminderDue,
  reminderMail,
  stillDue,
  type DueReminder,
  type ReminderKind,
  type ReminderMailContext,
} from "./reminders";

/** What sends one message: the site's Mailer (a pool of SMTP connections), or a test's stand-in. */
export interface ReminderTransport {
  send(to: string, subject: string, text: string, headers?: Record<string, string>): Promise<void>;
  close?(): void;
}

export interface ReminderSettings {
  /** Messages started per second at most: a day owing 50,000 spreads over minutes, not seconds. */
  ratePerSecond: number;
  /** Rows claimed at a time. */
  batchSize: number;
  /** How long a claim holds a row: after it, a row a stopped sender left is sent by the next. */
  claimMs: number;
  leaseTtlMs: number;
  /** After the nth failure a row waits retryBaseMs * 2^(n-1), at most retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Failures after which a row is no longer tried (it stays, failed, for staff to see). */
  maxAttempts: number;
  /** The scheduler's rhythm: each check plans the day (once) and sends what is waiting. */
  checkEveryMs: number;
  /** Members read at a time when a day is planned. */
  pageSize: number;
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  ratePerSecond: 30,
  batchSize: 100,
  claimMs: 5 * 60_000,
  leaseTtlMs: 60_000,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * 3_600_000,
  maxAttempts: 10,
  checkEveryMs: 60_000,
  pageSize: 1000,
};

export const REMINDER_DROP_REASONS = {
  noLongerDue: "No longer due: the membership changed before it was sent",
  noAddress: "No e-mail address on file",
  deactivated: "The member's account was deactivated",
} as const;

/** The scheduler's lease (platform/lease.server.ts): one instance plans and sends at a time. */
export const REMINDER_LEASE = "membership_reminders";

/** A claimed row's mail, or why it is not sent. */
export type PreparedMail = { drop: string } | { to: string; subject: string; text: string; headers?: Record<string, string> };

/**
 * A kind of mail another feature puts in the outbox (announcements, issue 41): its rows are
 * claimed, paced, retried and recorded as every reminder; the kind says what each row's mail
 * is. Its hooks run under the lease, so one instance at a time does their work.
 */
export interface OutboxMailKind {
  /** Before each run's sending: e.g. add the rows of announcements whose time came. */
  beforeSend?(): Promise<void>;
  /** After each run's sending: e.g. mark the announcements with nothing left to send. */
  afterSend?(): Promise<void>;
  /** The mail of each claimed row (by row id), checked again just before it goes. */
  prepare(rows: ClaimedReminder[], today: string): Promise<Map<number, PreparedMail>>;
}

export interface RunResult {
  planned: number;
  sent: number;
  failed: number;
  dropped: number;
}

/** SMTP's answer (e.g. "451 4.3.0 Try again later") or the error's message, on one line. */
function reasonOf(err: unknown): string {
  const e = err as { response?: unknown; message?: unknown };
  const text = typeof e?.response === "string" && e.response ? e.response : String(e?.message ?? err);
  return text.replace(/\s+/g, " ").trim().slice(0, 500) || "Unknown error";
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/**
 * Membership reminder e-mails (issue 31). Each check, one instance at a time (a lease): the
 * association's day is planned once (each member's due reminder added to the outbox, where a
 * unique key keeps it to one per member, kind and period), then what waits is sent, claimed a
 * batch at a time, through a bounded pool of SMTP connections at a capped rate; a failure is
 * retried with backoff, a success never again. A stopped server's claims run out and the rows
 * are sent by the next run: a restart goes on where it stopped.
 */
export class ReminderService {
  private outbox: ReminderOutbox;
  private lease: Lease;
  private settings: ReminderSettings;
  private holder = newHolderId();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RunResult | null> | null = null;
  private stopped = false;
  /** Reminder mails the mail server took and refused since the start (GET /metrics: aha_mail_*{kind="reminder"}). */
  readonly counts = { sent: 0, failed: 0 };
  /** The other kinds' mails by outcome since the start (GET /metrics). */
  readonly kindCounts = new Map<string, { sent: number; failed: number; dropped: number }>();
  /** A check asked for while one runs: another follows it at once. */
  private kicked = false;

  constructor(
    private deps: {
      db: Kysely<Database>;
      dialect: Dialect;
      /** null: no SMTP configured; nothing is planned or sent. */
      transport: ReminderTransport | null;
      /** The association's side of every mail (the member's name and ID are added per mail). */
      mail: Omit<ReminderMailContext, "firstName" | "certificateNumber">;
      timeZone: string;
      logger: Logger;
      settings?: Partial<ReminderSettings>;
      now?: () => Date;
      /** Other kinds of mail in the outbox, by their kind's name. */
      kinds?: Record<string, OutboxMailKind>;
    },
  ) {
    this.outbox = new ReminderOutbox(deps.db, deps.dialect);
    this.lease = new Lease(deps.db, REMINDER_LEASE);
    this.settings = { ...DEFAULT_REMINDER_SETTINGS, ...deps.settings };
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  /** The association's calendar day. */
  today(): string {
    return todayIn(this.deps.timeZone, this.now());
  }

  /** One check: under the lease, plans today once and sends what waits. Null when another instance holds the lease. */
  async runOnce(): Promise<RunResult | null> {
    if (!this.deps.transport) return null;
    const { leaseTtlMs } = this.settings;
    if (!(await this.lease.take(this.holder, leaseTtlMs, this.now().getTime()))) return null;
    try {
      const renew = () => this.lease.renew(this.holder, leaseTtlMs, { now: this.now().getTime() });
      const planned = await this.planToday(renew);
      const kinds = Object.values(this.deps.kinds ?? {});
      for (const kind of kinds) await kind.beforeSend?.();
      const sent = await this.sendWaiting(renew);
      for (const kind of kinds) await kind.afterSend?.();
      return { planned, ...sent };
    } finally {
      await this.lease.release(this.holder).catch((err) => this.deps.logger.warn({ err }, "could not release the reminder lease"));
    }
  }

  /**
   * Puts each member's reminder due today in the outbox, once a day (idempotent: run again, or
   * by two instances at once, it adds nothing twice). Returns the number added.
   */
  async planToday(stillHolding: () => Promise<boolean> = async () => true): Promise<number> {
    const today = this.today();
    if (await this.outbox.dayPlanned(today, this.now().toISOString())) return 0;
    let added = 0;
    let after = 0;
    for (;;) {
      const members = await this.outbox.membersPage(after, this.settings.pageSize, true);
      if (!members.length) break;
      after = members[members.length - 1].id;
      const due = members.flatMap((m) => {
        const reminder = reminderDue(m.record, today);
        return reminder ? [{ userId: m.id, ...reminder }] : [];
      });
      for (let i = 0; i < due.length; i += 500) added += await this.outbox.add(due.slice(i, i + 500), this.now().toISOString());
      // Lost the lease (this page took longer than it): another instance plans the rest, adding nothing twice.
      if (!(await stillHolding())) return added;
    }
    await this.outbox.finishDay(today, added, this.now().toISOString());
    if (added) this.deps.logger.info({ day: today, reminders: added }, "membership reminders queued");
    return added;
  }

  /**
   * Sends what waits in the outbox, a claimed batch at a time, until nothing is left, the
   * service stops or `stillHolding` says the lease was lost.
   */
  async sendWaiting(stillHolding: () => Promise<boolean> = async () => true): Promise<Omit<RunResult, "planned">> {
    const totals = { sent: 0, failed: 0, dropped: 0 };
    const transport = this.deps.transport;
    if (!transport) return totals;
    const { batchSize, claimMs, ratePerSecond } = this.settings;
    const gapMs = 1000 / ratePerSecond;
    let nextStart = performance.now();
    while (!this.stopped) {
      const now = this.now();
      const claimedUntil = new Date(now.getTime() + claimMs);
      const claimed = await this.outbox.claim(this.holder, batchSize, now.toISOString(), claimedUntil.toISOString());
      if (!claimed.length) break;
      const members = await this.outbox.membersById([...new Set(claimed.map((c) => c.userId))]);
      const receipts = await this.outbox.paymentsById(claimed.filter((c) => c.kind === RECEIPT_KIND).map((c) => Number(c.period)));
      const today = this.today();
      const prepared = new Map<number, PreparedMail>();
      for (const [name, kind] of Object.entries(this.deps.kinds ?? {})) {
        const rows = claimed.filter((c) => c.kind === name);
        if (rows.length) for (const [id, mail] of await kind.prepare(rows, today)) prepared.set(id, mail);
      }
      const recorder = new OutcomeRecorder((outcomes) => this.outbox.record(this.holder, outcomes, this.now().toISOString()));
      const sends: Promise<void>[] = [];
      const unsent: number[] = [];
      for (const row of claimed) {
        // A claim about to run out is left for the next run rather than risk two senders.
        if (this.stopped || this.now().getTime() > claimedUntil.getTime() - 30_000) {
          unsent.push(row.id);
          continue;
        }
        const member = members.get(row.userId);
        const counts = this.deps.kinds?.[row.kind] ? this.countsOf(row.kind) : null;
        const mail: PreparedMail = counts
          ? (prepared.get(row.id) ?? { drop: REMINDER_DROP_REASONS.noLongerDue })
          : row.kind === RECEIPT_KIND
            ? this.prepareReceipt(row, member, receipts, today)
            : this.prepare(row, member, today);
        if ("drop" in mail) {
          if (counts) counts.dropped++;
          recorder.add({ id: row.id, status: "dropped", error: mail.drop });
          continue;
        }
        const wait = nextStart - performance.now();
        if (wait > 0) await sleep(wait);
        nextStart = Math.max(nextStart, performance.now()) + gapMs;
        sends.push(
          transport.send(mail.to, mail.subject, mail.text, mail.headers).then(
            () => {
              (counts ?? this.counts).sent++;
              recorder.add({ id: row.id, status: "sent", sentTo: mail.to });
            },
            (err) => {
              (counts ?? this.counts).failed++;
              recorder.add(this.failure(row, err));
            },
          ),
        );
      }
      await Promise.all(sends);
      await recorder.settled();
      await this.outbox.release(this.holder, unsent);
      for (const o of recorder.recorded) totals[o.status]++;
      if (unsent.length || !(await stillHolding())) break;
    }
    return totals;
  }

  private countsOf(kind: string) {
    let counts = this.kindCounts.get(kind);
    if (!counts) this.kindCounts.set(kind, (counts = { sent: 0, failed: 0, dropped: 0 }));
    return counts;
  }

  /** The mail of a claimed row, or why it is no longer sent. */
  private prepare(
    row: ClaimedReminder,
    member: ReminderMember | undefined,
    today: string,
  ): { drop: string } | { to: string; subject: string; text: string } {
    if (member && !member.active) return { drop: REMINDER_DROP_REASONS.deactivated };
    if (!member || !stillDue(member.record, today, row.kind, row.period)) return { drop: REMINDER_DROP_REASONS.noLongerDue };
    const to = member.email?.trim();
    if (!to) return { drop: REMINDER_DROP_REASONS.noAddress };
    const coverage = coverageOn(member.record, today);
    const mail = reminderMail(row.kind, coverage, {
      ...this.deps.mail,
      firstName: member.firstName,
      certificateNumber: member.certificateNumber,
      autopayFailure: member.autopayFailure,
    });
    return { to, ...mail };
  }

  /** The receipt of a claimed row: sent once whatever the membership's state since, unless the payment or the address is gone. */
  private prepareReceipt(
    row: ClaimedReminder,
    member: ReminderMember | undefined,
    payments: Map<number, { userId: number; amountCents: number; paidOn: string }>,
    today: string,
  ): { drop: string } | { to: string; subject: string; text: string } {
    const payment = payments.get(Number(row.period));
    if (!member || !payment || payment.userId !== row.userId) return { drop: REMINDER_DROP_REASONS.noLongerDue };
    if (!member.active) return { drop: REMINDER_DROP_REASONS.deactivated };
    const to = member.email?.trim();
    if (!to) return { drop: REMINDER_DROP_REASONS.noAddress };
    const { paymentUrl: _unused, ...ctx } = this.deps.mail;
    const mail = receiptMail(payment, coverageOn(member.record, today), {
      ...ctx,
      firstName: member.firstName,
      certificateNumber: member.certificateNumber,
    });
    return { to, ...mail };
  }

  /** A payment recorded online: its receipt goes in the outbox once (the unique key), sent by the next run. */
  async queueReceipt(memberId: number, paymentId: number): Promise<void> {
    const now = this.now().toISOString();
    await this.outbox.add([{ userId: memberId, kind: RECEIPT_KIND, period: String(paymentId), dueOn: this.today() }], now);
  }

  private failure(row: ClaimedReminder, err: unknown): SendOutcome {
    const attempts = row.attempts + 1;
    const { retryBaseMs, retryMaxMs, maxAttempts } = this.settings;
    const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), retryMaxMs);
    const nextAttemptAt = attempts >= maxAttempts ? null : new Date(this.now().getTime() + delay).toISOString();
    this.deps.logger.warn({ reminderId: row.id, attempts, err: reasonOf(err) }, "membership reminder not sent");
    return { id: row.id, status: "failed", error: reasonOf(err), nextAttemptAt };
  }

  // ---- the schedule ----

  /** Server start: takes back what a stopped server of this machine held, then checks every checkEveryMs. */
  async start(initialDelayMs = 15_000): Promise<void> {
    if (!this.deps.transport) {
      this.deps.logger.info("membership reminders are off: no SMTP_URL");
      return;
    }
    const gone = await this.lease.freeIfHolderGone();
    if (gone) {
      await this.outbox.releaseClaimsOf(gone);
      this.deps.logger.warn("took back the reminder lease of a stopped server on this machine");
    }
    this.stopped = false;
    this.schedule(initialDelayMs);
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kicked = false;
      this.running = this.runOnce().catch((err) => {
        this.deps.logger.error({ err }, "membership reminders run failed");
        return null;
      });
      void this.running.then(() => {
        this.running = null;
        this.schedule(this.kicked ? 0 : this.settings.checkEveryMs);
      });
    }, delay);
    this.timer.unref?.();
  }

  /**
   * A check as soon as possible (an announcement sent now): at once when none runs, else right
   * after the one running. Another instance holding the lease sends at its next check.
   */
  kick(): void {
    if (this.stopped || !this.deps.transport) return;
    if (this.running) {
      this.kicked = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  /** Shutdown: no new batch; the mails in flight finish and are recorded; the pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.deps.transport?.close?.();
  }

  // ---- staff ----

  /** A member's reminder mails with their state, and whether the member has an address to send to. */
  async forMember(memberId: number): Promise<MemberReminders> {
    const member = await this.deps.db
      .selectFrom("users")
      .select(["id", "email"])
      .where("id", "=", memberId)
      .where("role", "=", "user")
      .executeTakeFirst();
    if (!member) throw DomainError.notFound(MEMBERSHIP_MESSAGES.memberNotFound);
    const rows = (await this.outbox.forMember(memberId)).filter((r) => !this.deps.kinds?.[r.kind]);
    // A receipt's period is its payment's id: named by its amount and day.
    const paymentIds = rows.filter((r) => r.kind === RECEIPT_KIND && /^\d{1,15}$/.test(r.period)).map((r) => Number(r.period));
    const payments = paymentIds.length
      ? await this.deps.db
          .selectFrom("membership_payments")
          .select(["id", "amount_cents", "paid_on"])
          .where("user_id", "=", memberId)
          .where("id", "in", paymentIds)
          .execute()
      : [];
    const paymentOf = new Map(payments.map((p) => [String(p.id), { amountCents: Number(p.amount_cents), paidOn: p.paid_on }]));
    const nowText = this.now().toISOString();
    const reminders: ReminderView[] = rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as ReminderKind,
      label: REMINDER_LABELS[r.kind as ReminderKind] ?? r.kind,
      period: r.period,
      about: reminderAbout({ kind: r.kind, period: r.period, payment: r.kind === RECEIPT_KIND ? paymentOf.get(r.period) : null }),
      dueOn: r.due_on,
      status: r.status as ReminderView["status"],
      sending: !!r.claimed_until && r.claimed_until > nowText,
      attempts: Number(r.attempts),
      nextAttemptAt: r.next_attempt_at,
      lastError: r.last_error,
      sentTo: r.sent_to,
      sentAt: r.sent_at,
      createdAt: r.created_at,
    }));
    return { memberId, hasEmail: !!member.email?.trim(), enabled: this.deps.transport !== null, reminders };
  }

  /** Members with a plan who get no reminders for want of an e-mail address (the first 100, and how many). */
  async membersWithoutEmail(): Promise<MembersWithoutEmail> {
    const { rows, total } = await this.outbox.withoutAddress(100);
    return {
      total,
      members: rows.map((r) => ({
        id: Number(r.id),
        certificateNumber: r.certificate_number,
        firstName: r.first_name,
        lastName: r.last_name,
      })),
    };
  }
}

/**
 * Writes outcomes as they come, coalesced: while one write runs, the next outcomes gather for
 * the following one. A mail the server took is marked sent within moments, so a crash re-sends
 * as little as possible.
 */
class OutcomeRecorder {
  readonly recorded: SendOutcome[] = [];
  private pending: SendOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private error: unknown = null;

  constructor(private write: (outcomes: SendOutcome[]) => Promise<void>) {}

  add(outcome: SendOutcome) {
    this.pending.push(outcome);
    this.flushing ??= this.flush();
  }

  private async flush() {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0);
        await this.write(batch);
        this.recorded.push(...batch);
      }
    } catch (err) {
      this.error = err;
    } finally {
      this.flushing = null;
    }
  }

  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.error) throw this.error;
  }
}

export type { DueReminder };
