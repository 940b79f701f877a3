import { sql, type Kysely } from "kysely";
import type { Database } from "~/platform/schema";
import { coverageOn, PLAN_PRICE_CENTS, type Billing, type Coverage, type LedgerEntry, type TermEvent } from "./coverage";

/**
 * Every member's coverage on one day, for the member list's status filter and counts and the
 * staff dashboard, by the one rule (coverage.ts), in three queries whatever the number of
 * members.
 *
 * Why not each member's whole ledger: at the 50,000 members the site claims, with a year of
 * monthly payments each, that is 600,000 rows to read and sort on every list page. Instead the
 * database sums each member's ledger in one ordered pass (a running total by paid_on, id: the
 * order coverage.ts reads a ledger in) and answers two numbers per member: the net paid and
 * the day the running total first reached the plan's price. For a member who was never
 * cancelled, coverageOn reads nothing else of the ledger: the net paid gives the periods and
 * the credit, and that day the first payment received. So a one-entry ledger of the net paid
 * on that day gives the same coverage (two entries when refunds took the net below the price
 * after it was reached: the price, then the difference, so the term still counts as once paid) (census.test.ts holds this against the whole ledgers).
 * The few members with cancellations or reinstatements, whose terms own only part of the
 * ledger, get their whole ledger from a third query (a refund with its payment's day: it
 * counts in that payment's term).
 *
 * Measured by bench/members.ts (npm run bench:members). Nothing is stored: a status cannot
 * go stale, and the payments import and the Record payment dialog need not keep anything in
 * step. CoverageCensus below keeps the last answer while nothing it reads has changed.
 */
export async function coverageCensus(db: Kysely<Database>, today: string, only?: number): Promise<Map<number, Coverage>> {
  // One member (a row just edited): the same queries, on that member's rows alone.
  const onlyPayments = only === undefined ? sql`` : sql`where p.user_id = ${only}`;
  const onlyMember = only === undefined ? sql`` : sql`and u.id = ${only}`;
  const [members, events, eventLedgers] = await Promise.all([
    sql<{
      id: number;
      billing: string | null;
      approved_on: string | null;
      carried_paid_through: string | null;
      total: number | string | null;
      reached: string | null;
    }>`
      select u.id, pl.billing, pl.approved_on, pl.carried_paid_through, pay.total, pay.reached
      from users u
      left join membership_plans pl on pl.user_id = u.id
      left join (
        select r.user_id, sum(r.amount_cents) as total, min(case when r.running >= r.price then r.paid_on end) as reached
        from (
          select p.user_id, p.paid_on, p.amount_cents,
            case when pp.billing = 'annual' then ${sql.lit(PLAN_PRICE_CENTS.annual)} else ${sql.lit(PLAN_PRICE_CENTS.monthly)} end as price,
            sum(p.amount_cents) over (partition by p.user_id order by p.paid_on, p.id rows between unbounded preceding and current row) as running
          from membership_payments p
          join membership_plans pp on pp.user_id = p.user_id
          ${onlyPayments}
        ) r
        group by r.user_id
      ) pay on pay.user_id = u.id
      where u.role = 'user' ${onlyMember}`.execute(db),
    db
      .selectFrom("membership_events")
      .select(["user_id", "kind", "on_date", "reason"])
      .$if(only !== undefined, (q) => q.where("user_id", "=", only!))
      .orderBy("user_id")
      .orderBy("id")
      .execute(),
    // A refund counts in the term of the payment it pays back: its payment's day comes with it.
    db
      .selectFrom("membership_payments as p")
      .leftJoin("membership_payments as paid", "paid.id", "p.refund_of")
      .select(["p.user_id", "p.paid_on", "p.amount_cents", "paid.paid_on as term_on"])
      .where("p.user_id", "in", (eb) => eb.selectFrom("membership_events").select("user_id"))
      .$if(only !== undefined, (q) => q.where("p.user_id", "=", only!))
      .orderBy("p.user_id")
      .orderBy("p.paid_on")
      .orderBy("p.id")
      .execute(),
  ]);

  const eventsOf = new Map<number, TermEvent[]>();
  for (const e of events) {
    const id = Number(e.user_id);
    const list = eventsOf.get(id) ?? [];
    list.push(
      e.kind === "cancelled" ? { kind: "cancelled", on: e.on_date, reason: e.reason ?? "" } : { kind: "reinstated", on: e.on_date },
    );
    eventsOf.set(id, list);
  }
  const ledgerOf = new Map<number, LedgerEntry[]>();
  for (const p of eventLedgers) {
    const id = Number(p.user_id);
    const list = ledgerOf.get(id) ?? [];
    list.push(
      p.term_on === null
        ? { on: p.paid_on, amountCents: Number(p.amount_cents) }
        : { on: p.paid_on, amountCents: Number(p.amount_cents), termOn: p.term_on },
    );
    ledgerOf.set(id, list);
  }

  const out = new Map<number, Coverage>();
  for (const m of members.rows) {
    const id = Number(m.id);
    const termEvents = eventsOf.get(id);
    const total = m.total === null ? 0 : Number(m.total);
    const price = m.billing === "annual" ? PLAN_PRICE_CENTS.annual : PLAN_PRICE_CENTS.monthly;
    // Reached the price, then refunded below it: the running total must still reach it that day.
    const payments: LedgerEntry[] = termEvents
      ? (ledgerOf.get(id) ?? [])
      : m.total === null
        ? []
        : m.reached !== null && total < price
          ? [
              { on: m.reached, amountCents: price },
              { on: m.reached, amountCents: total - price },
            ]
          : [{ on: m.reached ?? m.approved_on ?? today, amountCents: total }];
    out.set(
      id,
      coverageOn(
        {
          billing: (m.billing as Billing | null) ?? null,
          approvedOn: m.approved_on,
          carriedPaidThrough: m.carried_paid_through,
          payments,
          events: termEvents ?? [],
        },
        today,
      ),
    );
  }
  return out;
}

