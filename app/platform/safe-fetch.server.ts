import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { classifyAddress, literalHostAddress, refusedMessage, type AddressVerdict } from "./ip-policy.server";

/**
 * Fetches a feed URL from the server, safely: http/https only, every address checked before
 * connecting (the address checked is the one dialled: DNS is resolved once, inside the
 * socket's own lookup), on every redirect; bounded time, redirects and body size; conditional
 * GET with the validators of the last fetch.
 */

export interface SafeFetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Tests and local use only: lets feeds on private addresses through. */
  allowPrivateHosts: boolean;
  userAgent: string;
  /** Which addresses may be dialled (default: public unicast only). Tests narrow it to prove each check runs. */
  addressPolicy?: (address: string) => AddressVerdict;
}

export const DEFAULT_FETCH_LIMITS: SafeFetchLimits = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  allowPrivateHosts: false,
  userAgent: "AHA-KnowledgeCenter/1.0 (feed reader)",
};

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchResult =
  | { status: "not-modified"; url: string; validators: Validators }
  | { status: "ok"; url: string; body: Buffer; contentType: string | null; validators: Validators };

/** A failure with a message fit for the admin's "last error" column. */
export class FeedFetchError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "FeedFetchError";
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "application/rss+xml, application/atom+xml, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5";

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

