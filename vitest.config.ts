import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup.ts"],
    // Only bounds a test that hangs: on a loaded CI machine a test of many queries (the
    // knowledge center's paging on PostgreSQL) ran past 20 s. Files that hash, start servers or
    // wait for mail take more (tests/support/loaded-machine.ts).
    testTimeout: 60_000,
    // A file's servers start in its hooks: a page server's first Vite compile took over 120 s on
    // a loaded machine (issue 48 §5, tests/support/loaded-machine.ts).
    hookTimeout: 300_000,
    pool: "forks",
    // Three at a time on two cores: the tests mostly wait (on a database, a server, a socket),
    // and Vitest's default (cores - 1) ran them one by one: 15 minutes instead of 7.
    maxWorkers: 3,
    // A worker runs its files one after another in one module graph, rather than importing the
    // whole server afresh for each (and, for the page tests, starting a Vite dev server each):
    // the suite took 229 s on both databases with isolation, 157 s without, on a quiet
    // machine. Tests keep no state in modules: each builds its own services, database, server
    // and metrics registry, and restores what it changes of the process (timers, TZ, listeners).
    isolate: false,
  },
});
