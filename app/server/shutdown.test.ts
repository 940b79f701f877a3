import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../tests/support/test-app";
import { openDatabase } from "~/platform/db.server";
import { configureHttpServer } from "~/platform/http.server";
import { createLogger } from "~/platform/logger.server";
import { createApp } from "./app.server";
import { Readiness } from "./readiness.server";
import { createServices } from "./services.server";
import { stopOnSignals } from "./shutdown.server";
import { endsWithTheFile } from "../../tests/support/loaded-machine";

/*
 * Stopping an instance (SIGTERM, as a rolling deploy sends it) in the test process itself: a
 * real signal to this process, an instance of the app with its own connection to a real
 * database. The browser tests (production-start.spec.ts) stop the built server too.
 */
describeEachDatabase("stopping on SIGTERM", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  /** An instance of the app on the test's database, listening, ready. */
  async function startInstance(env: { SHUTDOWN_DRAIN_SECONDS: number }) {
    const { database } = ctx.services;
    const handle =
      database.dialect === "sqlite"
        ? openDatabase({ sqliteFile: path.join(ctx.dataDir, "app.db") })
        : openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: database.schema, poolSize: 2 });
    const config = { ...ctx.config, ...env };
    const services = createServices(config, handle, createLogger("silent"));
    const readiness = new Readiness("ready");
    const server = configureHttpServer(http.createServer(createApp(services, { readiness })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { server, readiness, services, config, handle, url };
  }

  /** Sends this process a real signal, and waits until its listeners have run. */
  async function signal(name: "SIGTERM") {
    const delivered = new Promise((resolve) => process.once(name, resolve));
    process.kill(process.pid, name);
    await delivered;
  }

  it("says draining at once and answers everything else for the drain; then closes the socket and the database, and exits 0, once", async () => {
    const instance = await startInstance({ SHUTDOWN_DRAIN_SECONDS: 7 });
    // Should the shutdown not listen, the signal must not end the test process.
    const keepAlive = () => {};
    process.on("SIGTERM", keepAlive);
    let drainMs: number | null = null;
    let endDrain = () => {};
    const exits: number[] = [];
    let exited = () => {};
    const stopped = new Promise<void>((resolve) => (exited = resolve));
    let databaseOpenAfterClose: boolean | null = null;
    const { dispose } = stopOnSignals(
      {
        ...instance,
        afterClose: async () => {
          databaseOpenAfterClose = await sql`select 1`.execute(instance.handle.db).then(
            () => true,
            () => false,
          );
        },
      },
      {
        exit: (code) => {
          exits.push(code);
          exited();
        },
        wait: (ms) => {
          drainMs = ms;
          return new Promise<void>((resolve) => (endDrain = resolve));
        },
      },
    );
    // Put back by the file's end should this test time out before its finally.
    const leftovers = endsWithTheFile({
      async close() {
        dispose();
        process.off("SIGTERM", keepAlive);
        if (instance.server.listening) {
          instance.server.closeAllConnections();
          instance.server.close();
          await instance.handle.close();
        }
      },
    });
    try {
      expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);
      await signal("SIGTERM");
      expect(instance.readiness.state).toBe("draining");
      const readyz = await fetch(`${instance.url}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({ status: "draining" });
      expect(drainMs).toBe(7000);
      // Alive and answering while the load balancer stops sending.
      expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${instance.url}/api/auth/me`)).status).toBe(200);
      // A second signal changes nothing.
      await signal("SIGTERM");
      endDrain();
      await stopped;
      expect(exits).toEqual([0]);
      expect(databaseOpenAfterClose).toBe(false);
      expect(instance.server.listening).toBe(false);
      await expect(fetch(`${instance.url}/readyz`)).rejects.toThrow();
    } finally {
      await leftovers.close();
    }
  });
});
