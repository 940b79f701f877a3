import type { Kysely, SelectQueryBuilder } from "kysely";
import { isUniqueViolation, nowIso, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import type { AuditAction, AuditRecorder } from "~/domain/audit";
import { coverageOn, formatCents, formatLongDay, todayIn, type Billing } from "./coverage";
import { membershipRecord, paymentsToDrawFrom, prepaidPastLimit, reinstatementPreview } from "./ledger";
import { CO_INSURED_MESSAGES, changedFields, type CoInsuredInput } from "./co-insured";
import { readCoInsured, removeCoInsured, writeCoInsured } from "./co-insured.server";
import {
  dayOutOfRange,
  MEMBERSHIP_MESSAGES as M,
  type CancelInput,
  type MembershipView,
  type PaymentInput,
  type PaymentMethod,
  type PaymentView,
  type PlanInput,
  type PlanView,
  type ReinstateInput,
  type RefundInput,
  type TermEventView,
} from "./contract";

/** The staff account acting, or the system recording what the payment provider told it (`system` names it). */
export type MembershipActor = { id: number } | { id: null; system: string };

/** The payment provider, recording an online payment or refund (issue 40). */
export const ONLINE_ACTOR: MembershipActor = { id: null, system: "Stripe" };

type Db = Kysely<Database>;

/**
 * A member's plan, the ledger of payments and refunds, and cancellations and reinstatements.
 * Rows are only ever added (a mistaken payment is paid back by a refund, never edited), every
 * change is in the audit log in the same transaction, and coverage is computed from the rows
 * on the association's calendar day (coverage.ts), never stored.
 */
export class CoverageService {
  constructor(
    private db: Db,
    private dialect: Dialect,
    private audit: AuditRecorder,
    /** The association's time zone: whose calendar day "today" is. */
    private timeZone: string,
    private now: () => Date = () => new Date(),
  ) {}

  /** The association's calendar day. */
  today(): string {
    return todayIn(this.timeZone, this.now());
  }

  /** Staff's view of a member's membership. */
  async view(memberId: number, db: Db = this.db): Promise<MembershipView> {
    const member = await db.selectFrom("users").select("id").where("id", "=", memberId).where("role", "=", "user").executeTakeFirst();
    if (!member) throw DomainError.notFound(M.memberNotFound);
    const [plan, coInsured, payments, events] = await Promise.all([
      db.selectFrom("membership_plans").selectAll().where("user_id", "=", memberId).executeTakeFirst(),
      readCoInsured(db, memberId),
      db.selectFrom("membership_payments").selectAll().where("user_id", "=", memberId).orderBy("paid_on").orderBy("id").execute(),
      db.selectFrom("membership_events").selectAll().where("user_id", "=", memberId).orderBy("id").execute(),
    ]);
    // What came out of each payment: refunds, and money carried into a later term.
    const refunded = new Map<number, number>();
    const carriedOut = new Map<number, number>();
    for (const p of payments) {
      if (p.refund_of === null) continue;
      const into = p.carried_with === null ? refunded : carriedOut;
      into.set(Number(p.refund_of), (into.get(Number(p.refund_of)) ?? 0) - Number(p.amount_cents));
    }
    const paymentViews: PaymentView[] = payments.map((p) => ({
      id: Number(p.id),
      amountCents: Number(p.amount_cents),
      paidOn: p.paid_on,
      method: p.method as PaymentMethod,
      reference: p.reference,
      refundOf: p.refund_of === null ? null : Number(p.refund_of),
      refundedCents: refunded.get(Number(p.id)) ?? 0,
      carriedOutCents: carriedOut.get(Number(p.id)) ?? 0,
      carriedWith: p.carried_with === null ? null : Number(p.carried_with),
      note: p.note,
      recordedAt: p.recorded_at,
    }));
    const eventViews: TermEventView[] = events.map((e) => ({
      id: Number(e.id),
      kind: e.kind as TermEventView["kind"],
      on: e.on_date,
      reason: e.reason,
      recordedAt: e.recorded_at,
    }));
    const today = this.today();
    const planView: PlanView | null = plan
      ? {
          billing: plan.billing as Billing,
          coverageCents: plan.coverage_cents === null ? null : Number(plan.coverage_cents),
          beneficiaryName: plan.beneficiary_name,
          beneficiaryRelationship: plan.beneficiary_relationship,
          approvedOn: plan.approved_on,
          carriedPaidThrough: plan.carried_paid_through,
        }
      : null;
    const coverage = coverageOn(membershipRecord(planView, paymentViews, eventViews), today);
    return {
      memberId,
      plan: planView,
      coInsured,
      coverage,
      today,
      payments: paymentViews,
      events: eventViews,
    };
  }

  /**
   * A member's own view: the same dates and ledger, without staff's internal words (refund
   * notes, cancellation reasons), the beneficiary, which stays with the plan's papers, or the
   * co-insured's details but their name.
   */
  async forMember(userId: number): Promise<MembershipView> {
    const view = await this.view(userId);
    return {
      ...view,
      plan: view.plan && { ...view.plan, beneficiaryName: null, beneficiaryRelationship: null },
      // Their name, for the card; the rest stays with staff.
      coInsured: view.coInsured && { ...view.coInsured, birthdate: null, gender: null, email: null, phone: null },
      coverage:
        view.coverage.state.kind === "cancelled" ? { ...view.coverage, state: { ...view.coverage.state, reason: "" } } : view.coverage,
      payments: view.payments.map((p) => ({ ...p, note: null })),
      events: view.events.map((e) => ({ ...e, reason: null })),
    };
  }

  async setPlan(actor: MembershipActor, memberId: number, input: PlanInput): Promise<MembershipView> {
    this.inRange(input.approvedOn, "Approved on");
    return this.viewOf(actor, memberId, "membership.plan", async (trx, label) => {
      const now = nowIso();
      const values = {
        billing: input.billing,
        coverage_cents: input.coverageAmount,
        beneficiary_name: input.beneficiaryName,
        beneficiary_relationship: input.beneficiaryRelationship,
        approved_on: input.approvedOn,
        updated_at: now,
      };
      const before = await trx
        .selectFrom("membership_plans")
        .select(["billing", "approved_on"])
        .where("user_id", "=", memberId)
        .executeTakeFirst();
      await trx
        .insertInto("membership_plans")
        .values({ user_id: memberId, carried_paid_through: null, created_at: now, ...values })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
        .execute();
      return {
        label,
        details: {
          billing: input.billing,
          approvedOn: input.approvedOn,
          ...(before ? { from: { billing: before.billing, approvedOn: before.approved_on } } : {}),
        },
      };
    });
  }

  async recordPayment(actor: MembershipActor, memberId: number, input: PaymentInput): Promise<MembershipView> {
    return (await this.paymentChange(actor, memberId, input))!;
  }

  /** A payment recorded in a transaction the caller holds (the webhook's); no view is read back. */
  async recordPaymentIn(
    trx: Db,
    actor: MembershipActor,
    memberId: number,
    input: Omit<PaymentInput, "method"> & { method: PaymentMethod },
  ): Promise<void> {
    await this.paymentChange(actor, memberId, input, trx);
  }

  private async paymentChange(
    actor: MembershipActor,
    memberId: number,
    input: Omit<PaymentInput, "method"> & { method: PaymentMethod },
    outer?: Db,
  ): Promise<MembershipView | null> {
    this.inRange(input.paidOn, "Paid on");
    return this.change(actor, memberId, "membership.payment", outer, async (trx, label) => {
      await this.requirePlan(trx, memberId);
      // Decided with the member's row locked: two payments at once cannot each pass the check alone.
      const before = await this.view(memberId, trx);
      const past = prepaidPastLimit(before, [{ amountCents: input.amount, paidOn: input.paidOn }], before.today);
      if (past) {
        const message = M.prepaidTooFar(formatLongDay(past.latest), past.through && formatLongDay(past.through));
        throw DomainError.invalid(message, { amount: message });
      }
      try {
        await trx
          .insertInto("membership_payments")
          .values({
            user_id: memberId,
            amount_cents: input.amount,
            paid_on: input.paidOn,
            method: input.method,
            reference: input.reference,
            refund_of: null,
            note: null,
            ...(await this.recorder(trx, actor)),
          })
          .execute();
      } catch (err) {
        // The transaction is over on PostgreSQL after this: say why and let it roll back. The
        // message names its field, so the form shows it by the Reference it is about.
        if (isUniqueViolation(err)) throw new DomainError("conflict", M.referenceTaken, { details: { reference: M.referenceTaken } });
        throw err;
      }
      return { label, details: { amountCents: input.amount, paidOn: input.paidOn, method: input.method, reference: input.reference } };
    });
  }

  /**
   * Pays back a payment, whole or in part, in as many refunds as staff record: their sum never
   * goes above the payment (less what was carried into a later term). Decided in the
   * transaction, with the member's row locked first (change), so two staff refunding the same
   * payment at once take turns and the second sees the first's refund.
   */
  async refund(actor: MembershipActor, paymentId: number, input: RefundInput): Promise<MembershipView> {
    return (await this.refundChange(actor, paymentId, input))!;
  }

  /** A refund recorded in a transaction the caller holds (the webhook's); no view is read back. */
  async refundIn(trx: Db, actor: MembershipActor, paymentId: number, input: RefundInput): Promise<void> {
    await this.refundChange(actor, paymentId, input, trx);
  }

  private async refundChange(actor: MembershipActor, paymentId: number, input: RefundInput, outer?: Db): Promise<MembershipView | null> {
    this.inRange(input.refundedOn, "Refunded on");
    const payment = await (outer ?? this.db)
      .selectFrom("membership_payments")
      .select(["user_id"])
      .where("id", "=", paymentId)
      .executeTakeFirst();
    if (!payment) throw DomainError.notFound(M.paymentNotFound);
    return this.change(actor, Number(payment.user_id), "membership.refund", outer, async (trx, label) => {
      const original = await this.locked(
        trx.selectFrom("membership_payments").select(["amount_cents", "refund_of", "method", "paid_on"]).where("id", "=", paymentId),
      );
      if (!original) throw DomainError.notFound(M.paymentNotFound);
      if (original.refund_of !== null || Number(original.amount_cents) < 0) throw DomainError.invalid(M.refundOfRefund);
      // What came out of it already: refunds, and money carried into a later term (negative entries naming it).
      const taken = await trx.selectFrom("membership_payments").select("amount_cents").where("refund_of", "=", paymentId).execute();
      const left = taken.reduce((rest, t) => rest + Number(t.amount_cents), Number(original.amount_cents));
      if (left <= 0) throw DomainError.conflict(M.alreadyRefunded);
      const amount = input.amount ?? left;
      if (amount > left) {
        const message = taken.length ? M.refundMoreThanLeft(formatCents(left)) : M.refundTooMuch;
        throw DomainError.invalid(message, { amount: message });
      }
      // Dated before its payment, a refund would count against the term before the money came in.
      if (input.refundedOn < original.paid_on) throw DomainError.invalid(M.refundBeforePayment, { refundedOn: M.refundBeforePayment });
      await trx
        .insertInto("membership_payments")
        .values({
          user_id: Number(payment.user_id),
          amount_cents: -amount,
          paid_on: input.refundedOn,
          method: original.method,
          reference: null,
          refund_of: paymentId,
          note: input.reason,
          ...(await this.recorder(trx, actor)),
        })
        .execute();
      return {
        label,
        details: { paymentId, amountCents: amount, leftCents: left - amount, refundedOn: input.refundedOn, reason: input.reason },
      };
    });
  }

  async cancel(actor: MembershipActor, memberId: number, input: CancelInput): Promise<MembershipView> {
    this.inRange(input.cancelledOn, "Cancelled on");
    return this.viewOf(actor, memberId, "membership.cancel", async (trx, label) => {
      await this.requirePlan(trx, memberId);
      const last = await this.lastEvent(trx, memberId);
      if (last?.kind === "cancelled") throw DomainError.conflict(M.alreadyCancelled);
      await trx
        .insertInto("membership_events")
        .values({
          user_id: memberId,
          kind: "cancelled",
          on_date: input.cancelledOn,
          reason: input.reason,
          ...(await this.recorder(trx, actor)),
        })
        .execute();
      // The proof-of-coverage card stops verifying: a new token is made when one is next shown.
      await trx.deleteFrom("membership_verify_tokens").where("user_id", "=", memberId).execute();
      return { label, details: { cancelledOn: input.cancelledOn, reason: input.reason } };
    });
  }

  /**
   * Starts a new term. What the cancelled term's payments left (coverage.ts:
   * leftAtReinstatement) is carried into the new term or refunded, as staff chose; either way
   * it comes out of the earlier term's payments, the latest first, in entries on the
   * reinstatement's day, so the earlier term keeps the coverage it gave and the rule dates the
   * new one.
   */
  async reinstate(actor: MembershipActor, memberId: number, input: ReinstateInput): Promise<MembershipView> {
    this.inRange(input.reinstatedOn, "Reinstated on");
    return this.viewOf(actor, memberId, "membership.reinstate", async (trx, label) => {
      const last = await this.lastEvent(trx, memberId);
      if (last?.kind !== "cancelled") throw DomainError.conflict(M.notCancelled);
      if (input.reinstatedOn < last.on_date) throw DomainError.invalid(M.beforeCancellation, { reinstatedOn: M.beforeCancellation });
      const before = await this.view(memberId, trx);
      const leftCents = reinstatementPreview(before, input.reinstatedOn, before.today)?.left.leftCents ?? 0;
      const choice = leftCents > 0 ? (input.earlierPayments ?? null) : null;
      if (leftCents > 0 && !choice) {
        const message = M.earlierPayments(formatCents(leftCents));
        throw DomainError.invalid(message, { earlierPayments: message });
      }
      const event = await trx
        .insertInto("membership_events")
        .values({
          user_id: memberId,
          kind: "reinstated",
          on_date: input.reinstatedOn,
          reason: input.reason ?? null,
          ...(await this.recorder(trx, actor)),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const draws = paymentsToDrawFrom(before.payments, leftCents, before.coverage.reinstatedOn, input.reinstatedOn);
      const methodOf = new Map(before.payments.map((p) => [p.id, p.method]));
      const recorder = await this.recorder(trx, actor);
      const carried = choice === "carry" ? Number(event.id) : null;
      const note =
        choice === "refund" ? `Left from the earlier term, refunded at the reinstatement of ${formatLongDay(input.reinstatedOn)}` : null;
      for (const draw of draws)
        await trx
          .insertInto("membership_payments")
          .values({
            user_id: memberId,
            amount_cents: -draw.cents,
            paid_on: input.reinstatedOn,
            method: methodOf.get(draw.paymentId)!,
            reference: null,
            refund_of: draw.paymentId,
            note,
            carried_with: carried,
            ...recorder,
          })
          .execute();
      const moved = draws.reduce((sum, d) => sum + d.cents, 0);
      if (carried !== null && moved > 0)
        await trx
          .insertInto("membership_payments")
          .values({
            user_id: memberId,
            amount_cents: moved,
            paid_on: input.reinstatedOn,
            method: "other",
            reference: null,
            refund_of: null,
            note: null,
            carried_with: carried,
            ...recorder,
          })
          .execute();
      return {
        label,
        details: {
          reinstatedOn: input.reinstatedOn,
          ...(input.reason ? { reason: input.reason } : {}),
          ...(choice ? { earlierPayments: choice, amountCents: moved, fromPayments: draws.map((d) => d.paymentId) } : {}),
        },
      };
    });
  }

  /** Enters or changes the plan's co-insured; the audit entry names the fields that changed, never their values. */
  async setCoInsured(actor: MembershipActor, memberId: number, input: CoInsuredInput): Promise<MembershipView> {
    return this.viewOf(actor, memberId, "membership.co_insured", async (trx, label) => {
      await this.requirePlan(trx, memberId);
      const before = await readCoInsured(trx, memberId);
      await writeCoInsured(trx, memberId, input);
      return { label, details: { change: before ? "changed" : "added", fields: changedFields(before, input) } };
    });
  }

  async removeCoInsured(actor: MembershipActor, memberId: number): Promise<MembershipView> {
    return this.viewOf(actor, memberId, "membership.co_insured", async (trx, label) => {
      if (!(await removeCoInsured(trx, memberId))) throw DomainError.notFound(CO_INSURED_MESSAGES.none);
      return { label, details: { change: "removed" } };
    });
  }

  // ---- helpers ----

  /**
   * One change to one member's membership: the member's row is locked first (PostgreSQL;
   * SQLite's transactions are already one at a time), so two staff acting at once take turns
   * and each check sees the other's rows; the audit entry is written in the same transaction.
   */
  private async change(
    actor: MembershipActor,
    memberId: number,
    action: AuditAction,
    outer: Db | undefined,
    work: (trx: Db, label: string | null) => Promise<{ label: string | null; details: Record<string, unknown> }>,
  ): Promise<MembershipView | null> {
    const run = async (trx: Db) => {
      const member = await this.locked(
        trx.selectFrom("users").select(["id", "certificate_number"]).where("id", "=", memberId).where("role", "=", "user"),
      );
      if (!member) throw DomainError.notFound(M.memberNotFound);
      const { label, details } = await work(trx, member.certificate_number);
      const by = "system" in actor ? { by: actor.system } : {};
      await this.audit.record(
        { actorId: actor.id, action, target: { type: "member", id: memberId, label }, details: { ...details, ...by } },
        trx,
      );
      // Joined to the caller's transaction (the webhook's), the caller reads what it needs.
      return outer ? null : this.view(memberId, trx);
    };
    return outer ? run(outer) : this.db.transaction().execute(run);
  }

  /** A change in its own transaction, answered with the membership as it now stands. */
  private async viewOf(
    actor: MembershipActor,
    memberId: number,
    action: AuditAction,
    work: (trx: Db, label: string | null) => Promise<{ label: string | null; details: Record<string, unknown> }>,
  ): Promise<MembershipView> {
    return (await this.change(actor, memberId, action, undefined, work))!;
  }

  /** The row, locked for this transaction on PostgreSQL (SQLite's transactions already take turns). */
  private locked<TB extends keyof Database, O>(query: SelectQueryBuilder<Database, TB, O>): Promise<O | undefined> {
    return (this.dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  }

  private async requirePlan(trx: Db, memberId: number): Promise<void> {
    const plan = await trx.selectFrom("membership_plans").select("user_id").where("user_id", "=", memberId).executeTakeFirst();
    if (!plan) throw DomainError.invalid(M.noPlan);
  }

  private lastEvent(trx: Db, memberId: number) {
    return trx
      .selectFrom("membership_events")
      .select(["kind", "on_date"])
      .where("user_id", "=", memberId)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  private async recorder(trx: Db, actor: MembershipActor) {
    if ("system" in actor) return { recorded_by: null, recorded_by_label: actor.system, recorded_at: nowIso() };
    const staff = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
    return { recorded_by: actor.id, recorded_by_label: staff?.username ?? null, recorded_at: nowIso() };
  }

  /**
   * A day within its range on the association's today (contract.ts: LATEST_DAY): money is
   * recorded when it moved, today or tomorrow for a payer a time zone ahead; a plan is
   * approved at most a year ahead; none is before 1990.
   */
  private inRange(day: string, label: string): void {
    const problem = dayOutOfRange(label, day, this.today());
    if (problem) throw DomainError.invalid(problem, { [fieldOf(label)]: problem });
  }
}

const fieldOf = (label: string) =>
  (
    ({
      "Paid on": "paidOn",
      "Refunded on": "refundedOn",
      "Reinstated on": "reinstatedOn",
      "Approved on": "approvedOn",
      "Cancelled on": "cancelledOn",
    }) as Record<string, string>
  )[label] ?? label;
