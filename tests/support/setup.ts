import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { endWhatTheFileLeftOpen } from "./loaded-machine";

/** Any console.error during a test fails it: errors must be expected and asserted, not printed. */
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length) {
    const text = errors.map((a) => a.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});

/**
 * Each file leaves the worker's process as it found it, even when a test timed out halfway
 * (Vitest leaves its body running and goes on): the servers, contexts and SMTP servers it
 * started are ended, the clock is real again and TZ is put back. Registered before the file's
 * own hooks, so this runs after its own afterAll.
 */
let zoneAtStart: string | undefined;
beforeAll(() => {
  zoneAtStart = process.env.TZ;
});
afterAll(async () => {
  vi.useRealTimers();
  if (zoneAtStart === undefined) delete process.env.TZ;
  else process.env.TZ = zoneAtStart;
  await endWhatTheFileLeftOpen();
});
