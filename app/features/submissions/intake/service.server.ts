import type { Kysely } from "kysely";
import type { Dialect } from "~/platform/db.server";
import { DomainError, parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { RateLimiter, RateLimits } from "~/platform/rate-limit.server";
import type { Database } from "~/platform/schema";
import { SUBMISSION_KINDS, type SubmissionFamily, type SubmissionKind } from "./kinds";
import type { StaffNotifier } from "./notify.server";
import { SubmissionsRepository, type SubmissionRow, type SubmissionValues } from "./repository.server";
import {
  contactSchema,
  cpaRequestSchema,
  isHoneypotFilled,
  materialRequestSchema,
  requestFormSchema,
  toCpaRequest,
  toMaterialRequest,
  type RequestFormKind,
} from "./schemas";

/** Per visitor (IP) and form family: enough for any person, a wall for a script. */
export const SUBMISSION_RATE_LIMIT = { max: 10, windowMs: 10 * 60_000 };

export const SUBMISSION_REJECTED = "Your submission could not be accepted.";

export function tooManySubmissions(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `You have sent several forms in a short time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again, or call us.`;
}

/**
 * Accepts the public forms: bot trap, validation (400 with field errors), a per-IP rate
 * limit (429), then the row is stored and staff are notified. The JSON API and the page
 * actions (forms posted without JavaScript) both come through here.
 */
export class SubmissionService {
  readonly repository: SubmissionsRepository;
  private limiters: Record<SubmissionFamily, RateLimiter>;

  constructor(
    db: Kysely<Database>,
    dialect: Dialect,
    readonly notifier: StaffNotifier,
    private logger: Logger,
    limits: RateLimits,
    limit = SUBMISSION_RATE_LIMIT,
  ) {
    this.repository = new SubmissionsRepository(db, dialect);
    this.limiters = {
      contact: limits.limiter({ name: "submit_contact", points: limit.max, windowMs: limit.windowMs }),
      request: limits.limiter({ name: "submit_request", points: limit.max, windowMs: limit.windowMs }),
    };
  }

  /** name, email, phone, subject, message. */
  submitContact(raw: unknown, ip: string, memberId: number | null = null) {
    return this.accept("contact", raw, ip, (input) => parseInput(contactSchema, input), memberId);
  }

  /** first_name, last_name, email, phone, firm_name, city, state, zip, notes (and member_id). */
  submitCpaRequest(raw: unknown, ip: string, memberId: number | null = null) {
    return this.accept("cpa", raw, ip, (input) => parseInput(cpaRequestSchema, input), memberId);
  }

  /** first_name ... materials_requested, notes (and member_id). */
  submitMaterialRequest(raw: unknown, ip: string, memberId: number | null = null) {
    return this.accept("homeowner", raw, ip, (input) => parseInput(materialRequestSchema, input), memberId);
  }

  /** The request form's own fields (fullName, email, phone, memberId, notes, materials_requested). */
  submitRequestForm(form: RequestFormKind, raw: unknown, ip: string, memberId: number | null = null) {
    if (form === "cpa") return this.accept("cpa", raw, ip, (input) => toCpaRequest(parseInput(requestFormSchema, input)), memberId);
    return this.accept("homeowner", raw, ip, (input) => toMaterialRequest(parseInput(requestFormSchema, input)), memberId);
  }

  private async accept<K extends SubmissionKind>(
    kind: K,
    raw: unknown,
    ip: string,
    validate: (raw: unknown) => SubmissionValues<K>,
    /** The signed-in member sending it (shown on their account page), else null. */
    memberId: number | null,
  ): Promise<SubmissionRow<K>> {
    if (isHoneypotFilled(raw)) {
      this.logger.info({ kind, ip }, "submission refused: bot trap filled");
      throw DomainError.invalid(SUBMISSION_REJECTED);
    }
    const values = validate(raw ?? {});
    // One atomic consume per submission: concurrent posts cannot all pass a count taken before any was stored.
    const limiter = this.limiters[SUBMISSION_KINDS[kind].family];
    const consumed = await limiter.consume(ip);
    if (!consumed.allowed) {
      this.logger.warn({ kind, ip }, "submission refused: rate limit");
      const { retryAfterSeconds } = consumed;
      throw DomainError.rateLimited(tooManySubmissions(retryAfterSeconds), retryAfterSeconds);
    }
    let row: SubmissionRow<K>;
    try {
      row = await this.repository.insert(kind, values, undefined, memberId);
    } catch (err) {
      // Nothing was stored: the visitor keeps the allowance.
      await limiter.reward(ip);
      throw err;
    }
    this.logger.info({ kind, id: row.id }, "submission stored");
    this.notifier.submissionReceived(kind, row);
    return row;
  }
}
