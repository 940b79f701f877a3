/**
 * The time a test may take when it hashes passwords (scrypt: creating or signing in staff),
 * starts a second instance, a child process or an SMTP server, or waits for mail (issue 48 §5).
 * CI may run the suite on a machine as busy as the one measured (load 17-31 on two cores, one
 * core held busy beside other work), where such a test took over the default 20 s that a quiet
 * machine finishes in 1 to 10. Such a file says so at its top:
 *
 *   vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });
 *
 * (Vitest puts the file's settings back after the file.) The limit only bounds a test that hangs;
 * no test waits on a time.
 */
export const LOADED_TEST_TIMEOUT_MS = 180_000;

/**
 * How long a wait inside such a test (`vi.waitFor`, `expect.poll`: for a mail, another process's
 * write) may last before it fails with its own message: a third of the test's budget, so the
 * test fails by it, and runs its own `finally`, before the test's limit.
 */
export const LOADED_WAIT_MS = LOADED_TEST_TIMEOUT_MS / 3;

interface Closable {
  close(): unknown;
}

const open = new Set<Closable>();

/**
 * Registers what a test file started (a test context and its database handle, a server, a
 * second instance, an SMTP server) to be ended when the file ends, whatever became of its tests:
 * a test that timed out is left behind by Vitest while its body still runs, so its own `finally`
 * comes late or never, and the next file in the same worker (one process, one module graph:
 * `isolate: false`) would find its servers, timers and leases. The support modules that start
 * such things register them here; `tests/support/setup.ts` ends what is left in every file's
 * last `afterAll`. Closing becomes idempotent, so the file's own `afterAll` and a test's
 * `finally` stay as they are.
 */
export function endsWithTheFile<T extends Closable>(thing: T): T {
  const close = thing.close.bind(thing);
  let closing: Promise<unknown> | undefined;
  thing.close = () => {
    open.delete(thing);
    return (closing ??= Promise.resolve().then(close));
  };
  open.add(thing);
  return thing;
}

/** Ends what the file's tests left open, the newest first (a server before the database under it). */
export async function endWhatTheFileLeftOpen(): Promise<void> {
  const left = [...open].reverse();
  open.clear();
  const failures: unknown[] = [];
  for (const thing of left) {
    try {
      await thing.close();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length) throw new AggregateError(failures, "ending what the file's tests left open failed");
}

/** How many things are open now (for the support's own test). */
export function openCount(): number {
  return open.size;
}
