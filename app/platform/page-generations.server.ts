import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * The kinds of shared content kept signed-in pages show (decision 011), each with a counter in
 * the database that whatever changes it moves on, in the same transaction as the change.
 */
export type PageContent = "articles";

/** Moves a content's counter on: the signed-in pages kept at the old one are rendered again, on every instance. */
export async function bumpPageGeneration(db: Kysely<Database>, content: PageContent): Promise<void> {
  await db
    .insertInto("page_generations")
    .values({ name: content, generation: 1 })
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ generation: eb("page_generations.generation", "+", 1) })))
    .execute();
}

/** A content's counter (0 before anything moved it). */
export async function readPageGeneration(db: Kysely<Database>, content: PageContent): Promise<number> {
  const row = await db.selectFrom("page_generations").select("generation").where("name", "=", content).executeTakeFirst();
  return Number(row?.generation ?? 0);
}