const formatSeconds = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`);

export class SafeFetcher {
  private httpAgent: http.Agent;
  private httpsAgent: https.Agent;
  private lookup: LookupFunction;

  constructor(readonly limits: SafeFetchLimits = DEFAULT_FETCH_LIMITS) {
    this.lookup = checkedLookup(limits.allowPrivateHosts, limits.addressPolicy);
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 8 });
  }

  /** Closes pooled connections (on shutdown). */
  close() {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async fetch(rawUrl: string, validators: Validators, signal?: AbortSignal): Promise<FetchResult> {
    const { timeoutMs, maxRedirects } = this.limits;
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(new FeedFetchError("Ingest was stopped"));
    signal?.addEventListener("abort", onOuterAbort, { once: true });
    if (signal?.aborted) onOuterAbort();
    const timer = setTimeout(() => controller.abort(new FeedFetchError(`Timed out after ${formatSeconds(timeoutMs)}`)), timeoutMs);
    try {
      let url = this.checkUrl(rawUrl);
      for (let redirects = 0; ; redirects++) {
        const res = await this.request(url, redirects === 0 ? validators : { etag: null, lastModified: null }, controller.signal);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.resume();
          const location = res.headers.location;
          if (!location) throw new FeedFetchError(`HTTP ${status} redirect without a Location header`);
          if (redirects >= maxRedirects) throw new FeedFetchError(`Too many redirects (more than ${maxRedirects})`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new FeedFetchError(`Redirected to an invalid URL: ${location.slice(0, 200)}`);
          }
          url = this.checkUrl(next.href);
          continue;
        }
        const got: Validators = {
          etag: headerValue(res.headers.etag),
          lastModified: headerValue(res.headers["last-modified"]),
        };
        if (status === 304) {
          res.resume();
          // A 304 may omit the validators; keep the ones that earned it.
          return {
            status: "not-modified",
            url: url.href,
            validators: { etag: got.etag ?? validators.etag, lastModified: got.lastModified ?? validators.lastModified },
          };
        }
        if (status < 200 || status >= 300) {
          res.resume();
          throw new FeedFetchError(`HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ""}`);
        }
        const body = await this.readBody(res, controller.signal);
        return { status: "ok", url: url.href, body, contentType: headerValue(res.headers["content-type"]), validators: got };
      }
    } catch (err) {
      if (controller.signal.aborted && controller.signal.reason instanceof FeedFetchError) throw controller.signal.reason;
      throw toFetchError(err, rawUrl);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onOuterAbort);
    }
  }

  /** Only http/https; an IP literal is judged here (no DNS lookup happens for it). */
  private checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new FeedFetchError("The feed URL is not a valid URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new FeedFetchError(`Only http and https URLs are allowed (got ${url.protocol.replace(/:$/, "")})`);
    }
    if (url.username || url.password) throw new FeedFetchError("URLs with a user name or password are not allowed");
    const literal = literalHostAddress(url);
    if (literal && !this.limits.allowPrivateHosts) {
      const verdict = (this.limits.addressPolicy ?? classifyAddress)(literal);
      if (!verdict.allowed) throw new FeedFetchError(refusedMessage(literal, literal, verdict.reason));
    }
    return url;
  }

  private request(url: URL, validators: Validators, signal: AbortSignal): Promise<http.IncomingMessage> {
    const isHttps = url.protocol === "https:";
    const headers: Record<string, string> = {
      "User-Agent": this.limits.userAgent,
      Accept: ACCEPT,
      "Accept-Encoding": "gzip, deflate, br",
    };
    if (validators.etag) headers["If-None-Match"] = validators.etag;
    if (validators.lastModified) headers["If-Modified-Since"] = validators.lastModified;
    return new Promise((resolve, reject) => {
      const req = (isHttps ? https : http).request(
        url,
        { method: "GET", headers, agent: isHttps ? this.httpsAgent : this.httpAgent, lookup: this.lookup, signal },
        resolve,
      );
      req.on("error", reject);
      req.end();
    });
  }

  /** Reads at most maxBytes of (decompressed) body; stops reading as soon as it is over. */
  private readBody(res: http.IncomingMessage, signal: AbortSignal): Promise<Buffer> {
    const { maxBytes } = this.limits;
    const tooLarge = () => new FeedFetchError(`Feed is larger than ${formatBytes(maxBytes)}`);
    const declared = Number(res.headers["content-length"]);
    const encoding = String(res.headers["content-encoding"] ?? "")
      .trim()
      .toLowerCase();
    if (Number.isFinite(declared) && declared > maxBytes && (!encoding || encoding === "identity")) {
      res.destroy();
      return Promise.reject(tooLarge());
    }
    let stream: Readable = res;
    if (encoding === "gzip" || encoding === "x-gzip") stream = res.pipe(zlib.createGunzip());
    else if (encoding === "deflate") stream = res.pipe(zlib.createInflate());
    else if (encoding === "br") stream = res.pipe(zlib.createBrotliDecompress());
    else if (encoding && encoding !== "identity") {
      res.destroy();
      return Promise.reject(new FeedFetchError(`Unsupported content encoding: ${encoding.slice(0, 40)}`));
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      let done = false;
      const fail = (err: unknown) => {
        if (done) return;
        done = true;
        res.destroy();
        if (stream !== res) stream.destroy();
        reject(err);
      };
      signal.addEventListener("abort", () => fail(signal.reason), { once: true });
      stream.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      stream.on("error", (err) => fail(err));
      res.on("error", (err) => fail(err));
      res.on("aborted", () => fail(new FeedFetchError("The connection closed before the feed was complete")));
      stream.on("end", () => {
        if (done) return;
        done = true;
        resolve(Buffer.concat(chunks, total));
      });
    });
  }
}

function headerValue(v: string | string[] | undefined): string | null {
  const s = Array.isArray(v) ? v[0] : v;
  return s ? s.slice(0, 500) : null;
}

/**
 * dns.lookup (all addresses, once), every address checked, and the socket connects to the
 * checked addresses: no second resolution that an attacker's DNS could answer differently.
 */
export function checkedLookup(allowPrivateHosts: boolean, policy: (address: string) => AddressVerdict = classifyAddress): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (!addresses.length) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      if (!allowPrivateHosts) {
        for (const a of addresses) {
          const verdict = policy(a.address);
          if (!verdict.allowed) return callback(new FeedFetchError(refusedMessage(hostname, a.address, verdict.reason)), "", 0);
        }
      }
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function toFetchError(err: unknown, url: string): FeedFetchError {
  if (err instanceof FeedFetchError) return err;
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  if (e?.cause instanceof FeedFetchError) return e.cause;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    /* keep the raw text */
  }
  switch (e?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new FeedFetchError(`Could not resolve host ${host}`, { cause: err });
    case "ECONNREFUSED":
      return new FeedFetchError(`Connection refused by ${host}`, { cause: err });
    case "ECONNRESET":
    case "EPIPE":
      return new FeedFetchError(`Connection reset by ${host}`, { cause: err });
    case "ETIMEDOUT":
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return new FeedFetchError(`Could not reach ${host}`, { cause: err });
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
    case "ERR_BROTLI_DECOMPRESSION_FAILED":
      return new FeedFetchError("The feed's compressed body is corrupt", { cause: err });
    case "HPE_HEADER_OVERFLOW":
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_HEADER_TOKEN":
      return new FeedFetchError(`Invalid HTTP response from ${host}`, { cause: err });
  }
  if (e?.code?.startsWith?.("ERR_TLS") || e?.code?.includes?.("CERT") || e?.code === "EPROTO") {
    return new FeedFetchError(`TLS error with ${host}: ${e.message}`, { cause: err });
  }
  return new FeedFetchError(`Fetch failed: ${e?.message ?? String(err)}`, { cause: err });
}