type Census = Map<number, Coverage>;

/**
 * The census of the association's calendar day, kept in the process while the rows it is
 * computed from stay the same. At 50,000 members a census takes its three queries over the
 * whole ledger (about a second on a loaded two-core machine, bench/members.ts); the check
 * that nothing changed is one statement of counts and maxima over indexes, a few
 * milliseconds. Ledger and event rows are only ever inserted (refunds are new rows) or
 * deleted with their member, and ids only grow, so a row's count and largest id change with
 * every write; a plan's change sets its updated_at to the time of the change. Each instance keeps its own copy and checks the
 * shared database on every read, so several instances never disagree for longer than a
 * request. The answer of a check may be newer than the census it keys, never older: the key
 * is read first.
 */
export class CoverageCensus {
  private kept: { key: string; census: Promise<Census> } | null = null;

  constructor(
    private db: Kysely<Database>,
    /** The association's calendar day. */
    readonly today: () => string,
  ) {}

  /** Every member's coverage today, and the day. */
  async all(): Promise<{ today: string; census: Census }> {
    const today = this.today();
    const key = `${today}|${await this.fingerprint()}`;
    if (this.kept?.key !== key) {
      const census = coverageCensus(this.db, today);
      this.kept = { key, census };
      // A failed census is not kept: the next read tries again.
      census.catch(() => {
        if (this.kept?.census === census) this.kept = null;
      });
    }
    return { today, census: await this.kept.census };
  }

  /** What the census would be computed from, as one string: the day and the tables' counts and maxima (a kept page's version). */
  async version(): Promise<string> {
    return `${this.today()}|${await this.fingerprint()}`;
  }

  /** One member's coverage today (a row just changed), without the whole census. */
  async of(memberId: number): Promise<Coverage | undefined> {
    return (await coverageCensus(this.db, this.today(), memberId)).get(memberId);
  }

  private async fingerprint(): Promise<string> {
    const { rows } = await sql<Record<string, unknown>>`
      select
        (select count(*) from users where role = 'user') as members,
        (select max(id) from users) as users_max,
        (select count(*) from membership_payments) as payments,
        (select max(id) from membership_payments) as payments_max,
        (select count(*) from membership_events) as events,
        (select max(id) from membership_events) as events_max,
        (select count(*) from membership_plans) as plans,
        (select max(updated_at) from membership_plans) as plans_updated,
        -- Two plans changed in one millisecond: the second adds a row at the latest time.
        (select count(*) from membership_plans where updated_at = (select max(updated_at) from membership_plans)) as plans_latest`.execute(
      this.db,
    );
    return JSON.stringify(rows[0]);
  }
}
