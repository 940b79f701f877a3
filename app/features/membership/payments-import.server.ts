import { sql, type Kysely } from "kysely";
import { isUniqueViolation, nowIso, type Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/features/members/contract";
import { addDays, todayIn } from "./coverage";
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
    const rows: CheckedRow[] = [];
    const skippedRows: Array<{ line: number; reference: string }> = [];
    const memberIds = new Set<number>();
    let totalCents = 0;
    for (let i = 0; i < parsed.rows.length; i++) {
      if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await nextTurn();
      const row = parsed.rows[i];
      const member = members.get(row.certificate);
      if (recorded.has(row.reference)) skippedRows.push({ line: row.line, reference: row.reference });
      else if (!member) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.unknownCertificate, certificate: row.certificate });
      else if (!member.hasPlan) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.noPlan, certificate: row.certificate });
      else {
        rows.push({ ...row, memberId: member.id, name: member.name });
        memberIds.add(member.id);
        totalCents += row.amountCents;
      }
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

  private async recordedReferences(references: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunks(references, this.chunkRows)) {
      const { rows } = await sql<{ reference: string }>`
        select reference from membership_payments
        where refund_of is null and reference ${this.inList(chunk)}`.execute(this.db);
      for (const r of rows) found.add(r.reference);
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
