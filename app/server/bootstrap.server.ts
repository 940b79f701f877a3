import path from "node:path";
import type { Config } from "~/platform/config.server";
import { UniqueViolationError, migrateToLatest, openDatabase, type DatabaseOptions } from "~/platform/db.server";
import { createLogger, type Logger } from "~/platform/logger.server";
import { createServices, type Services } from "./services.server";

export function databaseOptions(config: Config): DatabaseOptions {
  return config.DATABASE_URL ? { url: config.DATABASE_URL } : { sqliteFile: path.join(config.DATA_DIR, "app.db") };
}

/** Opens and migrates the database and builds the services. Used by the server, the CLI and tests. */
export async function startServices(config: Config, opts: { logger?: Logger; database?: DatabaseOptions } = {}): Promise<Services> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const database = openDatabase(opts.database ?? databaseOptions(config));
  try {
    const applied = await migrateToLatest(database);
    if (applied.length) logger.info({ migrations: applied, dialect: database.dialect }, "database migrated");
  } catch (err) {
    await database.close();
    throw err;
  }
  if (config.DATABASE_URL && !config.AUTH_SECRET) {
    // Each machine would generate its own key file and members could sign in on one instance only.
    logger.warn(
      { dataDir: config.DATA_DIR },
      "AUTH_SECRET is not set: using the key file in DATA_DIR. With PostgreSQL, set the same AUTH_SECRET on every instance and for the admin CLI.",
    );
  }
  return createServices(config, database, logger);
}

/** ADMIN_USERNAME/ADMIN_PASSWORD create the first super_admin when no staff account exists. */
export async function ensureFirstAdmin(services: Services): Promise<"created" | "exists" | "none"> {
  const { config, auth, logger } = services;
  if ((await auth.users.countStaff()) > 0) return "exists";
  if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
    try {
      await auth.createStaff(config.ADMIN_USERNAME, config.ADMIN_PASSWORD, "super_admin", true);
    } catch (err) {
      // Another instance starting at the same moment counted no staff either and created it first.
      if (err instanceof UniqueViolationError) return "exists";
      throw err;
    }
    logger.info({ username: config.ADMIN_USERNAME }, "created the first super_admin from ADMIN_USERNAME");
    return "created";
  }
  return "none";
}

export const NO_STAFF_HINT = [
  "No staff account exists yet. Create the first administrator with:",
  "  npm run admin -- create-admin --username <u> --password <p> --role super_admin",
  "or start the site with ADMIN_USERNAME and ADMIN_PASSWORD set.",
].join("\n");
