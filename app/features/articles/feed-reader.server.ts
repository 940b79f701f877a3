import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { FeedParseError } from "./parse-feed.server";
import type { FeedRead } from "./read-feed.server";

export interface ReadRequest {
  id: number;
  body: Uint8Array;
  contentType: string | null;
  url: string;
  feedName: string;
  now: number;
}
export type ReadAnswer = { id: number; read: FeedRead } | { id: number; error: { name: string; message: string } };

/**
 * Reads feeds in a thread of its own (feed-reader.worker.ts), so an ingest's parsing runs on
 * the other core while this thread fetches feeds, writes articles and answers requests. One
 * thread for the process, started at the first read and kept (it does not keep the process
 * alive while idle). A thread that dies fails the reads it held, and the next read starts a
 * new one. Its heap is not capped (resourceLimits): the fetch already caps a feed at 5 MB, and
 * a thread that runs out of a capped heap can abort the whole process (seen in a test).
 */
export class FeedReader {
  private current: { worker: Worker; pending: Map<number, (answer: ReadAnswer | Error) => void> } | null = null;
  private nextId = 0;

  read(body: Uint8Array, contentType: string | null, url: string, feedName: string, now = Date.now()): Promise<FeedRead> {
    const thread = this.current ?? this.start();
    const id = ++this.nextId;
    return new Promise<FeedRead>((resolve, reject) => {
      thread.pending.set(id, (answer) => {
        if (answer instanceof Error) reject(answer);
        else if ("error" in answer)
          reject(answer.error.name === "FeedParseError" ? new FeedParseError(answer.error.message) : new Error(answer.error.message));
        else resolve(answer.read);
      });
      if (thread.pending.size === 1) thread.worker.ref();
      thread.worker.postMessage({ id, body, contentType, url, feedName, now } satisfies ReadRequest);
    });
  }

  /** Stops the thread (reads in flight fail). */
  async close() {
    const thread = this.current;
    this.current = null;
    await thread?.worker.terminate();
  }

  private start() {
    const worker = readerThread();
    const thread = { worker, pending: new Map<number, (answer: ReadAnswer | Error) => void>() };
    const settle = (id: number, answer: ReadAnswer | Error) => {
      const done = thread.pending.get(id);
      thread.pending.delete(id);
      if (!thread.pending.size) worker.unref();
      done?.(answer);
    };
    const fail = (err: Error) => {
      if (this.current === thread) this.current = null;
      for (const id of [...thread.pending.keys()]) settle(id, err);
    };
    worker.on("message", (answer: ReadAnswer) => settle(answer.id, answer));
    worker.on("error", (err) => fail(new Error(`The feed could not be read: ${err.message}`)));
    worker.on("exit", (code) => fail(new Error(`The feed reader stopped (exit code ${code})`)));
    worker.unref();
    this.current = thread;
    return thread;
  }
}

/** The built thread's URL: set by the server build (vite-worker-url.ts), undefined when running from source. */
declare const FEED_READER_WORKER_URL: string | undefined;

/**
 * The thread runs the built feed-reader.worker.js in the server build, and the TypeScript
 * source, loaded through tsx, when this module runs from source (tests, benchmarks, `npm run dev`).
 */
function readerThread(): Worker {
  if (typeof FEED_READER_WORKER_URL === "string") return new Worker(new URL(FEED_READER_WORKER_URL));
  const entry = new URL("feed-reader.worker.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true });
}

/** tsx's ESM API (require.resolve would give its CommonJS build, which cannot register hooks from an ESM import). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifest), exports["./esm/api"].import.default)).href;
}

/** The process's one feed reader. */
export const feedReader = new FeedReader();
