import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPgSchema, installPgExtensions } from "../tests/support/pg-schema";
import { loadConfig, type Config } from "../app/platform/config.server";
import { migrateToLatest, openDatabase, type Dialect } from "../app/platform/db.server";
import { createLogger } from "../app/platform/logger.server";
import { createServices, type ServiceOptions, type Services } from "../app/server/services.server";

/** A fresh, migrated database for a benchmark: SQLite in a temp dir, or a new PostgreSQL schema. */
export async function benchServices(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<{ services: Services; config: Config; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-bench-"));
  const config = loadConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
    RSS_INGEST_INTERVAL_MINUTES: "0",
    ...env,
  });
  let drop = async () => {};
  let database;
  if (dialect === "sqlite") {
    database = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
  } else {
    const url = process.env.TEST_DATABASE_URL!;
    await installPgExtensions(url);
    const created = await createPgSchema(url, "bench");
    database = openDatabase({ url, pgSchema: created.schema, poolSize: 8 });
    drop = created.drop;
  }
  await migrateToLatest(database);
  const services = createServices(config, database, createLogger("silent"), options);
  return {
    services,
    config,
    async close() {
      await services.ingest.stop();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function benchDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
}

export const round = (ms: number) => Math.round(ms * 10) / 10;

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** Runs fn and returns its duration in milliseconds. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}
