import type http from "node:http";
import type { Config } from "~/platform/config.server";
import type { Readiness } from "./readiness.server";
import type { Services } from "./services.server";

/** What a started instance stops, in order. */
export interface RunningInstance {
  server: http.Server;
  readiness: Readiness;
  services: Pick<Services, "logger" | "ingest" | "reminders" | "applications" | "submissions" | "database">;
  config: Pick<Config, "SHUTDOWN_DRAIN_SECONDS" | "SHUTDOWN_GRACE_SECONDS">;
  metricsServer?: { close(): void } | null;
  /** Run once the database is closed: what the entry opened besides (the restore guard's mark, Vite). */
  afterClose?: () => Promise<void> | void;
}

export interface ShutdownOptions {
  /** Ends the process (a test records the code instead). */
  exit?: (code: number) => void;
  /** Waits out the drain (a test ends it once it has looked at the draining instance). */
  wait?: (ms: number) => Promise<void>;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Stops the instance on SIGINT or SIGTERM. It says "not ready" (/readyz) at once and for
 * SHUTDOWN_DRAIN_SECONDS while still answering, so the load balancer stops sending; then stops
 * taking connections, lets the requests in flight finish (within SHUTDOWN_GRACE_SECONDS, then
 * cuts them off), stops the scheduled jobs, then closes the database: no request is cut off by
 * a closed database. A second signal while stopping changes nothing.
 *
 * Returns the shutdown a signal runs, and `dispose` to stop listening for the signals.
 */
export function stopOnSignals(instance: RunningInstance, opts: ShutdownOptions = {}) {
  const { server, readiness, services, config, metricsServer, afterClose } = instance;
  const { logger } = services;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const wait = opts.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let stopping: Promise<void> | null = null;

  const stop = async (signal: string) => {
    const started = Date.now();
    readiness.state = "draining";
    logger.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, "shutting down");
    if (config.SHUTDOWN_DRAIN_SECONDS > 0) await wait(config.SHUTDOWN_DRAIN_SECONDS * 1000);
    metricsServer?.close();
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    let cutOff = false;
    const grace = setTimeout(() => {
      cutOff = true;
      server.closeAllConnections();
    }, config.SHUTDOWN_GRACE_SECONDS * 1000);
    await Promise.all([drained, services.ingest.stop(), services.reminders.stop()]);
    clearTimeout(grace);
    services.applications.close();
    await services.submissions.notifier.settled();
    await services.database.close();
    await afterClose?.();
    logger.info({ ms: Date.now() - started, requestsCutOff: cutOff }, "stopped");
    logger.flush();
    exit(0);
  };
  const shutdown = (signal: string): Promise<void> => (stopping ??= stop(signal));
  const listeners = SIGNALS.map((signal) => [signal, () => void shutdown(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  return {
    shutdown,
    dispose() {
      for (const [signal, listener] of listeners) process.off(signal, listener);
    },
  };
}
