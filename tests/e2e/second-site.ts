import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import { loadConfig } from "../../app/platform/config.server";
import { createApp } from "../../app/server/app.server";
import { databaseOptions, startServices } from "../../app/server/bootstrap.server";
import { E2E_ENV } from "./env";

/**
 * The same built site, served in the test process on a free port with some settings changed
 * (for settings read once at start-up, like PAYMENT_PORTAL_URL). It shares the browser tests'
 * database; PUBLIC_URL is left out so its own origin is the one it answers on.
 */
export async function startSecondSite(env: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const { PUBLIC_URL: _ignored, ...base } = E2E_ENV;
  const config = loadConfig({ ...base, ...env });
  const services = await startServices(config, { database: databaseOptions(config) });
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
  const app = createApp(services, { build, clientDir: path.join(buildDir, "client") });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await services.database.close();
    },
  };
}
