import type { Kysely } from "kysely";
import type { Config } from "~/platform/config.server";
import type { Dialect } from "~/platform/db.server";
import { DomainError } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import type { RateLimiter, RateLimits } from "~/platform/rate-limit.server";
import type { Database } from "~/platform/schema";
import type { SafeFetchLimits } from "~/platform/safe-fetch.server";
import { caseNumberFrom, pickApplicant } from "./case-shapes";
import { ExternalCaseSource } from "./case-source.server";
import { applicationProblems, applicationSchema, CASE_NOT_FOUND, type ApplicationField, type CaseApplicant } from "./contract";
import { ApplicationsRepository, type ApplicationRow, type CaseRow } from "./repository.server";

/** Per signed-in user. Staff may enter several applications for callers in a row. */
export const APPLICATION_RATE_LIMIT = { max: 30, windowMs: 60 * 60_000 };
/** Per signed-in user: plenty for typing case numbers, a wall for walking through them. */
export const CASE_LOOKUP_RATE_LIMIT = { max: 30, windowMs: 10 * 60_000 };

export const CASE_NUMBER_INVALID = "Case number must be 5 to 20 digits.";
export const CASE_LOOKUP_UNAVAILABLE = "Case lookup is unavailable right now. Please try again.";

export interface ApplicationsServiceOptions {
  applicationLimit?: { max: number; windowMs: number };
  lookupLimit?: { max: number; windowMs: number };
  /** Tests: narrow or widen where the outside case source may be reached. */
  caseSource?: Partial<SafeFetchLimits>;
}

/** An invalid application whose answer also maps each message to its field (ApplicationRejected). */
export class ApplicationInvalid extends DomainError {
  constructor(
    public messages: string[],
    public fields: Partial<Record<ApplicationField, string>>,
  ) {
    super("invalid", messages.join(" "), { details: messages });
  }
}

function tooMany(what: string, retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return DomainError.rateLimited(
    `Too many ${what} in a short time. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    retryAfterSeconds,
  );
}

/**
 * Membership applications (POST /api/applications) and the case lookup behind the form
 * (GET /api/cases/:caseNumber): the cases table first, then CASE_LOOKUP_URL when set.
 * Both are for signed-in users only; the routers check that, this checks everything else.
 */
export class ApplicationsService {
  readonly repository: ApplicationsRepository;
  private submitLimiter: RateLimiter;
  private lookupLimiter: RateLimiter;
  private source: ExternalCaseSource | null;

  constructor(
    db: Kysely<Database>,
    dialect: Dialect,
    config: Pick<Config, "CASE_LOOKUP_URL" | "CASE_LOOKUP_ALLOW_PRIVATE_HOSTS">,
    private logger: Logger,
    limits: RateLimits,
    options: ApplicationsServiceOptions = {},
  ) {
    this.repository = new ApplicationsRepository(db, dialect);
    const a = options.applicationLimit ?? APPLICATION_RATE_LIMIT;
    const l = options.lookupLimit ?? CASE_LOOKUP_RATE_LIMIT;
    this.submitLimiter = limits.limiter({ name: "application_submit", points: a.max, windowMs: a.windowMs });
    this.lookupLimiter = limits.limiter({ name: "case_lookup", points: l.max, windowMs: l.windowMs });
    this.source = config.CASE_LOOKUP_URL
      ? new ExternalCaseSource(config.CASE_LOOKUP_URL, {
          allowPrivateHosts: config.CASE_LOOKUP_ALLOW_PRIVATE_HOSTS,
          ...options.caseSource,
        })
      : null;
  }

  close() {
    this.source?.close();
  }

  /** Counts one post against the user's limit (before the body is read). */
  async admitSubmission(userId: number) {
    const consumed = await this.submitLimiter.consume(String(userId));
    if (!consumed.allowed) {
      this.logger.warn({ userId }, "application refused: rate limit");
      throw tooMany("applications", consumed.retryAfterSeconds);
    }
  }

  /** Checks and stores an application; 400 with the spec's messages in `details`. */
  async submit(raw: unknown, userId: number): Promise<ApplicationRow> {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw DomainError.invalid("The application must be a JSON object.");
    const parsed = applicationSchema.safeParse(raw);
    if (!parsed.success) {
      const { fields, messages } = applicationProblems(parsed.error);
      throw new ApplicationInvalid(messages, fields);
    }
    const row = await this.repository.insert(parsed.data, userId);
    this.logger.info({ id: row.id, userId }, "application stored");
    return row;
  }

  /** The case's form fields; 404 when neither the table nor the outside source knows it. */
  async lookupCase(rawCaseNumber: string, userId: number): Promise<CaseApplicant> {
    const caseNumber = caseNumberFrom(rawCaseNumber);
    if (!caseNumber) throw DomainError.invalid(CASE_NUMBER_INVALID);
    const consumed = await this.lookupLimiter.consume(String(userId));
    if (!consumed.allowed) {
      this.logger.warn({ userId }, "case lookup refused: rate limit");
      throw tooMany("case lookups", consumed.retryAfterSeconds);
    }
    const row = await this.repository.findCase(caseNumber);
    if (row) return applicantFromRow(row);
    if (this.source) {
      let found: CaseApplicant | null;
      try {
        found = await this.source.lookup(caseNumber);
      } catch (err) {
        // The case number stays out of the log: the last 4 digits are enough to follow up.
        this.logger.warn({ err: (err as Error).message, case: `***${caseNumber.slice(-4)}` }, "case lookup source failed");
        throw DomainError.unavailable(CASE_LOOKUP_UNAVAILABLE);
      }
      if (found) return found;
    }
    throw DomainError.notFound(CASE_NOT_FOUND);
  }
}

function applicantFromRow(row: CaseRow): CaseApplicant {
  return pickApplicant({
    firstName: row.first_name,
    lastName: row.last_name,
    applicantName: row.applicant_name,
    coverage: row.coverage,
    email: row.email,
    phone: row.phone,
    address1: row.address1,
    city: row.city,
    state: row.state,
    zip: row.zip,
    gender: row.gender,
  });
}
