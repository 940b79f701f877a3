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

/** The machine's 1-minute load average and cores: p99s on a busy machine include its waits. */
export const machineLoad = () => ({ loadAverage1m: round(os.loadavg()[0]), cores: os.availableParallelism() });

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

export interface Timing {
  p50: number;
  p99: number;
  mean: number;
}

/** A timing beside its goal: the goal's p99, the share of it used and whether it is met. */
export function againstGoal<T extends Timing>(timing: T, goalP99Ms: number): T & { goalP99Ms: number; ofGoal: number; meetsGoal: boolean } {
  return { ...timing, goalP99Ms, ofGoal: Math.round((timing.p99 / goalP99Ms) * 100) / 100, meetsGoal: timing.p99 < goalP99Ms };
}

/** The figures of a result (at any depth) that have a goal: how many, and the names of those that miss it. */
export function goalsMet(result: unknown, prefix = ""): { figures: number; missed: string[] } {
  const out = { figures: 0, missed: [] as string[] };
  if (!result || typeof result !== "object") return out;
  const r = result as Record<string, unknown>;
  if (typeof r.meetsGoal === "boolean") {
    out.figures = 1;
    if (!r.meetsGoal) out.missed.push(prefix);
    return out;
  }
  for (const [key, value] of Object.entries(r)) {
    const inner = goalsMet(value, prefix ? `${prefix}.${key}` : key);
    out.figures += inner.figures;
    out.missed.push(...inner.missed);
  }
  return out;
}
