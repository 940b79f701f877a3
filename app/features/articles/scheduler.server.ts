import type { Logger } from "~/platform/logger.server";

/**
 * Ingests every intervalMs. It looks at the last run recorded in the database (by any
 * instance) rather than at its own clock, so several instances share one rhythm: each checks
 * now and then, and only one whose check finds the last run too old starts an ingest (and the
 * lease keeps even two such instances down to one run).
 */
export class IngestScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly checkEveryMs: number;

  constructor(
    private opts: {
      intervalMs: number;
      lastStartedAt: () => Promise<string | null>;
      run: () => Promise<void>;
      logger: Logger;
      /** First check after start (default 30 s: start-up is not slowed by feeds). */
      initialDelayMs?: number;
    },
  ) {
    this.checkEveryMs = Math.min(opts.intervalMs, 60_000);
  }

  start() {
    if (!this.stopped || this.opts.intervalMs <= 0) return;
    this.stopped = false;
    this.schedule(this.opts.initialDelayMs ?? 30_000);
    this.opts.logger.info({ intervalMinutes: this.opts.intervalMs / 60_000 }, "RSS ingest scheduler started");
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One check: runs an ingest when the last one started at least an interval ago. */
  async tick(now = Date.now()): Promise<boolean> {
    const last = await this.opts.lastStartedAt();
    if (last && now - Date.parse(last) < this.opts.intervalMs) return false;
    await this.opts.run();
    return true;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.tick();
      } catch (err) {
        this.opts.logger.error({ err }, "scheduled RSS ingest failed");
      }
      this.schedule(this.checkEveryMs);
    }, delay);
    this.timer.unref?.();
  }
}
