import crypto from "node:crypto";
import pg from "pg";

/** A new, empty PostgreSQL schema for one test file or benchmark, and a way to drop it. */
export async function createPgSchema(url: string, prefix: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${schema}`);
  return { schema, drop: () => run(`drop schema ${schema} cascade`) };
}
