import fs from "node:fs";
import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3123);
export const E2E_DATA_DIR = path.resolve(`.tmp/e2e-data-${E2E_PORT}`);
export const E2E_BASE = `http://127.0.0.1:${E2E_PORT}`;

/** The server's environment in browser tests; fixtures open the same database with it. */
export const E2E_ENV: Record<string, string> = {
  NODE_ENV: "production",
  ...(process.env.BUILD_DIR ? { BUILD_DIR: process.env.BUILD_DIR } : {}),
  PORT: String(E2E_PORT),
  HOST: "127.0.0.1",
  DATA_DIR: E2E_DATA_DIR,
  LOG_LEVEL: "warn",
  AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456",
  PAYMENT_PORTAL_URL: `${E2E_BASE}/test-payment-portal`,
  PUBLIC_URL: E2E_BASE,
  RSS_INGEST_INTERVAL_MINUTES: "0",
  RSS_ALLOW_PRIVATE_HOSTS: "true",
  CONTACT_PHONE: "(800) 555-0142",
  CONTACT_EMAIL: "info@aha-homeowners.org",
};

export function chromePath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  return candidates.find((p) => fs.existsSync(p));
}
