import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { endsWithTheFile } from "./loaded-machine";

/**
 * A local HTTP server that behaves like the feed hosts out there, for ingest tests and the
 * ingest benchmark. Routes:
 *   /feeds/<file>            a fixture from tests/fixtures/feeds, with ETag and Last-Modified (304 on a match)
 *   /plain/<file>            the same without validators
 *   /gzip/<file>             gzip-compressed
 *   /dynamic/<name>          a body the test sets with setDynamic() (ETag follows the body)
 *   /redirect/<n>/<rest>     n redirects (302), then /<rest>
 *   /redirect-to?url=...     one redirect to any URL
 *   /loop                    a redirect loop
 *   /slow?ms=...             answers after ms milliseconds (default 5000)
 *   /drip                    sends headers, then one byte every 200 ms, forever
 *   /huge?bytes=...          a chunked body of that size (default 6 MB), no Content-Length
 *   /huge-declared           Content-Length of 6 MB, announced up front
 *   /status/<code>           that status
 *   /ctype/<file>?type=...   a fixture with the given Content-Type
 * Every request is logged (path and the conditional headers) in `requests`.
 */

export const FIXTURES_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../fixtures/feeds");

export interface LoggedRequest {
  path: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  status?: number;
}

export interface FeedServer {
  url: string;
  port: number;
  requests: LoggedRequest[];
  /** The most requests this server was answering at the same moment (reset it to 0 to measure). */
  maxInFlight: number;
  /** Sets the body served at /dynamic/<name> (validators: ETag/Last-Modified and 304s; off = like /plain). */
  setDynamic(name: string, body: string | Buffer, contentType?: string, opts?: { validators?: boolean }): void;
  /** Requests whose path starts with prefix. */
  hits(prefix: string): LoggedRequest[];
  close(): Promise<void>;
}

const LAST_MODIFIED = "Tue, 05 Mar 2024 14:12:09 GMT";

function contentTypeFor(file: string): string {
  if (file.endsWith(".json")) return "application/feed+json";
  if (file.endsWith(".html")) return "text/html; charset=utf-8";
  if (file.endsWith(".atom")) return "application/atom+xml";
  // Like many real hosts: no charset, so the XML declaration decides.
  return "application/rss+xml";
}

