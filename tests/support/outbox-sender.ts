/**
 * A server's outbox sender alone, in its own process, for the test that kills it half-way
 * (announcements.test.ts): opens the test's database (SQLite file or PostgreSQL schema from the
 * environment), runs one check of the reminders' outbox (which starts and sends announcements)
 * and prints each mail's outcome as it is recorded.
 */
import { createLogger, createServices, loadConfig, openDatabase } from "./server-modules";

const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", RSS_INGEST_INTERVAL_MINUTES: "0" });
const database = process.env.SENDER_SQLITE_FILE
  ? openDatabase({ sqliteFile: process.env.SENDER_SQLITE_FILE })
  : openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: process.env.SENDER_PG_SCHEMA!, poolSize: 2 });
const services = createServices(config, database, createLogger("silent"), {
  reminders: { settings: { ratePerSecond: Number(process.env.SENDER_RATE ?? 20), batchSize: 5 } },
});
process.stdout.write("ready\n");
await services.reminders.runOnce();
process.stdout.write("done\n");
await services.reminders.stop();
await database.close();
