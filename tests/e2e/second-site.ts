import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { E2E_DATA_DIR, E2E_ENV } from "./env";

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
  // A site that can send mail also sends what the shared outbox holds (reminders,
  // announcements), whichever test queued it: two at once, each with its own test's SMTP
  // server, would deliver each other's mail. One runs at a time, across the workers.
  const releaseMail = env.SMTP_URL ? await takeMailLock() : () => {};
  try {
    return await start(env, base, port, releaseMail);
  } catch (err) {
    releaseMail();
    throw err;
  }
}

/**
 * How long a second site may take to answer /healthz: a loaded machine (issue 48 §5) took more
 * than the 30 s a quiet one never comes near. A test that starts one calls test.slow() (or sets
 * a longer timeout): its start alone may take most of the default 60 s.
 */
export const SECOND_SITE_START_MS = 90_000;

/**
 * The second sites this worker started and has not closed. Playwright ends a worker after a
 * failed test (a timeout included) without running the test's finally; a site left running
 * would keep the shared database's outbox and send its mail to an SMTP server long gone, under
 * the next test's feet. The worker kills them as it exits.
 */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

async function start(
  env: Record<string, string>,
  base: Record<string, string>,
  port: number | undefined,
  releaseMail: () => void,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...base, ...env, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  running.add(child);
  void exited.then(() => running.delete(child));
  const deadline = Date.now() + SECOND_SITE_START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second site exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the second site did not start within ${SECOND_SITE_START_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    async close() {
      child.kill("SIGTERM");
      await exited;
      releaseMail();
    },
  };
}

const MAIL_LOCK = path.join(E2E_DATA_DIR, "mail-site.lock");

/** Holds the browser tests' one mail-sending site (a directory made atomically, with its owner's pid); a dead owner's is taken over. */
async function takeMailLock(): Promise<() => void> {
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(MAIL_LOCK);
      fs.writeFileSync(path.join(MAIL_LOCK, "pid"), String(process.pid));
      return () => fs.rmSync(MAIL_LOCK, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (!ownerAlive()) fs.rmSync(MAIL_LOCK, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ownerAlive(): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(MAIL_LOCK, "pid"), "utf8"));
  } catch {
    return true; // being made: its owner writes the pid next
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
