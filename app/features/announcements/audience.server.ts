import type { Kysely } from "kysely";
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
}

/**
 * Who an audience reaches today: active members whose coverage status (the census, by the one
 * rule), plan, state and joining day match. "Joined" is the day the plan was approved, or the
 * day the account was made for a member without one.
 */
export async function audienceMembers(db: Kysely<Database>, census: CoverageCensus, audience: Audience): Promise<AudienceMember[]> {
  const [{ census: coverage }, rows] = await Promise.all([
    census.all(),
    db
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
      .$if(audience.plans.length > 0, (q) => q.where("membership_plans.billing", "in", audience.plans))
      .$if(audience.states.length > 0, (q) => q.where("users.state", "in", audience.states))
      .orderBy("users.id")
      .execute(),
  ]);
  const statuses = new Set<CoverageKind>(audience.statuses);
  const out: AudienceMember[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    const c = coverage.get(id);
    if (statuses.size && (!c || !statuses.has(c.state.kind))) continue;
    const joined = r.approved_on ?? String(r.created_at).slice(0, 10);
    if (audience.joinedAfter && joined < audience.joinedAfter) continue;
    if (audience.joinedBefore && joined > audience.joinedBefore) continue;
    out.push({
      id,
      email: r.email?.trim() || null,
      optedOut: r.opted_out !== null,
      certificateNumber: r.certificate_number,
      firstName: r.first_name,
      lastName: r.last_name,
      paidThrough: c?.paidThrough ?? null,
    });
  }
  return out;
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
