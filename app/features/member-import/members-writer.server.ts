import { sql, type Kysely } from "kysely";
import type { Dialect } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import { nextTurn } from "~/platform/event-loop.server";
import { UsersRepo, type MembersUpserted } from "~/features/auth/users.server";
import type { ImportedPlan } from "./parse-csv";

export interface MemberWrite {
  line: number;
  certificate: string;
  digest: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The optional plan columns; null or absent: the member's plan is left as it is. */
  plan?: ImportedPlan | null;
}

export interface WriteOutcome {
  created: number;
  updated: number;
  unchanged: number;
  /** Rows whose certificate number belongs to a staff account: never touched. */
  staff: MemberWrite[];
  /** Plans given or changed by the plan columns. */
  plans: number;
  /** Members whose birthdate changed: their sessions were ended, as Edit ends them. */
  signedOut: number;
  /** Members whose e-mail address the file changed, with the address they had (to be told). */
  emailChanged: Array<{ userId: number; oldEmail: string }>;
}

/** Rows per statement. Each statement carries its rows as one or four array parameters, not as N x columns. */
export const WRITE_CHUNK = 2000;

/**
 * Writes member rows in chunks inside the caller's transaction, one upsert statement per
 * chunk, through the one writer of users (UsersRepo.upsertMembers). A new certificate number
 * becomes a member; an existing member gets the new birthdate digest and any name or e-mail the
 * file gives (a blank one keeps what is stored), and loses their sessions when their birthdate
 * changed. The upsert's WHERE skips rows that would change nothing, so re-importing a file
 * writes nothing and updated_at only moves when something did, and it never touches a staff
 * account, even one that gained the certificate number after the staff lookup below.
 */
export async function writeMembers(trx: Kysely<Database>, dialect: Dialect, rows: MemberWrite[], now: string): Promise<WriteOutcome> {
  const writer = await membersWriter(trx, dialect, now);
  await writer.write(rows);
  return writer.finish();
}

/**
 * The same writes for rows that arrive in parts (a streamed file): each part is written in
 * full chunks as they fill, the last one by finish(), which returns the outcome.
 */
export async function membersWriter(
  trx: Kysely<Database>,
  dialect: Dialect,
  now: string,
  /** A new plan's approved_on: the import's day on the association's calendar (see writePlans). */
  today: string = now.slice(0, 10),
) {
  const staffCertificates = new Set(
    (
      await trx
        .selectFrom("users")
        .select("certificate_number")
        .where("role", "<>", "user")
        .where("certificate_number", "is not", null)
        .execute()
    ).map((r) => r.certificate_number!),
  );
  const outcome: WriteOutcome = { created: 0, updated: 0, unchanged: 0, staff: [], plans: 0, signedOut: 0, emailChanged: [] };
  let pending: MemberWrite[] = [];

  const users = new UsersRepo(trx);
  const upsert = async (chunk: MemberWrite[]) => {
    // Each statement in a turn of its own: the process answers other requests between them
    // (those that need the database wait for the transaction; on SQLite it holds the one connection).
    await nextTurn();
    const { before, written, signedOut } = await users.upsertMembers(dialect, chunk, now);
    outcome.signedOut += signedOut;
    await emailsChanging(trx, chunk, before, outcome);
    // A row the upsert inserted carries this import's timestamp as created_at; an updated one keeps its own.
    for (const w of written) {
      if (w.created_at === now) outcome.created++;
      else outcome.updated++;
    }
    outcome.unchanged += chunk.length - written.length;
    const planned = chunk.filter((r) => r.plan);
    if (planned.length) outcome.plans += await writePlans(trx, dialect, planned, now, today);
  };

  return {
    async write(rows: MemberWrite[]) {
      for (const r of rows) {
        if (staffCertificates.has(r.certificate)) outcome.staff.push(r);
        else pending.push(r);
      }
      while (pending.length >= WRITE_CHUNK) {
        const chunk = pending.slice(0, WRITE_CHUNK);
        pending = pending.slice(WRITE_CHUNK);
        await upsert(chunk);
      }
    },
    async finish(): Promise<WriteOutcome> {
      if (pending.length) await upsert(pending);
      pending = [];
      return outcome;
    },
  };
}

