import crypto from "node:crypto";
import pg from "pg";

/**
 * Installs the extensions the migrations use (pg_trgm) in the schema public, once per test
 * run or benchmark, before any schema is made. Each test file works in a schema of its own
 * that is dropped afterwards; an extension the first migration created there would be
 * dropped with it, and every other schema's indexes that use it too.
 */
export async function installPgExtensions(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_trgm with schema public");
  } finally {
    await client.end();
  }
}

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
