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
import { parsePaymentsCsvInTurns, PAYMENTS_CSV_MESSAGES, type PaymentRow, type RowProblem } from "./payments-csv";

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
}

export interface MatchedRow {
  line: number;
  certificate: string;
  name: string;
  amountCents: number;
  paidOn: string;
  reference: string;
}

type Db = Kysely<Database>;

type CheckedRow = PaymentRow & { memberId: number; name: string };

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

  async preview(csv: string): Promise<PaymentsImportReport> {
    return (await this.check(csv)).report;
  }

  async apply(actor: { id: number }, csv: string): Promise<PaymentsImportReport> {
    const { report, rows } = await this.check(csv);
    if (report.problems > 0)
      throw DomainError.invalid(PAYMENTS_IMPORT_MESSAGES.hasProblems(report.problems), { problems: report.problemRows });
    if (rows.length === 0) return report;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const staff = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
        const recorded = { by: actor.id, label: staff?.username ?? null, at: nowIso() };
        for (const chunk of chunks(rows, this.chunkRows)) {
          await this.insert(trx, chunk, recorded);
          await nextTurn();
        }
        await this.audit.record(
          {
            actorId: actor.id,
            action: "membership.payments_import",
            rowCount: rows.length,
            details: { totalCents: report.totalCents, skipped: report.skipped, members: report.members },
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

  private async check(csv: string): Promise<{ report: PaymentsImportReport; rows: CheckedRow[] }> {
    const parsed = await parsePaymentsCsvInTurns(csv, addDays(todayIn(this.timeZone, this.now()), 1), nextTurn);
    if (!parsed.ok) throw DomainError.invalid(parsed.error);
    const problems = [...parsed.problems];
    // At once: PostgreSQL answers both on two connections.
    const [members, recorded] = await Promise.all([
      this.members([...new Set(parsed.rows.map((r) => r.certificate))]),
      this.recordedReferences(parsed.rows.map((r) => r.reference)),
    ]);
    let rows: CheckedRow[] = [];
    const skippedRows: Array<{ line: number; reference: string }> = [];
    const memberIds = new Set<number>();
    let totalCents = 0;
    for (let i = 0; i < parsed.rows.length; i++) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      const row = parsed.rows[i];
      const member = members.get(row.certificate);
      const owner = recorded.get(row.reference);
      // Recorded before for this member: a re-import, skipped. For another: not this payment.
      if (owner !== undefined && owner.id === member?.id) skippedRows.push({ line: row.line, reference: row.reference });
      else if (owner !== undefined)
        problems.push({
          line: row.line,
          message: PAYMENTS_CSV_MESSAGES.referenceOfAnother(owner.certificate),
          certificate: row.certificate,
        });
      else if (!member) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.unknownCertificate, certificate: row.certificate });
      else if (!member.hasPlan) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.noPlan, certificate: row.certificate });
      else {
        rows.push({ ...row, memberId: member.id, name: member.name });
        memberIds.add(member.id);
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
    return {
      rows,
      report: {
        totalRows: parsed.totalRows,
        toRecord: rows.length,
        totalCents,
        skipped: skippedRows.length,
        skippedRows: skippedRows.slice(0, LISTED_ROWS),
        problems: problems.length,
        problemRows: problems.slice(0, LISTED_ROWS),
        members: memberIds.size,
        matchedRows: rows.slice(0, LISTED_MATCHES).map(({ line, certificate, name, amountCents, paidOn, reference }) => ({
          line,
          certificate,
          name,
          amountCents,
          paidOn,
          reference,
        })),
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
    for (const row of rows) {
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
  private async members(certificates: string[]): Promise<Map<string, { id: number; hasPlan: boolean; name: string }>> {
    const found = new Map<string, { id: number; hasPlan: boolean; name: string }>();
    for (const chunk of chunks(certificates, this.chunkRows)) {
      // The role is checked here, not in the query: with it there, SQLite (without statistics)
      // reads the members by the role's index instead of the certificate numbers by theirs.
      const { rows } = await sql<{
        id: number;
        certificate_number: string;
        role: string;
        first_name: string | null;
        last_name: string | null;
        plan: number | null;
      }>`
        select u.id, u.certificate_number, u.role, u.first_name, u.last_name, p.user_id as plan
        from users u left join membership_plans p on p.user_id = u.id
        where u.certificate_number ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows)
        if (r.role === "user")
          found.set(r.certificate_number, {
            id: Number(r.id),
            hasPlan: r.plan !== null,
            name: [r.first_name, r.last_name].filter(Boolean).join(" "),
          });
      await nextTurn();
    }
    return found;
  }

  /** The references already recorded, each with the member whose payment it is. */
  private async recordedReferences(references: string[]): Promise<Map<string, { id: number; certificate: string }>> {
    const found = new Map<string, { id: number; certificate: string }>();
    for (const chunk of chunks(references, this.chunkRows)) {
      const { rows } = await sql<{ reference: string; user_id: number; certificate_number: string }>`
        select p.reference, p.user_id, u.certificate_number from membership_payments p join users u on u.id = p.user_id
        where p.refund_of is null and p.reference ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows) found.set(r.reference, { id: Number(r.user_id), certificate: r.certificate_number });
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
}

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
