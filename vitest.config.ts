import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Three at a time on two cores: the tests mostly wait (on a database, a server, a socket),
    // and Vitest's default (cores - 1) ran them one by one: 15 minutes instead of 7.
    maxWorkers: 3,
  },
});
