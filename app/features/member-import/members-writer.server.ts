import { sql, type Kysely } from "kysely";
import type { Database } from "~/platform/schema";

export interface MemberWrite {
  line: number;
  certificate: string;
  digest: string;
  firstName: string | null;
  lastName: string | null;
}

export interface WriteOutcome {
  created: number;
  updated: number;
  unchanged: number;
  /** Rows whose certificate number belongs to a staff account: never touched. */
  staff: MemberWrite[];
}

/** Rows per statement: 1000 x 9 parameters stays well under both drivers' limits. */
export const WRITE_CHUNK = 1000;

/**
 * Writes member rows in chunks inside the caller's transaction: one lookup of the chunk's
 * certificate numbers, then one multi-row upsert of the rows that are new or differ. An
 * existing member gets the new birthdate digest and any name the file gives (a blank name
 * keeps the stored one); rows that would change nothing are not written, so updated_at only
 * moves when something did. Staff accounts are never written, even if a staff account gains
 * the certificate number between the lookup and the upsert (the upsert's WHERE).
 */
export async function writeMembers(trx: Kysely<Database>, rows: MemberWrite[], now: string): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { created: 0, updated: 0, unchanged: 0, staff: [] };
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = rows.slice(i, i + WRITE_CHUNK);
    const existing = await trx
      .selectFrom("users")
      .select(["certificate_number", "role", "birthdate_digest", "first_name", "last_name"])
      .where(
        "certificate_number",
        "in",
        chunk.map((r) => r.certificate),
      )
      .execute();
    const byCertificate = new Map(existing.map((e) => [e.certificate_number!, e]));
    const toWrite: MemberWrite[] = [];
    for (const row of chunk) {
      const current = byCertificate.get(row.certificate);
      if (!current) {
        outcome.created++;
        toWrite.push(row);
      } else if (current.role !== "user") {
        outcome.staff.push(row);
      } else if (
        current.birthdate_digest !== row.digest ||
        (row.firstName !== null && row.firstName !== current.first_name) ||
        (row.lastName !== null && row.lastName !== current.last_name)
      ) {
        outcome.updated++;
        toWrite.push(row);
      } else {
        outcome.unchanged++;
      }
    }
    if (toWrite.length) await upsert(trx, toWrite, now);
  }
  return outcome;
}

async function upsert(trx: Kysely<Database>, rows: MemberWrite[], now: string) {
  const values = sql.join(
    rows.map((r) => sql`(${r.certificate}, ${r.digest}, ${r.firstName}, ${r.lastName}, 'user', 1, 0, ${now}, ${now})`),
  );
  await sql`
    insert into users (certificate_number, birthdate_digest, first_name, last_name, role, is_active, is_core_admin, created_at, updated_at)
    values ${values}
    on conflict (certificate_number) do update set
      birthdate_digest = excluded.birthdate_digest,
      first_name = coalesce(excluded.first_name, users.first_name),
      last_name = coalesce(excluded.last_name, users.last_name),
      updated_at = excluded.updated_at
    where users.role = 'user'`.execute(trx);
}
