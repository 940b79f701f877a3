import type { ExpressionBuilder, Kysely } from "kysely";
import type { Dialect } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import type { Billing, MembershipRecord, TermEvent } from "./coverage";
import type { DueReminder, ReminderKind } from "./reminders";

type Db = Kysely<Database>;

/** An outbox row still to send: queued, or failed with a next attempt to come (one given up has none). */
export const stillToSend = (eb: ExpressionBuilder<Database, "membership_reminders">) =>
  eb.or([eb("status", "=", "queued"), eb.and([eb("status", "=", "failed"), eb("next_attempt_at", "is not", null)])]);

/** A member with a plan, as the reminders need them. */
export interface ReminderMember {
  id: number;
  email: string | null;
  firstName: string | null;
  certificateNumber: string | null;
  /** False once staff deactivated the account: no reminder is planned or sent to it. */
  active: boolean;
  /** Autopay failing (issue 40): why, as the provider said; null otherwise. */
  autopayFailure: string | null;
  record: MembershipRecord;
}

/** An outbox row this instance claimed to send. */
export interface ClaimedReminder {
  id: number;
  userId: number;
  kind: ReminderKind;
  period: string;
  attempts: number;
}

export type SendOutcome =
  | { id: number; status: "sent"; sentTo: string }
  | { id: number; status: "failed"; error: string; nextAttemptAt: string | null }
  | { id: number; status: "dropped"; error: string };

/**
 * The reminder outbox's SQL. Every step that must hold across instances is one statement: a
 * reminder is added once by its unique key (member, kind, period), a row is claimed by one
 * conditional UPDATE (PostgreSQL: rows another sender has locked are skipped), and its outcome
 * is written only by the claim's holder.
 */
export class ReminderOutbox {
  constructor(
    private db: Db,
    private dialect: Dialect,
  ) {}

  /** Members with a plan after `afterId`, in id order, with their ledgers: one page. */
  async membersPage(afterId: number, limit: number, withAddressOnly: boolean): Promise<ReminderMember[]> {
    let query = this.baseMembers().where("membership_plans.user_id", ">", afterId).where("users.is_active", "=", 1);
    if (withAddressOnly) query = query.where("users.email", "is not", null).where("users.email", "<>", "");
    return this.withLedgers(await query.orderBy("membership_plans.user_id").limit(limit).execute());
  }

  /** The members `ids` that have a plan, with their ledgers (deactivated ones too, marked). */
  async membersById(ids: number[]): Promise<Map<number, ReminderMember>> {
    if (!ids.length) return new Map();
    const rows = await this.baseMembers().where("membership_plans.user_id", "in", ids).execute();
    return new Map((await this.withLedgers(rows)).map((m) => [m.id, m]));
  }

  private baseMembers() {
    return this.db
      .selectFrom("membership_plans")
      .innerJoin("users", "users.id", "membership_plans.user_id")
      .leftJoin("membership_online", "membership_online.user_id", "membership_plans.user_id")
      .select([
        "membership_online.autopay",
        "membership_online.autopay_reason",
        "users.id",
        "users.email",
        "users.first_name",
        "users.certificate_number",
        "users.is_active",
        "membership_plans.billing",
        "membership_plans.approved_on",
        "membership_plans.carried_paid_through",
      ])
      .where("users.role", "=", "user");
  }

