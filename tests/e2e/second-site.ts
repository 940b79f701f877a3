import { spawn } from "node:child_process";
import { E2E_ENV, E2E_PORT } from "./env";

/**
 * The same built site started a second time (`node server.js`, as `npm start` runs it) on its
 * own port with some settings changed, for settings read once at start-up like
 * PAYMENT_PORTAL_URL. It shares the browser tests' database; PUBLIC_URL is left out so its own
 * origin is the one it answers on.
 */
export async function startSecondSite(env: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const { PUBLIC_URL: _ignored, ...base } = E2E_ENV;
  const port = E2E_PORT + 41;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...base, ...env, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second site exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("the second site did not start within 30 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
