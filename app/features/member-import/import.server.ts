import type { Kysely } from "kysely";
import { birthdateDigest } from "~/features/auth/credentials.server";
import type { PublicUser } from "~/features/auth/user";
import type { AuditRecorder } from "~/domain/audit";
import { nowIso, type Dialect } from "~/platform/db.server";
import type { Logger } from "~/platform/logger.server";
import type { Database } from "~/platform/schema";
import { todayUtc } from "~/platform/dates";
import { nextTurn } from "~/platform/event-loop.server";
import { MAX_REPORTED_ERRORS, MESSAGES, type UploadResponse } from "./contract";
import { contentDigest, ImportClaims } from "./import-claims.server";
import { membersWriter } from "./members-writer.server";
import { readMemberCsv, type MemberRecord, type RowError } from "./parse-csv";
import type { EmailChanges } from "~/features/account/email-change.server";

export interface ImportInput {
  /** The file's text, or its bytes as they arrived (a multipart upload): never joined into one string. */
  csv: string | Uint8Array[];
  filename: string;
  actor: PublicUser;
}

/** The HTTP status and body to answer an upload with. */
export interface ImportAnswer {
  status: number;
  body: UploadResponse;
}

/**
 * The member CSV import: the file is parsed, checked and its valid rows written in one pass
 * inside one transaction (new members created, existing members' birthdate digest, names and
 * e-mail updated). Re-importing the same file changes nothing. Birthdates only ever leave
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
    /** The association's calendar day: a new plan's approved_on. */
    private today: () => string = todayUtc,
    /** Tells an address the file replaced that it is no longer the member's (issue 39). */
    private emailChanges?: Pick<EmailChanges, "tellOldAddress">,
  ) {
    this.claims = new ImportClaims(db);
  }

  async importCsv(input: ImportInput): Promise<ImportAnswer> {
    const claim = await this.claims.claim(input.actor.id, contentDigest(input.csv));
    if (claim.kind === "repeat") {
      this.logger.info({ filename: input.filename, actor: input.actor.id }, "repeated member upload answered with the first result");
      const first = claim.answer as ImportAnswer;
      // Said in the answer: the page tells staff this is the earlier upload's result.
      return { status: first.status, body: { ...first.body, repeated: true } };
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

    const refused = (message: string): ImportAnswer => ({
      status: 400,
      body: {
        success: false,
        message,
        error: message,
        stats: { total_processed: 0, successful: 0, errors: 0, processing_time_seconds: seconds() },
      },
    });

    // The file is read and written in one pass inside one transaction: each chunk's valid
    // rows are written before the next chunk is parsed, so memory holds one chunk's rows,
    // and an import is wholly there or wholly absent. About 36,600 birthdates exist: each
    // distinct one is digested once. Each piece of the file is read in a turn of the event
    // loop of its own, and each statement written in another (membersWriter), so the process
    // keeps answering while a large file is imported (issue 48).
    const digests = new Map<string, string>();
    let records = 0;
    let outcome;
    try {
      outcome = await this.db.transaction().execute(async (trx) => {
        const writer = await membersWriter(trx, this.dialect, nowIso(), this.today());
        const parsed = await readMemberCsv(input.csv, todayUtc(), async (found: MemberRecord[]) => {
          for (const r of found) {
            let digest = digests.get(r.mmddyy);
            if (digest === undefined) digests.set(r.mmddyy, (digest = birthdateDigest(this.secret, r.mmddyy)));
            r.digest = digest;
          }
          records += found.length;
          await writer.write(found);
          await nextTurn();
        });
        // A file refused as a whole: whatever rows it handed on before (those above a quoted
        // field that is not closed) are undone with the transaction.
        if (!parsed.ok) throw new FileRefused(parsed.error);
        const written = await writer.finish();
        const successful = records - written.staff.length;
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
              plans: written.plans,
            },
          },
          trx,
        );
        return { parsed, written };
      });
    } catch (err) {
      if (err instanceof FileRefused) return refused(err.message);
      this.logger.error({ err, filename: input.filename, rows: records }, "member import failed; rolled back");
      return {
        status: 500,
        body: {
          success: false,
          message: MESSAGES.writeFailed,
          error: MESSAGES.writeFailed,
          errors: [MESSAGES.writeFailed],
          // Rows seen before the failure: the file's own count is not known when it stopped early.
          stats: { total_processed: records, successful: 0, errors: records, processing_time_seconds: seconds() },
        },
      };
    }
    const { parsed, written } = outcome;
    if (written.emailChanged.length) void this.tellOldAddresses(written.emailChanged);

    const rowErrors: RowError[] = [
      ...parsed.rowErrors,
      ...written.staff.map((r) => ({
        line: r.line,
        message: `Line ${r.line}: certificate number "${r.certificate}" belongs to a staff account and cannot be imported`,
      })),
    ].sort((a, b) => a.line - b.line);
    const successful = records - written.staff.length;
    const stats = { total_processed: parsed.totalRows, successful, errors: rowErrors.length, processing_time_seconds: seconds() };
    const details = rowErrors.slice(0, MAX_REPORTED_ERRORS).map((e) => e.message);
    const split = { created: written.created, updated: written.updated, unchanged: written.unchanged };
    this.logger.info({ filename: input.filename, actor: input.actor.id, ...stats, ...split }, "member import");

    if (successful === 0) {
      return {
        status: 422,
        body: { success: false, message: MESSAGES.noValidRows, error: MESSAGES.noValidRows, details, stats, ...split },
      };
    }
    const message =
      `Imported ${plural(successful, "user")} (${written.created} new, ${written.updated} updated, ${written.unchanged} unchanged)` +
      (written.plans ? `, ${plural(written.plans, "plan")} given or changed` : "") +
      (rowErrors.length ? `; ${plural(rowErrors.length, "row")} had errors and ${rowErrors.length === 1 ? "was" : "were"} skipped.` : ".");
    return { status: 200, body: { success: true, message, ...(details.length ? { details } : {}), stats, ...split } };
  }

  /** One after another, after the answer: a file that changes many addresses does not hold it up. */
  private async tellOldAddresses(changed: Array<{ userId: number; oldEmail: string }>) {
    for (const { userId, oldEmail } of changed) await this.emailChanges?.tellOldAddress(userId, oldEmail);
  }
}

/** Thrown inside the import's transaction to undo it: the file is refused as a whole. */
class FileRefused extends Error {}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
