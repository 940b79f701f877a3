import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig } from "~/platform/config.server";
import { createApp } from "~/platform/app.server";
import { NO_STAFF_HINT, ensureFirstAdmin, startServices } from "~/platform/bootstrap.server";

const root = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");

async function main() {
  const config = loadConfig({ NODE_ENV: dev ? "development" : "production", ...process.env });
  const services = await startServices(config);
  const { logger } = services;
  if ((await ensureFirstAdmin(services)) === "none") console.log(`\n${NO_STAFF_HINT}\n`);
  // Default RSS feeds on the first start, and the ingest scheduler (RSS_INGEST_INTERVAL_MINUTES).
  await services.articles.start();

  let app;
  if (dev) {
    const vite = await import("vite");
    const server = await vite.createServer({ server: { middlewareMode: true } });
    app = createApp(services, {
      dev: true,
      viteMiddleware: server.middlewares,
      build: () => server.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    });
  } else {
    const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
    const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
    app = createApp(services, { build, clientDir: path.join(buildDir, "client") });
  }

  const server = app.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    logger.info({ port, dialect: services.database.dialect }, "listening");
    console.log(`Site running on http://localhost:${port} (${services.database.dialect})`);
  });

  const shutdown = async (signal: string) => {
    logger.info({ signal }, "shutting down");
    server.close();
    await services.articles.stop();
    services.applications.close();
    await services.submissions.notifier.settled();
    await services.database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("Start-up failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
