import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_ENV, E2E_PORT, chromePath } from "./tests/e2e/env";

/** Browser tests on the system Chromium (never a downloaded one), against the built site on SQLite. */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: `.tmp/test-results-${process.env.E2E_PORT ?? 3123}`,
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
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
