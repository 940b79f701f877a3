/** `npm run admin -- <command> ...`: staff and member accounts from the command line. */
import { ConfigError, loadConfig } from "../app/platform/config.server";
import { startServices } from "../app/server/bootstrap.server";
import { createLogger } from "../app/platform/logger.server";
import { runAdminCommand } from "../app/server/admin-cli.server";

async function main() {
  const config = loadConfig();
  const services = await startServices(config, { logger: createLogger("warn") });
  try {
    const result = await runAdminCommand(process.argv.slice(2), services);
    (result.code === 0 ? console.log : console.error)(result.out);
    process.exitCode = result.code;
  } finally {
    await services.database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `Failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
