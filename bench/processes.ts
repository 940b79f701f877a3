import type { ChildProcess } from "node:child_process";
import net from "node:net";

/* What the benchmarks that start the built server in processes of their own share. */

/** A port free on the loopback address at this moment. */
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

/** Resolves once `url` answers 2xx; fails when the process exits first or after 60 s. */
export async function waitUntilUp(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}: not up within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
