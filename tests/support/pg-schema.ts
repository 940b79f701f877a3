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

/**
 * Kysely's migrator looks for its tables across every schema of the database, and PostgreSQL's
 * catalog functions it calls fail ("schema ... does not exist") on a schema another test file
 * drops at that moment. Migrations hold this lock shared and drops hold it alone, so the two
 * never overlap (test files run side by side on one database).
 */
const SCHEMA_LOCK = 4_031_001;

async function withSchemaLock<T>(url: string, mode: "shared" | "exclusive", fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(mode === "shared" ? "select pg_advisory_lock_shared($1)" : "select pg_advisory_lock($1)", [SCHEMA_LOCK]);
    return await fn();
  } finally {
    await client.end(); // ending the session releases its advisory lock
  }
}

/** Runs a test's migrations where no other test file's schema is being dropped. */
export function whileNoSchemaIsDropped<T>(url: string, fn: () => Promise<T>): Promise<T> {
  return withSchemaLock(url, "shared", fn);
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
  return { schema, drop: () => withSchemaLock(url, "exclusive", () => run(`drop schema ${schema} cascade`)) };
}