  private async withLedgers(
    rows: Array<{
      id: number;
      email: string | null;
      first_name: string | null;
      certificate_number: string | null;
      is_active: number | boolean;
      billing: string;
      approved_on: string | null;
      carried_paid_through: string | null;
      autopay: string | null;
      autopay_reason: string | null;
    }>,
  ): Promise<ReminderMember[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => Number(r.id));
    const [payments, events] = await Promise.all([
      // A refund counts in the term of the payment it pays back: its payment's day comes with it.
      this.db
        .selectFrom("membership_payments as p")
        .leftJoin("membership_payments as paid", "paid.id", "p.refund_of")
        .select(["p.user_id", "p.paid_on", "p.amount_cents", "paid.paid_on as term_on"])
        .where("p.user_id", "in", ids)
        .execute(),
      this.db
        .selectFrom("membership_events")
        .select(["user_id", "kind", "on_date", "reason"])
        .where("user_id", "in", ids)
        .orderBy("id")
        .execute(),
    ]);
    const paymentsOf = groupBy(payments, (p) => Number(p.user_id));
    const eventsOf = groupBy(events, (e) => Number(e.user_id));
    return rows.map((r) => {
      const id = Number(r.id);
      return {
        id,
        email: r.email,
        firstName: r.first_name,
        certificateNumber: r.certificate_number,
        active: !!r.is_active,
        autopayFailure: r.autopay === "failing" ? (r.autopay_reason ?? "") : null,
        record: {
          billing: r.billing as Billing,
          approvedOn: r.approved_on,
          carriedPaidThrough: r.carried_paid_through,
          payments: (paymentsOf.get(id) ?? []).map((p) =>
            p.term_on === null
              ? { on: p.paid_on, amountCents: Number(p.amount_cents) }
              : { on: p.paid_on, amountCents: Number(p.amount_cents), termOn: p.term_on },
          ),
          events: (eventsOf.get(id) ?? []).map((e): TermEvent =>
            e.kind === "cancelled" ? { kind: "cancelled", on: e.on_date, reason: e.reason ?? "" } : { kind: "reinstated", on: e.on_date },
          ),
        },
      };
    });
  }

  /** Payments by id (the receipts' periods), with their member. */
  async paymentsById(ids: number[]): Promise<Map<number, { userId: number; amountCents: number; paidOn: string }>> {
    const valid = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
    if (!valid.length) return new Map();
    const rows = await this.db
      .selectFrom("membership_payments")
      .select(["id", "user_id", "amount_cents", "paid_on"])
      .where("id", "in", valid)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), { userId: Number(r.user_id), amountCents: Number(r.amount_cents), paidOn: r.paid_on }]));
  }

  /** Adds reminders not yet in the outbox (the unique key drops any already there); the number added. */
  async add(rows: Array<{ userId: number } & DueReminder>, now: string): Promise<number> {
    if (!rows.length) return 0;
    const res = await this.db
      .insertInto("membership_reminders")
      .values(
        rows.map((r) => ({
          user_id: r.userId,
          kind: r.kind,
          period: r.period,
          due_on: r.dueOn,
          status: "queued",
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(["user_id", "kind", "period"]).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0);
  }

  /** Whether the day's reminders are all in the outbox; otherwise marks the day begun. */
  async dayPlanned(day: string, now: string): Promise<boolean> {
    await this.db
      .insertInto("membership_reminder_days")
      .values({ day, started_at: now, finished_at: null })
      .onConflict((oc) => oc.column("day").doNothing())
      .execute();
    const row = await this.db.selectFrom("membership_reminder_days").select("finished_at").where("day", "=", day).executeTakeFirst();
    return !!row?.finished_at;
  }

  async finishDay(day: string, queued: number, now: string): Promise<void> {
    await this.db.updateTable("membership_reminder_days").set({ finished_at: now, queued }).where("day", "=", day).execute();
  }

  /**
   * Claims up to `limit` rows waiting to be sent (queued, or failed with a retry time passed)
   * that no live claim holds: a row whose sender died is claimed again once its claim ends.
   */
  async claim(holder: string, limit: number, now: string, claimedUntil: string): Promise<ClaimedReminder[]> {
    let waiting = this.db
      .selectFrom("membership_reminders")
      .select("id")
      .where("status", "in", ["queued", "failed"])
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .orderBy("next_attempt_at")
      .orderBy("id")
      .limit(limit);
    if (this.dialect === "postgres") waiting = waiting.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable("membership_reminders")
      .set({ claimed_by: holder, claimed_until: claimedUntil })
      .where("id", "in", waiting)
      .returning(["id", "user_id", "kind", "period", "attempts"])
      .execute();
    return rows
      .map((r) => ({
        id: Number(r.id),
        userId: Number(r.user_id),
        kind: r.kind as ReminderKind,
        period: r.period,
        attempts: Number(r.attempts),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** Writes what happened to claimed rows, in one transaction; a row whose claim was lost is left to its new holder. */
  async record(holder: string, outcomes: SendOutcome[], now: string): Promise<void> {
    if (!outcomes.length) return;
    await this.db.transaction().execute(async (trx) => {
      for (const o of outcomes) {
        const attempt = { claimed_by: null, claimed_until: null, updated_at: now };
        const set =
          o.status === "sent"
            ? { ...attempt, status: "sent", sent_to: o.sentTo, sent_at: now, last_error: null, next_attempt_at: null }
            : o.status === "failed"
              ? { ...attempt, status: "failed", last_error: o.error, next_attempt_at: o.nextAttemptAt }
              : { ...attempt, status: "dropped", last_error: o.error, next_attempt_at: null };
        await trx
          .updateTable("membership_reminders")
          .set((eb) => ({ ...set, attempts: o.status === "dropped" ? eb.ref("attempts") : eb("attempts", "+", 1) }))
          .where("id", "=", o.id)
          .where("claimed_by", "=", holder)
          .execute();
      }
    });
  }

  /** Gives back claims not used (the sender stopped), so another sender need not wait them out. */
  async release(holder: string, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable("membership_reminders")
      .set({ claimed_by: null, claimed_until: null })
      .where("id", "in", ids)
      .where("claimed_by", "=", holder)
      .execute();
  }

  /** Gives back every claim of a sender that stopped (its process died), so its rows are sent at once. */
  async releaseClaimsOf(holder: string): Promise<void> {
    await this.db
      .updateTable("membership_reminders")
      .set({ claimed_by: null, claimed_until: null })
      .where("claimed_by", "=", holder)
      .execute();
  }

  /** A member's reminders, newest first. */
  forMember(userId: number) {
    return this.db.selectFrom("membership_reminders").selectAll().where("user_id", "=", userId).orderBy("id", "desc").limit(200).execute();
  }

  /** Members with a plan and no e-mail address: they get no reminders. */
  async withoutAddress(limit: number) {
    const base = this.db
      .selectFrom("membership_plans")
      .innerJoin("users", "users.id", "membership_plans.user_id")
      .where("users.role", "=", "user")
      .where("users.is_active", "=", 1)
      .where((eb) => eb.or([eb("users.email", "is", null), eb("users.email", "=", "")]));
    const [rows, total] = await Promise.all([
      base
        .select(["users.id", "users.certificate_number", "users.first_name", "users.last_name"])
        .orderBy("users.certificate_number")
        .orderBy("users.id")
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}

function groupBy<T>(items: T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
