import type { Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * The kinds of shared content kept signed-in pages show (decision 011), each with a counter in
 * the database that every write to it moves on (triggers of migration 0029).
 */
export type PageContent = "articles";

/** A content's counter. */
export async function readPageGeneration(db: Kysely<Database>, content: PageContent): Promise<number> {
  const row = await db.selectFrom("page_generations").select("generation").where("name", "=", content).executeTakeFirst();
  return Number(row?.generation ?? 0);
}
