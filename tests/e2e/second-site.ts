import { spawn } from "node:child_process";
import net from "node:net";
import { E2E_ENV } from "./env";

/** A port nothing listens on now, as the system hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The same built site started a second time (`node server.js`, as `npm start` runs it) on its
 * own free port (or the one given, to start it again where it was) with some settings changed, for settings read once at start-up like
 * PAYMENT_PORTAL_URL. It shares the browser tests' database; PUBLIC_URL is left out so its own
 * origin is the one it answers on.
 */
export async function startSecondSite(
  env: Record<string, string>,
  { port }: { port?: number } = {},
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const { PUBLIC_URL: _ignored, ...base } = E2E_ENV;
  port ??= await freePort();
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
    port,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
