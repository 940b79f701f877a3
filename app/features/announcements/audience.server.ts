import { sql, type Kysely } from "kysely";
import type { Database } from "~/platform/schema";
import type { CoverageCensus } from "~/features/membership/census.server";
import type { CoverageKind } from "~/features/membership/statuses";
import type { Audience, AudienceCount } from "./contract";

/** A member an audience reaches, with what sending needs to know. */
export interface AudienceMember {
  id: number;
  email: string | null;
  optedOut: boolean;
  certificateNumber: string | null;
  firstName: string | null;
  lastName: string | null;
  paidThrough: string | null;
  status: CoverageKind;
}

/** A member as the audience reads them, before the audience's choices. */
interface Candidate extends AudienceMember {
  state: string | null;
  billing: string | null;
  joined: string;
}

/**
 * Who an audience reaches today: active members whose coverage status (the census, by the one
 * rule), plan, state and joining day match. "Joined" is the day the plan was approved, or the
 * day the account was made for a member without one.
 *
 * The members are read once and kept while nothing they are read from changed (the census's
 * own check, and one statement of counts and maxima over users and opt-outs): the editor's
 * live count is then a pass over a kept array, not 50,000 rows read per keystroke. Sending
 * reads them fresh (`fresh`), so the audience fixed at the start is the database's of that
 * moment.
 */
export class AudienceIndex {
  private kept: { key: string; candidates: Promise<Candidate[]> } | null = null;

  constructor(
    private db: Kysely<Database>,
    private census: CoverageCensus,
  ) {}

  async members(audience: Audience, { fresh = false } = {}): Promise<AudienceMember[]> {
    const candidates = fresh ? await this.read() : await this.keptCandidates();
    const statuses = new Set<CoverageKind>(audience.statuses);
    const plans = new Set<string>(audience.plans);
    const states = new Set<string>(audience.states);
    const out: AudienceMember[] = [];
    for (const c of candidates) {
      if (statuses.size && !statuses.has(c.status)) continue;
      if (plans.size && (!c.billing || !plans.has(c.billing))) continue;
      if (states.size && (!c.state || !states.has(c.state))) continue;
      if (audience.joinedAfter && c.joined < audience.joinedAfter) continue;
      if (audience.joinedBefore && c.joined > audience.joinedBefore) continue;
      out.push(c);
    }
    return out;
  }

  private async keptCandidates(): Promise<Candidate[]> {
    const key = await this.version();
    if (this.kept?.key !== key) {
      const candidates = this.read();
      this.kept = { key, candidates };
      // A failed read is not kept: the next count tries again.
      candidates.catch(() => {
        if (this.kept?.candidates === candidates) this.kept = null;
      });
    }
    return this.kept.candidates;
  }

  private async version(): Promise<string> {
    const [census, { rows }] = await Promise.all([
      this.census.version(),
      sql<Record<string, unknown>>`
        select
          (select count(*) from users where role = 'user') as members,
          (select max(updated_at) from users where role = 'user') as updated,
          (select count(*) from users where role = 'user' and updated_at = (select max(updated_at) from users where role = 'user')) as latest,
          (select count(*) from announcement_opt_outs) as opted_out,
          (select max(created_at) from announcement_opt_outs) as opted_latest`.execute(this.db),
    ]);
    return `${census}|${JSON.stringify(rows[0])}`;
  }

  private async read(): Promise<Candidate[]> {
    const [{ census: coverage }, rows] = await Promise.all([
      this.census.all(),
      this.db
        .selectFrom("users")
        .leftJoin("membership_plans", "membership_plans.user_id", "users.id")
        .leftJoin("announcement_opt_outs", "announcement_opt_outs.user_id", "users.id")
        .select([
          "users.id",
          "users.email",
          "users.state",
          "users.certificate_number",
          "users.first_name",
          "users.last_name",
          "users.created_at",
          "membership_plans.billing",
          "membership_plans.approved_on",
          "announcement_opt_outs.user_id as opted_out",
        ])
        .where("users.role", "=", "user")
        .where("users.is_active", "=", 1)
        .orderBy("users.id")
        .execute(),
    ]);
    return rows.map((r) => {
      const id = Number(r.id);
      const c = coverage.get(id);
      return {
        id,
        email: r.email?.trim() || null,
        optedOut: r.opted_out !== null,
        certificateNumber: r.certificate_number,
        firstName: r.first_name,
        lastName: r.last_name,
        paidThrough: c?.paidThrough ?? null,
        status: c?.state.kind ?? "no-plan",
        state: r.state ? r.state.trim().toUpperCase() : null,
        billing: r.billing,
        joined: r.approved_on ?? String(r.created_at).slice(0, 10),
      };
    });
  }
}

export function countAudience(members: AudienceMember[]): Omit<AudienceCount, "success"> {
  let withoutEmail = 0;
  let optedOut = 0;
  let recipients = 0;
  for (const m of members) {
    if (!m.email) withoutEmail++;
    if (m.optedOut) optedOut++;
    if (m.email && !m.optedOut) recipients++;
  }
  return { matching: members.length, withoutEmail, optedOut, recipients };
}
