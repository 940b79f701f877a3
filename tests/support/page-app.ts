import path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { Dialect } from "../../app/platform/db.server";
import { endsWithTheFile } from "./loaded-machine";
import { createTestContext, type ServerModules, type TestServer } from "./test-app";

/**
 * The whole site, pages included, on an ephemeral port: the React Router build is compiled
 * on demand by Vite (no `npm run build` needed). The services and the Express app come from
 * the same Vite module graph as the pages, as in the production server build.
 */
export interface PageTestServer extends TestServer {
  server: Server;
  port: number;
  /** The React Router build the server answers from (its route table). */
  build: ServerBuild;
  /** The Express app (its locals: the kept signed-in pages). */
  app: ReturnType<ServerModules["createApp"]>;
  /**
   * Another instance of the site on the same database (its own kept pages), at its own port;
   * `keepPages: false` renders every page for its request, as the reference kept pages are held to.
   */
  startInstance(opts?: { keepPages?: boolean }): Promise<{ url: string; request: PageTestServer["request"]; close(): Promise<void> }>;
}

let vite: ViteDevServer | null = null;

async function loadVite(): Promise<ViteDevServer> {
  if (!vite) {
    const { createServer } = await import("vite");
    vite = await createServer({
      server: { middlewareMode: true, hmr: false, watch: null },
      appType: "custom",
      logLevel: "silent",
    });
  }
  return vite;
}

export async function startPageTestServer(dialect: Dialect, env: Record<string, string> = {}): Promise<PageTestServer> {
  const viteServer = await loadVite();
  const modules = (await viteServer.ssrLoadModule("/tests/support/server-modules.ts")) as ServerModules;
  const build = (await viteServer.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
  const ctx = await createTestContext(dialect, env, { modules });
  const { createApp, configureHttpServer } = modules;
  // public/ served as the production build serves build/client (favicon, images).
  const app = createApp(ctx.services, { build, clientDir: path.resolve("public") });
  const listen = (handler: typeof app): Promise<Server> =>
    new Promise((resolve) => {
      const s = configureHttpServer(handler.listen(0, "127.0.0.1", () => resolve(s)));
    });
  const requester =
    (url: string): PageTestServer["request"] =>
    (pathname, init = {}) => {
      const { json, cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set("Content-Type", "application/json");
      if (cookie) headers.set("Cookie", cookie);
      return fetch(url + pathname, { redirect: "manual", ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    };
  const server = await listen(app);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const others: Server[] = [];
  return endsWithTheFile({
    ...ctx,
    server,
    port,
    build,
    app,
    url,
    request: requester(url),
    async startInstance({ keepPages = true } = {}) {
      const other = await listen(createApp(ctx.services, { build, clientDir: path.resolve("public"), keepPages }));
      others.push(other);
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      return {
        url: otherUrl,
        request: requester(otherUrl),
        close: async () => {
          other.closeAllConnections();
          await new Promise<void>((resolve) => other.close(() => resolve()));
        },
      };
    },
    async close() {
      for (const other of others) other.closeAllConnections();
      await Promise.all(others.map((other) => new Promise<void>((resolve) => other.close(() => resolve()))));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ctx.close();
      if (vite) {
        await vite.close();
        vite = null;
      }
    },
  });
}
