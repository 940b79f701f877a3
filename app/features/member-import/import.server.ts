import type { Kysely } from "kysely";
import { birthdateDigest } from "~/features/auth/credentials.server";
import type { PublicUser } from "~/features/auth/user";
import type { AuditRecorder } from "~/features/members/contract";
import { nowIso, type Dialect } from "~/platform/db.server";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { todayUtc } from "~/platform/dates";
import { MAX_REPORTED_ERRORS, MESSAGES, type UploadResponse } from "./contract";
import { contentDigest, ImportClaims } from "./import-claims.server";
import { writeMembers, type MemberWrite } from "./members-writer.server";
import { parseMemberCsv, type RowError } from "./parse-csv";

export interface ImportInput {
  csv: string;
  filename: string;
  actor: PublicUser;
}

/** The HTTP status and body to answer an upload with. */
export interface ImportAnswer {
  status: number;
  body: UploadResponse;
}

/**
 * The member CSV import: the whole file is parsed and checked first, then the valid rows are
 * written in one transaction (new members created, existing members' birthdate digest and
 * names updated). Re-importing the same file changes nothing. Birthdates only ever leave
 * this class as keyed digests.
 *
 * One upload, one import: a repeated post of the same file by the same staff member while the
 * first runs or within REPEAT_WINDOW_MS after it answered gets the first answer (ImportClaims).
 */
export class MemberImportService {
  readonly claims: ImportClaims;

  constructor(
    private db: Kysely<Database>,
    private dialect: Dialect,
    private secret: Buffer,
    private logger: Logger,
    /** Each import is recorded in the write transaction: if the record fails, nothing is kept. */
    public audit: AuditRecorder,
  ) {
    this.claims = new ImportClaims(db);
  }

  async importCsv(input: ImportInput): Promise<ImportAnswer> {
    const claim = await this.claims.claim(input.actor.id, contentDigest(input.csv));
    if (claim.kind === "repeat") {
      this.logger.info({ filename: input.filename, actor: input.actor.id }, "repeated member upload answered with the first result");
      return claim.answer as ImportAnswer;
    }
    let answer: ImportAnswer | undefined;
    const stopRenewing = this.claims.keepAlive(claim);
    try {
      answer = await this.runImport(input);
      return answer;
    } finally {
      stopRenewing();
      // A thrown import leaves no answer: the claim is released so a retry runs again.
      await (answer ? this.claims.finish(claim, answer) : this.claims.release(claim)).catch((err: unknown) =>
        this.logger.error({ err, filename: input.filename }, "member upload claim could not be stored"),
      );
    }
  }

  private async runImport(input: ImportInput): Promise<ImportAnswer> {
    const started = process.hrtime.bigint();
    const seconds = () => Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100;

    const parsed = parseMemberCsv(input.csv, todayUtc());
    if (!parsed.ok) {
      return {
        status: 400,
        body: {
          success: false,
          message: parsed.error,
          error: parsed.error,
          stats: { total_processed: 0, successful: 0, errors: 0, processing_time_seconds: seconds() },
        },
      };
    }

    // About 36,600 birthdates exist: each distinct one is digested once.
    const digests = new Map<string, string>();
    for (const r of parsed.records) {
      let digest = digests.get(r.mmddyy);
      if (digest === undefined) digests.set(r.mmddyy, (digest = birthdateDigest(this.secret, r.mmddyy)));
      r.digest = digest;
    }
    const rows: MemberWrite[] = parsed.records;

    let outcome;
    try {
      outcome = await this.db.transaction().execute(async (trx) => {
        const written = await writeMembers(trx, this.dialect, rows, nowIso());
        const successful = rows.length - written.staff.length;
        await this.audit.record(
          {
            actorId: input.actor.id,
            action: "members.import",
            rowCount: successful,
            details: {
              filename: input.filename,
              totalProcessed: parsed.totalRows,
              errors: parsed.rowErrors.length + written.staff.length,
              created: written.created,
              updated: written.updated,
              unchanged: written.unchanged,
            },
          },
          trx,
        );
        return written;
      });
    } catch (err) {
      this.logger.error({ err, filename: input.filename, rows: rows.length }, "member import failed; rolled back");
      return {
        status: 500,
        body: {
          success: false,
          message: MESSAGES.writeFailed,
          error: MESSAGES.writeFailed,
          errors: [MESSAGES.writeFailed],
          stats: { total_processed: parsed.totalRows, successful: 0, errors: parsed.totalRows, processing_time_seconds: seconds() },
        },
      };
    }

    const rowErrors: RowError[] = [
      ...parsed.rowErrors,
      ...outcome.staff.map((r) => ({
        line: r.line,
        message: `Line ${r.line}: certificate number "${r.certificate}" belongs to a staff account and cannot be imported`,
      })),
    ].sort((a, b) => a.line - b.line);
    const successful = rows.length - outcome.staff.length;
    const stats = { total_processed: parsed.totalRows, successful, errors: rowErrors.length, processing_time_seconds: seconds() };
    const details = rowErrors.slice(0, MAX_REPORTED_ERRORS).map((e) => e.message);
    const split = { created: outcome.created, updated: outcome.updated, unchanged: outcome.unchanged };
    this.logger.info({ filename: input.filename, actor: input.actor.id, ...stats, ...split }, "member import");

    if (successful === 0) {
      return {
        status: 422,
        body: { success: false, message: MESSAGES.noValidRows, error: MESSAGES.noValidRows, details, stats, ...split },
      };
    }
    const message =
      `Imported ${plural(successful, "user")} (${outcome.created} new, ${outcome.updated} updated, ${outcome.unchanged} unchanged)` +
      (rowErrors.length ? `; ${plural(rowErrors.length, "row")} had errors and ${rowErrors.length === 1 ? "was" : "were"} skipped.` : ".");
    return { status: 200, body: { success: true, message, ...(details.length ? { details } : {}), stats, ...split } };
  }
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
