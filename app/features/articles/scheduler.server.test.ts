import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "~/platform/logger.server";
import { IngestScheduler } from "./scheduler.server";

describe("IngestScheduler", () => {
  afterEach(() => vi.useRealTimers());
  const logger = createLogger("silent");
  const HOUR = 60 * 60_000;

  it("runs when no ingest ever ran, or the last one started an interval ago or more", async () => {
    const run = vi.fn(async () => {});
    let last: string | null = null;
    const s = new IngestScheduler({ intervalMs: HOUR, lastStartedAt: async () => last, run, logger });
    const now = Date.parse("2024-03-06T12:00:00Z");
    expect(await s.tick(now)).toBe(true);
    last = new Date(now - HOUR + 1000).toISOString();
    expect(await s.tick(now)).toBe(false);
    last = new Date(now - HOUR).toISOString();
    expect(await s.tick(now)).toBe(true);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("checks on a timer once started, and not after stop()", async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {});
    const s = new IngestScheduler({ intervalMs: 5 * 60_000, lastStartedAt: async () => null, run, logger, initialDelayMs: 1000 });
    s.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(2);
    s.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("an interval of 0 means off", async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {});
    const s = new IngestScheduler({ intervalMs: 0, lastStartedAt: async () => null, run, logger, initialDelayMs: 0 });
    s.start();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(run).not.toHaveBeenCalled();
  });

  it("a failed run is logged and the next check still happens", async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {
      throw new Error("boom");
    });
    const s = new IngestScheduler({ intervalMs: 60_000, lastStartedAt: async () => null, run, logger, initialDelayMs: 10 });
    s.start();
    await vi.advanceTimersByTimeAsync(10);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(2);
    s.stop();
  });
});