const etagOf = (body: Buffer) => `"${crypto.createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;

export async function startFeedServer(opts: { host?: string; fixturesDir?: string } = {}): Promise<FeedServer> {
  const fixturesDir = opts.fixturesDir ?? FIXTURES_DIR;
  const requests: LoggedRequest[] = [];
  const dynamic = new Map<string, { body: Buffer; type: string; validators: boolean }>();
  const timers = new Set<NodeJS.Timeout>();
  const api = { maxInFlight: 0 } as FeedServer;

  const readFixture = (name: string): Buffer | null => {
    const file = path.join(fixturesDir, path.basename(name));
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  };

  const sendWithValidators = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, type: string, log: LoggedRequest) => {
    const etag = etagOf(body);
    res.setHeader("ETag", etag);
    res.setHeader("Last-Modified", LAST_MODIFIED);
    if (req.headers["if-none-match"] === etag || (!req.headers["if-none-match"] && req.headers["if-modified-since"] === LAST_MODIFIED)) {
      log.status = 304;
      res.writeHead(304).end();
      return;
    }
    log.status = 200;
    res.writeHead(200, { "Content-Type": type, "Content-Length": body.length }).end(body);
  };

  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    api.maxInFlight = Math.max(api.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const url = new URL(req.url ?? "/", "http://localhost");
    const p = url.pathname;
    const log: LoggedRequest = {
      path: p,
      ifNoneMatch: req.headers["if-none-match"] as string | undefined,
      ifModifiedSince: req.headers["if-modified-since"] as string | undefined,
    };
    requests.push(log);
    const notFound = () => {
      log.status = 404;
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    };

    let m: RegExpExecArray | null;
    if ((m = /^\/feeds\/(.+)$/.exec(p))) {
      const body = readFixture(m[1]);
      return body ? sendWithValidators(req, res, body, contentTypeFor(m[1]), log) : notFound();
    }
    if ((m = /^\/plain\/(.+)$/.exec(p))) {
      const body = readFixture(m[1]);
      if (!body) return notFound();
      log.status = 200;
      return res.writeHead(200, { "Content-Type": contentTypeFor(m[1]) }).end(body);
    }
    if ((m = /^\/ctype\/(.+)$/.exec(p))) {
      const body = readFixture(m[1]);
      if (!body) return notFound();
      log.status = 200;
      return res.writeHead(200, { "Content-Type": url.searchParams.get("type") ?? "text/xml" }).end(body);
    }
    if ((m = /^\/gzip\/(.+)$/.exec(p))) {
      const body = readFixture(m[1]);
      if (!body) return notFound();
      log.status = 200;
      return res.writeHead(200, { "Content-Type": contentTypeFor(m[1]), "Content-Encoding": "gzip" }).end(zlib.gzipSync(body));
    }
    if ((m = /^\/dynamic\/(.+)$/.exec(p))) {
      const entry = dynamic.get(m[1]);
      if (!entry) return notFound();
      if (entry.validators) return sendWithValidators(req, res, entry.body, entry.type, log);
      log.status = 200;
      return res.writeHead(200, { "Content-Type": entry.type, "Content-Length": entry.body.length }).end(entry.body);
    }
    if ((m = /^\/redirect\/(\d+)\/(.+)$/.exec(p))) {
      const n = Number(m[1]);
      log.status = 302;
      return res.writeHead(302, { Location: n > 1 ? `/redirect/${n - 1}/${m[2]}` : `/${m[2]}` }).end();
    }
    if (p === "/redirect-to") {
      log.status = 302;
      return res.writeHead(302, { Location: url.searchParams.get("url") ?? "/" }).end();
    }
    if (p === "/loop" || p === "/loop2") {
      log.status = 301;
      return res.writeHead(301, { Location: p === "/loop" ? "/loop2" : "/loop" }).end();
    }
    if (p === "/slow") {
      const t = setTimeout(
        () => {
          timers.delete(t);
          if (res.destroyed) return;
          const body = readFixture("wordpress.xml")!;
          log.status = 200;
          res.writeHead(200, { "Content-Type": "application/rss+xml" }).end(body);
        },
        Number(url.searchParams.get("ms") ?? 5000),
      );
      timers.add(t);
      return;
    }
    if (p === "/drip") {
      log.status = 200;
      res.writeHead(200, { "Content-Type": "application/rss+xml" });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Drip</title>');
      const t = setInterval(() => {
        if (res.destroyed) {
          clearInterval(t);
          timers.delete(t);
          return;
        }
        res.write(" ");
      }, 200);
      timers.add(t);
      return;
    }
    if (p === "/huge") {
      const total = Number(url.searchParams.get("bytes") ?? 6 * 1024 * 1024);
      log.status = 200;
      res.writeHead(200, { "Content-Type": "application/rss+xml" });
      const chunk = Buffer.alloc(64 * 1024, " ");
      let sent = 0;
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title><description>');
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end("</description></channel></rss>");
      };
      pump();
      return;
    }
    if (p === "/huge-declared") {
      log.status = 200;
      res.writeHead(200, { "Content-Type": "application/rss+xml", "Content-Length": 6 * 1024 * 1024 });
      res.write("<rss>");
      // Never sends the rest: a client that trusts the header has already given up.
      return;
    }
    if ((m = /^\/status\/(\d{3})$/.exec(p))) {
      log.status = Number(m[1]);
      return res.writeHead(Number(m[1]), { "Content-Type": "text/plain" }).end(`status ${m[1]}`);
    }
    notFound();
  });

  await new Promise<void>((resolve) => server.listen(0, opts.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const rest: Omit<FeedServer, "maxInFlight"> = {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    requests,
    setDynamic(name, body, contentType = "application/rss+xml", opts = {}) {
      dynamic.set(name, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type: contentType, validators: opts.validators ?? true });
    },
    hits(prefix) {
      return requests.filter((r) => r.path.startsWith(prefix));
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return endsWithTheFile(Object.assign(api, rest));
}
