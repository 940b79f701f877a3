import type { Kysely } from "kysely";
import { isUniqueViolation, nowIso } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Database } from "~/platform/schema";
import type { AuditRecorder } from "~/features/members/contract";
import { addDays, todayIn } from "./coverage";
import { parsePaymentsCsv, PAYMENTS_CSV_MESSAGES, type PaymentRow, type RowProblem } from "./payments-csv";
import type { MembershipActor } from "./service.server";

/** The most problems and skipped rows an answer lists (every one is counted). */
export const LISTED_ROWS = 500;
/** The most matched rows a preview lists, for staff to see the file was read as meant. */
export const LISTED_MATCHES = 100;
const CHUNK = 500;

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

/**
 * Payments from the payment portal's export (certificate_number, amount, paid_on, reference):
 * previewed first (each row matched to a member, references already recorded, problems with
 * their line), then applied all or nothing in one transaction. Each reference is recorded once,
 * by the database's unique index, whoever imports the file and however often.
 */
export class PaymentsImportService {
  constructor(
    private db: Db,
    private audit: AuditRecorder,
    private timeZone: string,
    private now: () => Date = () => new Date(),
  ) {}

  async preview(csv: string): Promise<PaymentsImportReport> {
    return (await this.check(this.db, csv)).report;
  }

  async apply(actor: MembershipActor, csv: string): Promise<PaymentsImportReport> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const { report, rows } = await this.check(trx, csv);
        if (report.problems > 0)
          throw DomainError.invalid(PAYMENTS_IMPORT_MESSAGES.hasProblems(report.problems), { problems: report.problemRows });
        const staff = await trx.selectFrom("users").select("username").where("id", "=", actor.id).executeTakeFirst();
        const recordedAt = nowIso();
        for (let i = 0; i < rows.length; i += CHUNK) {
          await trx
            .insertInto("membership_payments")
            .values(
              rows.slice(i, i + CHUNK).map((r) => ({
                user_id: r.memberId,
                amount_cents: r.amountCents,
                paid_on: r.paidOn,
                method: r.method,
                reference: r.reference,
                refund_of: null,
                note: null,
                recorded_by: actor.id,
                recorded_by_label: staff?.username ?? null,
                recorded_at: recordedAt,
              })),
            )
            .execute();
        }
        if (rows.length === 0) return report;
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
      // Another import of the same references committed first (PostgreSQL waits on the index).
      if (isUniqueViolation(err)) throw DomainError.conflict(PAYMENTS_IMPORT_MESSAGES.raced);
      throw err;
    }
  }

  private async check(
    db: Db,
    csv: string,
  ): Promise<{ report: PaymentsImportReport; rows: Array<PaymentRow & { memberId: number; name: string }> }> {
    const parsed = parsePaymentsCsv(csv, addDays(todayIn(this.timeZone, this.now()), 1));
    if (!parsed.ok) throw DomainError.invalid(parsed.error);
    const problems = [...parsed.problems];
    const members = await this.members(db, [...new Set(parsed.rows.map((r) => r.certificate))]);
    const recorded = await this.recordedReferences(
      db,
      parsed.rows.map((r) => r.reference),
    );
    const rows: Array<PaymentRow & { memberId: number; name: string }> = [];
    const skippedRows: Array<{ line: number; reference: string }> = [];
    for (const row of parsed.rows) {
      const member = members.get(row.certificate);
      if (recorded.has(row.reference)) skippedRows.push({ line: row.line, reference: row.reference });
      else if (!member) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.unknownCertificate, certificate: row.certificate });
      else if (!member.hasPlan) problems.push({ line: row.line, message: PAYMENTS_CSV_MESSAGES.noPlan, certificate: row.certificate });
      else rows.push({ ...row, memberId: member.id, name: member.name });
    }
    problems.sort((a, b) => a.line - b.line);
    return {
      rows,
      report: {
        totalRows: parsed.totalRows,
        toRecord: rows.length,
        totalCents: rows.reduce((sum, r) => sum + r.amountCents, 0),
        skipped: skippedRows.length,
        skippedRows: skippedRows.slice(0, LISTED_ROWS),
        problems: problems.length,
        problemRows: problems.slice(0, LISTED_ROWS),
        members: new Set(rows.map((r) => r.memberId)).size,
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

  private async members(db: Db, certificates: string[]): Promise<Map<string, { id: number; hasPlan: boolean; name: string }>> {
    const found = new Map<string, { id: number; hasPlan: boolean; name: string }>();
    for (let i = 0; i < certificates.length; i += CHUNK) {
      const rows = await db
        .selectFrom("users")
        .leftJoin("membership_plans", "membership_plans.user_id", "users.id")
        .select(["users.id", "users.certificate_number", "users.first_name", "users.last_name", "membership_plans.user_id as plan"])
        .where("users.role", "=", "user")
        .where("users.certificate_number", "in", certificates.slice(i, i + CHUNK))
        .execute();
      for (const r of rows)
        found.set(r.certificate_number!, {
          id: Number(r.id),
          hasPlan: r.plan !== null,
          name: [r.first_name, r.last_name].filter(Boolean).join(" "),
        });
    }
    return found;
  }

  private async recordedReferences(db: Db, references: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < references.length; i += CHUNK) {
      const rows = await db
        .selectFrom("membership_payments")
        .select("reference")
        .where("refund_of", "is", null)
        .where("reference", "in", references.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) found.add(r.reference!);
    }
    return found;
  }
}
