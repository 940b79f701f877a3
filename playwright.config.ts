import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_ENV, E2E_PORT, chromePath } from "./tests/e2e/env";

/** Browser tests on the system Chromium (never a downloaded one), against the built site on SQLite. */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: `.tmp/test-results-${process.env.E2E_PORT ?? 3123}`,
  // Tests, not files, are spread over the workers, so no long file runs alone at the end.
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Room for a busy machine (CI runs beside other work): the limits only bound a test that
  // hangs; every wait inside a test is on an event.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PW_JSON_OUTPUT ? [["list"], ["json", { outputFile: process.env.PW_JSON_OUTPUT }]] : [["list"]],
  globalSetup: path.resolve("tests/e2e/global-setup.ts"),
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: "chromium",
    launchOptions: {
      executablePath: chromePath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-quic",
        "--disable-sync",
      ],
    },
    trace: "off",
  },
  webServer: {
    command: "node server.js",
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: E2E_ENV,
    stdout: "ignore",
    stderr: "pipe",
  },
});
