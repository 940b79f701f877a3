/**
 * Resolves on the event loop's next turn (after the I/O and timers already due): long work that
 * runs as a chain of promises (on SQLite every query resolves without waiting for I/O) awaits it
 * between its steps, so the process answers other requests while the work runs.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
