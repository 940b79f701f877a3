import type { Kysely } from "kysely";
import { nowIso } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import type { CoInsuredView } from "./co-insured";

type Db = Kysely<Database>;

/** The plan's co-insured, or null. */
export async function readCoInsured(db: Db, userId: number): Promise<CoInsuredView | null> {
  const row = await db.selectFrom("membership_co_insured").selectAll().where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    birthdate: row.birthdate,
    gender: row.gender as CoInsuredView["gender"],
    email: row.email,
    phone: row.phone,
  };
}

const columns = (person: CoInsuredView) => ({
  first_name: person.firstName,
  last_name: person.lastName,
  birthdate: person.birthdate,
  gender: person.gender,
  email: person.email,
  phone: person.phone,
});

/** Enters or replaces the co-insured of a member's plan (the plan must exist: its row is referenced). */
export async function writeCoInsured(db: Db, userId: number, person: CoInsuredView): Promise<void> {
  const now = nowIso();
  const values = { ...columns(person), updated_at: now };
  await db
    .insertInto("membership_co_insured")
    .values({ user_id: userId, ...values, created_at: now })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/** Enters the co-insured only if the plan has none; whether it did. */
export async function addCoInsuredIfNone(db: Db, userId: number, person: CoInsuredView): Promise<boolean> {
  const now = nowIso();
  const inserted = await db
    .insertInto("membership_co_insured")
    .values({ user_id: userId, ...columns(person), created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .returning("user_id")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Whether there was one to remove. */
export async function removeCoInsured(db: Db, userId: number): Promise<boolean> {
  const result = await db.deleteFrom("membership_co_insured").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
