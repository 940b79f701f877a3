import { spawn, type ChildProcess } from "node:child_process";
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

/**
 * A local SMTP server that takes every message, in a process of its own. On SIGTERM it prints
 * one JSON line: the messages taken and the recipients that got more than one.
 */
export async function startSmtpSink(
  port: number,
): Promise<ChildProcess & { counts: () => Promise<{ messages: number; repeated: number }> }> {
  const code = `import { SMTPServer } from "smtp-server";
    const seen = new Map(); let messages = 0;
    process.on("SIGTERM", () => { let repeated = 0; for (const n of seen.values()) if (n > 1) repeated++;
      process.stdout.write(JSON.stringify({ messages, repeated }) + "\\n", () => process.exit(0)); });
    new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS", "AUTH"], logger: false, size: 1 << 20,
      onData(stream, s, cb) { stream.on("data", () => {}); stream.on("end", () => { messages++;
        for (const r of s.envelope.rcptTo) seen.set(r.address, (seen.get(r.address) ?? 0) + 1); cb(); }); } }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error("the SMTP server did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return Object.assign(child, {
    async counts() {
      await stopProcess(child);
      return JSON.parse(out.trim().split("\n").pop() || '{"messages":0,"repeated":0}') as { messages: number; repeated: number };
    },
  });
}

/** SIGTERM, and resolves once the process has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  await exited;
}

/** `clients` clients requesting `url` one after another (20 ms apart) until `done()`; every request's time, sorted. */
export async function pageTimes(
  url: string,
  done: () => boolean,
  { clients = 4, headers = {} }: { clients?: number; headers?: Record<string, string> } = {},
): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!done()) {
        const started = performance.now();
        try {
          const res = await fetch(url, { headers, redirect: "manual" });
          await res.arrayBuffer();
          if (res.ok) ms.push(performance.now() - started);
          else failed++;
        } catch {
          failed++;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  return { ms: ms.sort((x, y) => x - y), failed };
}

/** Resolves `done` after `seconds`: `pageTimes(url, forSeconds(30))`. */
export const forSeconds = (seconds: number) => {
  const end = Date.now() + seconds * 1000;
  return () => Date.now() > end;
};

/**
 * Requests each target every `intervalMs`, from a process of its own (so a server that holds
 * its event loop cannot hold the probe's clock too), without waiting for the answer before the
 * next one is due. `stop()` waits for the probes in flight and gives each target's times (from
 * the moment each was due to its answer; a failed request counts as Infinity), sorted.
 */
export async function startProbe<K extends string>(
  targets: Record<K, { url: string; headers?: Record<string, string> }>,
  intervalMs = 50,
): Promise<{ stop(): Promise<Record<K, number[]>> }> {
  const code = `const targets = ${JSON.stringify(targets)}; const times = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    let inFlight = 0; let stopping = false; let first = false;
    const finish = () => process.stdout.write(JSON.stringify(times) + "\\n", () => process.exit(0));
    const probe = (name) => { const due = performance.now(); inFlight++;
      fetch(targets[name].url, { headers: targets[name].headers ?? {} }).then((r) => { if (!r.ok) throw new Error(String(r.status)); return r.arrayBuffer(); })
      .then(() => { times[name].push(performance.now() - due); }, () => { times[name].push(null); })
      .finally(() => { inFlight--; if (!first) { first = true; process.stdout.write("up\\n"); } if (stopping && !inFlight) finish(); }); };
    const timer = setInterval(() => { for (const name of Object.keys(targets)) probe(name); }, ${intervalMs});
    process.on("SIGTERM", () => { stopping = true; clearInterval(timer); if (!inFlight) finish(); });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.startsWith("up\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the probe exited with ${code}`)));
  });
  return {
    async stop() {
      await stopProcess(child);
      const times = JSON.parse(out.slice(3).trim()) as Record<K, Array<number | null>>;
      return Object.fromEntries(
        Object.entries<Array<number | null>>(times).map(([k, t]) => [k, t.map((x) => x ?? Infinity).sort((a, b) => a - b)]),
      ) as Record<K, number[]>;
    },
  };
}