/**
 * An existing member whose e-mail address the chunk changed has a waiting change forgotten and
 * is listed, so the old address can be told (the users module ended the sessions of those whose
 * birthdate changed).
 */
async function emailsChanging(trx: Kysely<Database>, chunk: MemberWrite[], before: MembersUpserted["before"], outcome: WriteOutcome) {
  const byCertificate = new Map(chunk.map((r) => [r.certificate, r]));
  const emailChanged: number[] = [];
  for (const user of before) {
    const row = byCertificate.get(user.certificate_number!)!;
    if (row.email !== null && user.email !== row.email) {
      emailChanged.push(user.id);
      if (user.email && user.email.toLowerCase() !== row.email.toLowerCase())
        outcome.emailChanged.push({ userId: user.id, oldEmail: user.email });
    }
  }
  if (emailChanged.length)
    await trx.deleteFrom("email_changes").where("user_id", "in", emailChanged).where("used_at", "is", null).execute();
}

/**
 * The plan columns of an association moving in: a new plan or a change to the member's plan
 * (billing; the amount of coverage and paid through when given, else kept). A new plan is
 * approved on the import's day: the day this association put the member on a plan here (the
 * old records' approval day is not in the file). With paid_through the member is covered
 * through that day (coverage.ts's carried-over coverage, which payments recorded here
 * extend); without it they await their first payment, whose month decides their coverage's
 * first day. An existing plan keeps its approved_on. A row that changes nothing writes
 * nothing, so the same file twice changes nothing.
 */
async function writePlans(trx: Kysely<Database>, dialect: Dialect, rows: MemberWrite[], now: string, today: string): Promise<number> {
  const onConflict = sql`
    on conflict (user_id) do update set
      billing = excluded.billing,
      coverage_cents = coalesce(excluded.coverage_cents, membership_plans.coverage_cents),
      carried_paid_through = coalesce(excluded.carried_paid_through, membership_plans.carried_paid_through),
      updated_at = excluded.updated_at
    where membership_plans.billing is distinct from excluded.billing
      or (excluded.coverage_cents is not null and membership_plans.coverage_cents is distinct from excluded.coverage_cents)
      or (excluded.carried_paid_through is not null and membership_plans.carried_paid_through is distinct from excluded.carried_paid_through)
    returning user_id`;
  const plans = rows.map((r) => r.plan!);
  if (dialect === "postgres") {
    const { rows: written } = await sql`
      insert into membership_plans (user_id, billing, coverage_cents, approved_on, carried_paid_through, created_at, updated_at)
      select u.id, t.b, t.c, ${today}, t.p, ${now}, ${now}
      from unnest(${rows.map((r) => r.certificate)}::text[], ${plans.map((p) => p.billing)}::text[],
                  ${plans.map((p) => p.coverageCents)}::integer[], ${plans.map((p) => p.paidThrough)}::text[]) as t(cert, b, c, p)
      join users u on u.certificate_number = t.cert and u.role = 'user'
      ${onConflict}`.execute(trx);
    return written.length;
  }
  const json = JSON.stringify(rows.map((r, i) => [r.certificate, plans[i].billing, plans[i].coverageCents, plans[i].paidThrough]));
  const { rows: written } = await sql`
    insert into membership_plans (user_id, billing, coverage_cents, approved_on, carried_paid_through, created_at, updated_at)
    select u.id, j.value ->> 1, j.value ->> 2, ${today}, j.value ->> 3, ${now}, ${now}
    from json_each(${json}) j
    join users u on u.certificate_number = j.value ->> 0 and u.role = 'user'
    where true
    ${onConflict}`.execute(trx);
  return written.length;
}
