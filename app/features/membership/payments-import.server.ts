import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { isUniqueViolation, nowIso, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/domain/audit";
import {
  addDays,
  addMonthsKeepingMonthEnd,
  coverageOn,
  firstOfNextMonth,
  formatLongDay,
  latestPaidThrough,
  PLAN_PRICE_CENTS,
  todayIn,
  type Billing,
  type Coverage,
} from "./coverage";
import { CoverageCensus } from "./census.server";
import { MEMBERSHIP_MESSAGES } from "./contract";
import { membershipRecord, prepaidPastLimit } from "./ledger";
import {
  headerOf,
  parsePaymentsCsvInTurns,
  PAYMENT_COLUMNS,
  PAYMENTS_CSV_MESSAGES,
  STRIPE_EXPORT_MESSAGES,
  type ColumnMapping,
  type NotPaidRow,
  type PaymentRow,
  type PaymentsFileKind,
  type RowProblem,
} from "./payments-csv";
import { normalizeHeader } from "~/platform/csv";

/** The most problems and skipped rows an answer lists (every one is counted). */
export const LISTED_ROWS = 500;
/** The most matched rows a preview lists, for staff to see the file was read as meant. */
export const LISTED_MATCHES = 100;
/**
 * Rows per statement, looked up or written. Each statement carries its rows as one JSON text
 * (SQLite json_each) or a few arrays (PostgreSQL unnest), so its size is not bounded by either
 * database's limit on bound parameters. SQLite runs each statement inside this process, which
 * answers no other request meanwhile: its statements stay short. PostgreSQL works in its own
 * process while this one serves others, and reads the whole table once per look-up statement
 * when it finds that cheaper than the index: fewer, larger statements.
 */
export const IMPORT_CHUNK: Record<Dialect, number> = { sqlite: 5000, postgres: 25_000 };

export const PAYMENTS_IMPORT_MESSAGES = {
  hasProblems: (n: number) =>
    `${n} ${n === 1 ? "row has a problem" : "rows have problems"}: nothing was recorded. Correct the file and try again.`,
  /** A preview records nothing anyway: it says what stops the file from being applied. */
  previewProblems: (n: number) =>
    `${n} ${n === 1 ? "row has a problem" : "rows have problems"}: nothing can be recorded from this file until ${n === 1 ? "it is" : "they are"} corrected.`,
  raced: "These payments were being recorded by someone else at the same moment. Preview the file again.",
  nothingNew: "Every payment in the file is already recorded: nothing new to record.",
  /** A refund the import records: the portal's export says the payment was paid back. */
  refundNote: "Refunded in the payment portal (payments import)",
} as const;

export interface PaymentsImportReport {
  totalRows: number;
  /** Rows that will be (preview) or were (apply) recorded. */
  toRecord: number;
  totalCents: number;
  /** References already recorded: skipped, so a file imported twice records nothing new. */
  skipped: number;
  skippedRows: Array<{ line: number; reference: string }>;
  problems: number;
  problemRows: RowProblem[];
  members: number;
  /** The first rows to be recorded, with the member each matched. */
  matchedRows: MatchedRow[];
  /** How the file was read: the site's columns, Stripe's export, or columns staff mapped (saved: the mapping kept for this header). */
  format: { kind: PaymentsFileKind; mapping: ColumnMapping | null; saved: boolean; columns?: string[] };
  /** Rows that took no money (Stripe: failed, uncaptured...): skipped, each with why. */
  notPaid: number;
  notPaidRows: NotPaidRow[];
  /** Refunds to record (or recorded): what the export says was paid back of a payment, new or recorded before. */
  refunds: number;
  refundCents: number;
  refundRows: Array<{ line: number; reference: string; refundCents: number }>;
  /**
   * Stripe rows that name no member and cannot be recorded (another currency, no metadata:
   * payments that are not dues): problems, of which staff may leave these out (`leaveOutNotDues`).
   */
  mayLeaveOut: number;
  /** Those rows, left out at staff's choice: skipped, each with why it could not be recorded. */
  leftOut: number;
  leftOutRows: Array<{ line: number; reference: string; reason: string }>;
}

/** What staff chose for a file besides its columns. */
export interface ImportChoices {
  mapping?: ColumnMapping | null;
  /** Leave out the Stripe rows that name no member and cannot be recorded, instead of refusing the file for them. */
  leaveOutNotDues?: boolean;
}

export interface MatchedRow {
  line: number;
  certificate: string;
  name: string;
  amountCents: number;
  paidOn: string;
  reference: string;
  /** What was paid back of it, recorded as a refund against it (left out when nothing). */
  refundCents?: number;
}

type Db = Kysely<Database>;

type CheckedRow = PaymentRow & { memberId: number; name: string };
/** A refund the export names for a payment recorded before (an online payment whose refund the site has not heard of). */
interface LateRefund {
  line: number;
  reference: string;
  paymentId: number;
  memberId: number;
  cents: number;
  on: string;
  method: string;
}
interface Recorded {
  paymentId: number;
  id: number;
  certificate: string;
  paidOn: string;
  method: string;
  amountCents: number;
  /** Paid back of it by refunds so far (positive). */
  refundedCents: number;
  /** Taken out of it by refunds and money carried into a later term (positive). */
  takenCents: number;
}
interface Member {
  id: number;
  hasPlan: boolean;
  name: string;
  certificate: string;
}

/** A header row's key: its column names normalized, as a digest (the same columns in the same order read alike). */
export const headerKey = (header: string[]) =>
  createHash("sha256")
    .update(JSON.stringify(header.map(normalizeHeader)))
    .digest("hex");

const isForeignKeyViolation = (err: unknown) => {
  const code = (err as { code?: string } | null)?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
};

/** Rows matched to their members between two turns of the event loop. */
const ROWS_PER_TURN = 10_000;
/** Lets the server answer other requests between two steps of a long import (the file is read, matched and written in steps). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Payments from the payment portal's export (certificate_number, amount, paid_on, reference):
 * previewed first (each row matched to a member, references already recorded, problems with
 * their line), then applied all or nothing in one transaction. Each reference is recorded once,
 * by the database's unique index, whoever imports the file and however often.
 *
 * Apply checks the file as preview does, before its transaction, so the transaction holds
 * SQLite's one connection (every other request's queries wait for it) only while it writes.
 * What the check found cannot go stale unseen: a reference recorded in between is refused by
 * the unique index, a member deleted in between by the foreign key (plans are never removed,
 * and a member never becomes staff), and either undoes the whole import.
 */
export class PaymentsImportService {
  constructor(
    private db: Db,
    private dialect: Dialect,
    private audit: AuditRecorder,
    private timeZone: string,
    private now: () => Date = () => new Date(),
    private chunkRows = IMPORT_CHUNK[dialect],
    /** Every member's coverage today (the services' one, kept between reads). */
    private census = new CoverageCensus(db, () => todayIn(timeZone, now())),
  ) {}

  /**
   * Reads the file as apply would, recording nothing of its payments. A mapping staff chose
   * (for a file neither the site's nor Stripe's) is kept for the next file with this header.
   */
  async preview(csv: string, options: ImportChoices & { actor?: { id: number } } = {}): Promise<PaymentsImportReport> {
    return (await this.check(csv, options, options.actor ?? null)).report;
  }

  /** Records the file's payments and refunds, all or nothing; rows staff chose to leave out are not among them. */
  async apply(actor: { id: number }, csv: string, choices: ImportChoices = {}): Promise<PaymentsImportReport> {
    const { report, rows, lateRefunds } = await this.check(csv, choices, actor);
    if (report.problems > 0)
      throw DomainError.invalid(PAYMENTS_IMPORT_MESSAGES.hasProblems(report.problems), { problems: report.problemRows });
    if (rows.length === 0 && lateRefunds.length === 0) return report;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const staff = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
        const recorded = { by: actor.id, label: staff?.username ?? null, at: nowIso() };
        for (const chunk of chunks(rows, this.chunkRows)) {
          await this.insert(trx, chunk, recorded);
          await this.insertRefunds(trx, chunk, recorded);
          await nextTurn();
        }
        if (lateRefunds.length) await this.insertLateRefunds(trx, lateRefunds, recorded);
        await this.audit.record(
          {
            actorId: actor.id,
            action: "membership.payments_import",
            rowCount: rows.length,
            details: {
              totalCents: report.totalCents,
              skipped: report.skipped,
              members: report.members,
              format: report.format.kind,
              refunds: report.refunds,
              refundCents: report.refundCents,
              notPaid: report.notPaid,
              leftOut: report.leftOut,
            },
          },
          trx,
        );
        return report;
      });
    } catch (err) {
      // Another import of the same references committed first (PostgreSQL waits on the index),
      // or a member was deleted since the check.
      if (isUniqueViolation(err) || isForeignKeyViolation(err)) throw DomainError.conflict(PAYMENTS_IMPORT_MESSAGES.raced);
      throw err;
    }
  }

  /** The mapping kept for a header, if any. */
  private async savedMapping(key: string): Promise<ColumnMapping | null> {
    const row = await this.db.selectFrom("payments_import_mappings").select("mapping").where("header_key", "=", key).executeTakeFirst();
    if (!row) return null;
    try {
      const mapping = JSON.parse(row.mapping) as Partial<ColumnMapping>;
      return PAYMENT_COLUMNS.every((f) => typeof mapping[f] === "string") ? (mapping as ColumnMapping) : null;
    } catch {
      return null;
    }
  }

  /** Keeps staff's mapping for this header (audited when it is new or changed). */
  private async saveMapping(actor: { id: number } | null, key: string, header: string[], mapping: ColumnMapping): Promise<void> {
    const value = JSON.stringify(Object.fromEntries(PAYMENT_COLUMNS.map((f) => [f, mapping[f]])));
    const before = await this.db.selectFrom("payments_import_mappings").select("mapping").where("header_key", "=", key).executeTakeFirst();
    if (before?.mapping === value) return;
    await this.db.transaction().execute(async (trx) => {
      const staff = actor ? await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst() : undefined;
      const row = {
        columns: JSON.stringify(header),
        mapping: value,
        saved_by: actor?.id ?? null,
        saved_by_label: staff?.username ?? null,
        saved_at: nowIso(),
      };
      await trx
        .insertInto("payments_import_mappings")
        .values({ header_key: key, ...row })
        .onConflict((oc) => oc.column("header_key").doUpdateSet(row))
        .execute();
      await this.audit.record(
        {
          actorId: actor?.id ?? null,
          action: "membership.payments_mapping",
          details: { columns: header.length, mapping: JSON.parse(value) },
        },
        trx,
      );
    });
  }

  private async check(
    csv: string,
    choices: ImportChoices,
    actor: { id: number } | null,
  ): Promise<{ report: PaymentsImportReport; rows: CheckedRow[]; lateRefunds: LateRefund[] }> {
    const chosen = choices.mapping ?? null;
    const header = headerOf(csv);
    const key = headerKey(header);
    const saved = chosen ? null : await this.savedMapping(key);
    const parsed = await parsePaymentsCsvInTurns(csv, addDays(todayIn(this.timeZone, this.now()), 1), nextTurn, {
      timeZone: this.timeZone,
      mapping: chosen ?? saved,
    });
    if (!parsed.ok) throw DomainError.invalid(parsed.error, parsed.columns ? { columns: parsed.columns } : undefined);
    const mapping = parsed.kind === "mapped" ? (chosen ?? saved) : null;
    if (parsed.kind === "mapped" && chosen) await this.saveMapping(actor, key, header, chosen);
    const problems = [...parsed.problems];
    const certificates = new Set<string>();
    const memberReferences = new Set<string>();
    const references: string[] = [];
    for (const r of parsed.rows) {
      if (r.certificate) certificates.add(r.certificate);
      if (r.memberReference) memberReferences.add(r.memberReference);
      references.push(r.reference, ...(r.otherReferences ?? []));
    }
    // At once: PostgreSQL answers them on their own connections.
    const [members, byReference, recorded] = await Promise.all([
      this.members([...certificates]),
      this.membersByReference([...memberReferences]),
      this.recordedReferences(references, parsed.kind === "stripe"),
    ]);
    let rows: CheckedRow[] = [];
    const skippedRows: Array<{ line: number; reference: string }> = [];
    const lateRefunds: LateRefund[] = [];
    const memberIds = new Set<number>();
    let totalCents = 0;
    for (let i = 0; i < parsed.rows.length; i++) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      const row = parsed.rows[i];
      const ofReference = row.memberReference ? byReference.get(row.memberReference) : undefined;
      const ofCertificate = row.certificate ? members.get(row.certificate) : undefined;
      const member = ofReference ?? ofCertificate;
      const named = !!row.memberReference || !!row.certificate;
      let owner: Recorded | undefined;
      for (const ref of [row.reference, ...(row.otherReferences ?? [])]) if ((owner = recorded.get(ref))) break;
      const problem = (message: string, certificate = row.certificate) =>
        problems.push({ line: row.line, message, ...(certificate ? { certificate } : {}) });
      // A Stripe row naming no member: staff may leave it out (not dues).
      // Recorded before for this member (or, a Stripe row naming nobody, for whoever paid it online): a re-import, skipped.
      if (owner !== undefined && (!named || owner.id === member?.id)) {
        skippedRows.push({ line: row.line, reference: row.reference });
        const late = Math.min((row.refundCents ?? 0) - owner.refundedCents, owner.amountCents - owner.takenCents);
        if (late > 0)
          lateRefunds.push({
            line: row.line,
            reference: row.reference,
            paymentId: owner.paymentId,
            memberId: owner.id,
            cents: late,
            on: (row.refundedOn ?? row.paidOn) > owner.paidOn ? (row.refundedOn ?? row.paidOn) : owner.paidOn,
            method: owner.method,
          });
      } else if (owner !== undefined) problem(PAYMENTS_CSV_MESSAGES.referenceOfAnother(owner.certificate));
      else if (!named) problems.push({ line: row.line, message: STRIPE_EXPORT_MESSAGES.noMember, notDues: { reference: row.reference } });
      else if (row.memberReference && !ofReference) problem(STRIPE_EXPORT_MESSAGES.unknownReference);
      else if (row.certificate && !ofCertificate) problem(PAYMENTS_CSV_MESSAGES.unknownCertificate);
      else if (ofReference && ofCertificate && ofReference.id !== ofCertificate.id)
        problem(STRIPE_EXPORT_MESSAGES.twoMembers(row.certificate));
      else if (!member!.hasPlan) problem(PAYMENTS_CSV_MESSAGES.noPlan, member!.certificate);
      else {
        rows.push({ ...row, certificate: member!.certificate, memberId: member!.id, name: member!.name });
        memberIds.add(member!.id);
        totalCents += row.amountCents;
      }
    }
    const tooFar = await this.prepaidTooFar(rows);
    if (tooFar.length) {
      // Those rows are problems, not payments to record.
      const lines = new Set(tooFar.map((p) => p.line));
      rows = rows.filter((r) => !lines.has(r.line));
      memberIds.clear();
      totalCents = 0;
      for (const r of rows) {
        memberIds.add(r.memberId);
        totalCents += r.amountCents;
      }
      problems.push(...tooFar);
    }
    problems.sort((a, b) => a.line - b.line);
    // Rows that are not dues: problems, unless staff leave them out (then listed as left out).
    const notDues = problems.filter((p) => p.notDues);
    const leaveOut = !!choices.leaveOutNotDues && notDues.length > 0;
    const kept = leaveOut ? problems.filter((p) => !p.notDues) : problems;
    const leftOutRows = leaveOut ? notDues.map((p) => ({ line: p.line, reference: p.notDues!.reference, reason: p.message })) : [];
    const refundRows = [
      ...rows.filter((r) => r.refundCents).map((r) => ({ line: r.line, reference: r.reference, refundCents: r.refundCents! })),
      ...lateRefunds.map((r) => ({ line: r.line, reference: r.reference, refundCents: r.cents })),
    ].sort((a, b) => a.line - b.line);
    return {
      rows,
      lateRefunds,
      report: {
        totalRows: parsed.totalRows,
        toRecord: rows.length,
        totalCents,
        skipped: skippedRows.length,
        skippedRows: skippedRows.slice(0, LISTED_ROWS),
        problems: kept.length,
        problemRows: kept
          .slice(0, LISTED_ROWS)
          .map(({ line, message, certificate }) => ({ line, message, ...(certificate ? { certificate } : {}) })),
        members: memberIds.size,
        matchedRows: rows.slice(0, LISTED_MATCHES).map(({ line, certificate, name, amountCents, paidOn, reference, refundCents }) => ({
          line,
          certificate,
          name,
          amountCents,
          paidOn,
          reference,
          ...(refundCents ? { refundCents } : {}),
        })),
        format: { kind: parsed.kind, mapping, saved: !!mapping, ...(mapping ? { columns: [...new Set(header.filter(Boolean))] } : {}) },
        notPaid: parsed.notPaid.length,
        notPaidRows: parsed.notPaid.slice(0, LISTED_ROWS),
        refunds: refundRows.length,
        refundCents: refundRows.reduce((sum, r) => sum + r.refundCents, 0),
        refundRows: refundRows.slice(0, LISTED_ROWS),
        mayLeaveOut: leaveOut ? 0 : notDues.length,
        leftOut: leftOutRows.length,
        leftOutRows: leftOutRows.slice(0, LISTED_ROWS),
      },
    };
  }

  /**
   * The rows that would pay a member's coverage past the limit (coverage.ts:
   * MAX_PREPAID_YEARS), each member's payments in the file counted in the file's order. A
   * bound from today's coverage (the census) and the file's sum finds the members who might;
   * only their ledgers are read, and the exact rule says at which of their rows the limit is
   * passed.
   */
  private async prepaidTooFar(rows: CheckedRow[]): Promise<RowProblem[]> {
    if (rows.length === 0) return [];
    const today = todayIn(this.timeZone, this.now());
    const latest = latestPaidThrough(today);
    const byMember = new Map<number, CheckedRow[]>();
    for (const paid of rows) {
      // What stays of it: a refund the file records with it counts against it.
      const row = paid.refundCents ? { ...paid, amountCents: paid.amountCents - paid.refundCents } : paid;
      const list = byMember.get(row.memberId);
      if (list) list.push(row);
      else byMember.set(row.memberId, [row]);
    }
    const { census } = await this.census.all();
    const problems: RowProblem[] = [];
    for (const [memberId, own] of byMember) {
      const sum = own.reduce((total, r) => total + r.amountCents, 0);
      if (!mightPass(census.get(memberId), sum, today, latest)) continue;
      const view = await this.ledgerOf(memberId);
      const passes = (n: number) => n > 0 && prepaidPastLimit(view, own.slice(0, n), today) !== null;
      if (!passes(own.length)) continue;
      // The first row whose payment passes it (the rows before it do not, with it they do).
      let [lo, hi] = [0, own.length];
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (passes(mid)) hi = mid;
        else lo = mid;
      }
      const past = prepaidPastLimit(view, own.slice(0, hi), today)!;
      problems.push({
        line: own[hi - 1].line,
        message: MEMBERSHIP_MESSAGES.prepaidTooFar(formatLongDay(past.latest), past.through && formatLongDay(past.through)),
      });
    }
    return problems;
  }

  /** A member's plan, ledger and events, as the rule reads them. */
  private async ledgerOf(memberId: number) {
    const [plan, payments, events] = await Promise.all([
      this.db.selectFrom("membership_plans").selectAll().where("user_id", "=", memberId).executeTakeFirst(),
      this.db
        .selectFrom("membership_payments")
        .select(["id", "amount_cents", "paid_on", "refund_of"])
        .where("user_id", "=", memberId)
        .orderBy("paid_on")
        .orderBy("id")
        .execute(),
      this.db.selectFrom("membership_events").select(["kind", "on_date", "reason"]).where("user_id", "=", memberId).orderBy("id").execute(),
    ]);
    const planView = plan
      ? { billing: plan.billing as Billing, approvedOn: plan.approved_on, carriedPaidThrough: plan.carried_paid_through }
      : null;
    const ledger = payments.map((p) => ({
      id: Number(p.id),
      amountCents: Number(p.amount_cents),
      paidOn: p.paid_on,
      refundOf: p.refund_of === null ? null : Number(p.refund_of),
    }));
    const termEvents = events.map((e) => ({ kind: e.kind as "cancelled" | "reinstated", on: e.on_date, reason: e.reason }));
    const coverage = coverageOn(membershipRecord(planView, ledger, termEvents), todayIn(this.timeZone, this.now()));
    return { plan: planView, payments: ledger, events: termEvents, coverage };
  }

  /** The certificate numbers' members (staff accounts are no members). */
  private async members(certificates: string[]): Promise<Map<string, Member>> {
    const found = new Map<string, Member>();
    for (const chunk of chunks(certificates, this.chunkRows)) {
      // The role is checked here, not in the query: with it there, SQLite (without statistics)
      // reads the members by the role's index instead of the certificate numbers by theirs.
      const { rows } = await sql<MemberRow>`
        select u.id, u.certificate_number, u.role, u.first_name, u.last_name, p.user_id as plan, u.certificate_number as k
        from users u left join membership_plans p on p.user_id = u.id
        where u.certificate_number ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows) if (r.role === "user") found.set(r.k, memberOf(r));
      await nextTurn();
    }
    return found;
  }

  /** The members of payment references (membership_online: the opaque value the online payment carries). */
  private async membersByReference(references: string[]): Promise<Map<string, Member>> {
    const found = new Map<string, Member>();
    for (const chunk of chunks(references, this.chunkRows)) {
      const { rows } = await sql<MemberRow>`
        select u.id, u.certificate_number, u.role, u.first_name, u.last_name, p.user_id as plan, o.payment_reference as k
        from membership_online o join users u on u.id = o.user_id left join membership_plans p on p.user_id = u.id
        where o.payment_reference ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows) if (r.role === "user") found.set(r.k, memberOf(r));
      await nextTurn();
    }
    return found;
  }

  /**
   * The references already recorded, each with its payment, the member whose payment it is, and
   * what came out of it. With `providerIds` (Stripe's export), a charge, payment intent or invoice
   * id that no payment carries as its reference is looked up in the webhook's events too: the
   * event that recorded (or found recorded) a payment keeps the ids it named.
   */
  private async recordedReferences(references: string[], providerIds: boolean): Promise<Map<string, Recorded>> {
    const found = new Map<string, Recorded>();
    const columns = sql`p.id, p.user_id, u.certificate_number, p.paid_on, p.method, p.amount_cents,
      (select -sum(r.amount_cents) from membership_payments r where r.refund_of = p.id and r.carried_with is null) as refunded,
      (select -sum(r.amount_cents) from membership_payments r where r.refund_of = p.id) as taken`;
    for (const chunk of chunks([...new Set(references)], this.chunkRows)) {
      const { rows } = await sql<RecordedRow & { reference: string }>`
        select p.reference, ${columns}
        from membership_payments p join users u on u.id = p.user_id
        where p.refund_of is null and p.reference ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows) found.set(r.reference, recordedOf(r));
      await nextTurn();
      const rest = providerIds ? chunk.filter((ref) => !found.has(ref)) : [];
      if (!rest.length) continue;
      const byEvent = await sql<RecordedRow & { payment_intent: string | null; charge_id: string | null; invoice_id: string | null }>`
        select e.payment_intent, e.charge_id, e.invoice_id, ${columns}
        from stripe_events e join membership_payments p on p.id = e.payment_id join users u on u.id = p.user_id
        where p.refund_of is null
          and (e.payment_intent ${this.inList(rest)} or e.charge_id ${this.inList(rest)} or e.invoice_id ${this.inList(rest)})`.execute(
        this.db,
      );
      const wanted = new Set(rest);
      for (const r of byEvent.rows)
        for (const id of [r.payment_intent, r.charge_id, r.invoice_id])
          if (id && wanted.has(id) && !found.has(id)) found.set(id, recordedOf(r));
      await nextTurn();
    }
    return found;
  }

  /** `in (the texts)` as one parameter. */
  private inList(texts: string[]) {
    return this.dialect === "postgres" ? sql`= any(${texts}::text[])` : sql`in (select value from json_each(${JSON.stringify(texts)}))`;
  }

  /** Writes the rows in the file's order. */
  private async insert(trx: Db, rows: CheckedRow[], recorded: { by: number; label: string | null; at: string }): Promise<void> {
    const into = sql`insert into membership_payments
      (user_id, amount_cents, paid_on, method, reference, refund_of, note, recorded_by, recorded_by_label, recorded_at)`;
    const constants = sql`null, null, ${recorded.by}, ${recorded.label}, ${recorded.at}`;
    if (this.dialect === "postgres")
      await sql`${into}
        select t.*, ${constants}
        from unnest(${rows.map((r) => r.memberId)}::int[], ${rows.map((r) => r.amountCents)}::int[], ${rows.map((r) => r.paidOn)}::text[],
                    ${rows.map((r) => r.method)}::text[], ${rows.map((r) => r.reference)}::text[]) as t`.execute(trx);
    else
      await sql`${into}
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ${constants}
        from json_each(${JSON.stringify(rows.map((r) => [r.memberId, r.amountCents, r.paidOn, r.method, r.reference]))})`.execute(trx);
  }

  /** The refunds of the chunk's payments (Stripe's Amount Refunded), each a negative entry naming its payment, just written. */
  private async insertRefunds(trx: Db, rows: CheckedRow[], recorded: { by: number; label: string | null; at: string }): Promise<void> {
    const refunded = rows.filter((r) => r.refundCents);
    if (!refunded.length) return;
    const ids = new Map<string, number>();
    for (const chunk of chunks(refunded, 1000)) {
      const found = await trx
        .selectFrom("membership_payments")
        .select(["id", "reference"])
        .where("refund_of", "is", null)
        .where(
          "reference",
          "in",
          chunk.map((r) => r.reference),
        )
        .execute();
      for (const f of found) ids.set(f.reference!, Number(f.id));
    }
    await this.insertLateRefunds(
      trx,
      refunded.map((r) => ({
        line: r.line,
        reference: r.reference,
        paymentId: ids.get(r.reference)!,
        memberId: r.memberId,
        cents: r.refundCents!,
        on: r.refundedOn ?? r.paidOn,
        method: r.method,
      })),
      recorded,
    );
  }

  /** Refunds against payments in the ledger: negative entries naming their payment, as CoverageService records a refund. */
  private async insertLateRefunds(
    trx: Db,
    refunds: LateRefund[],
    recorded: { by: number; label: string | null; at: string },
  ): Promise<void> {
    for (const chunk of chunks(refunds, 500))
      await trx
        .insertInto("membership_payments")
        .values(
          chunk.map((r) => ({
            user_id: r.memberId,
            amount_cents: -r.cents,
            paid_on: r.on,
            method: r.method,
            reference: null,
            refund_of: r.paymentId,
            note: PAYMENTS_IMPORT_MESSAGES.refundNote,
            recorded_by: recorded.by,
            recorded_by_label: recorded.label,
            recorded_at: recorded.at,
          })),
        )
        .execute();
  }
}

type MemberRow = {
  id: number;
  certificate_number: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  plan: number | null;
  k: string;
};
const memberOf = (r: MemberRow): Member => ({
  id: Number(r.id),
  hasPlan: r.plan !== null,
  name: [r.first_name, r.last_name].filter(Boolean).join(" "),
  certificate: r.certificate_number,
});

type RecordedRow = {
  id: number;
  user_id: number;
  certificate_number: string;
  paid_on: string;
  method: string;
  amount_cents: number;
  refunded: number | null;
  taken: number | null;
};
const recordedOf = (r: RecordedRow): Recorded => ({
  paymentId: Number(r.id),
  id: Number(r.user_id),
  certificate: r.certificate_number,
  paidOn: r.paid_on,
  method: r.method,
  amountCents: Number(r.amount_cents),
  refundedCents: Number(r.refunded ?? 0),
  takenCents: Number(r.taken ?? 0),
});

const PERIOD_MONTHS = { monthly: 1, annual: 12 } as const;

/**
 * Whether a member's coverage today and `sum` more could reach past `latest`: never less than
 * the rule gives (so a member it passes over cannot pass the limit), often more (payments
 * dated into an earlier term, or before the first payment, count here as if they extended
 * this one).
 */
function mightPass(coverage: Coverage | undefined, sum: number, today: string, latest: string): boolean {
  if (!coverage?.billing || coverage.state.kind === "cancelled" || coverage.earlierTerms.length) return true;
  const price = PLAN_PRICE_CENTS[coverage.billing];
  const months = PERIOD_MONTHS[coverage.billing];
  try {
    if (coverage.paidThrough) {
      return addMonthsKeepingMonthEnd(coverage.paidThrough, Math.floor((coverage.creditCents + sum) / price) * months) > latest;
    }
    // Not begun: it begins the 1st after the term's start and the first payment (none later than tomorrow).
    const startsOn = coverage.nextDue?.on ?? today;
    const tomorrow = addDays(today, 1);
    const begins = firstOfNextMonth(startsOn > tomorrow ? startsOn : tomorrow);
    return addMonthsKeepingMonthEnd(addDays(begins, -1), Math.floor((coverage.paidCents + sum) / price) * months) > latest;
  } catch (err) {
    if (err instanceof RangeError) return true;
    throw err;
  }
}
