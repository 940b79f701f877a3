import crypto from "node:crypto";
import zlib from "node:zlib";
import { promisify } from "node:util";

/**
 * Rendered public pages kept by the server (docs/decisions/007-public-page-cache.md).
 *
 * A page whose route says `handle = PUBLIC_PAGE` (or `publicPage([...its parameters])`) shows
 * every anonymous visitor the same HTML for the same address: it reads nothing but the build,
 * the settings and the parameters it names. Its first anonymous GET is rendered without a
 * nonce from the site's own address (PUBLIC_URL) and those parameters alone, its inline
 * scripts are allowed by their hashes instead, and the result is kept for `ttlMs`, compressed
 * off the main thread. Signed-in visitors are never served from here.
 *
 * The 404 page of unknown paths is kept the same way, once per menu section (`NOT_FOUND_KEY`):
 * it shows nothing else of the request, so a walk through a million unknown paths neither
 * renders a million pages nor grows the cache.
 */

/** How long a kept page is served before it is rendered again, and what a CDN may do with it. */
export const PAGE_TTL_SECONDS = 300;
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PAGE_TTL_SECONDS}, stale-while-revalidate=86400`;

/**
 * The key of the 404 page of unknown paths (it shows nothing of the request but the menu link
 * marked current: kept once per page's first segment, `not-found/contact-us`, and once for every
 * other path; an address starts with "/", so no address is such a key), and the address below
 * that segment it is rendered from.
 */
export const NOT_FOUND_KEY = "not-found";
export const NOT_FOUND_RENDER_PATH = "/__not-found__";

/** Kept addresses (path and the page's own parameters) longer than this are rendered each time. */
export const MAX_CACHED_URL_LENGTH = 512;

type Encoding = "br" | "gzip";

export interface CachedPage {
  /** The answer's status: 200 for a public page, 404 for the page of unknown paths. */
  status: number;
  /** The answer's own headers (Content-Type...), as rendered. */
  headers: Array<[string, string]>;
  /** The CSP sources that allow the page's inline scripts. */
  scriptHashes: string[];
  identity: Buffer;
  /** Brotli 11 and gzip 9, once compressed in zlib's threads (until then, `quick` serves). */
  gzip?: Buffer;
  br?: Buffer;
  /** The body compressed at a fast level, for the answers sent before the strong forms are ready. */
  quick: Partial<Record<Encoding, Promise<Buffer>>>;
  etag: string;
  storedAt: number;
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP sources of every inline script of a document: `'sha256-…'`, once each. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`'sha256-${crypto.createHash("sha256").update(match[1], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The encoding to answer with, from the request's Accept-Encoding: brotli, then gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | "identity" {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return "identity";
}

/**
 * The address a public page is kept under and rendered from: its path and, of its query,
 * only the parameters the page reads (`query`, from its handle), in that order, the first
 * value of each (what `URLSearchParams.get` reads). Any other parameter is not part of it.
 */
export function keptPageAddress(pathname: string, search: URLSearchParams, query: readonly string[]): string {
  const kept = new URLSearchParams();
  for (const name of query) {
    const value = search.get(name);
    if (value !== null) kept.append(name, value);
  }
  const text = kept.toString();
  return text ? `${pathname}?${text}` : pathname;
}

// zlib's callback API compresses in libuv's thread pool: the event loop goes on answering.
const gzipAsync = promisify(zlib.gzip);
const brotliAsync = promisify(zlib.brotliCompress);

function compress(body: Buffer, encoding: Encoding, strong: boolean): Promise<Buffer> {
  if (encoding === "gzip") return gzipAsync(body, { level: strong ? 9 : 6 });
  return brotliAsync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: strong ? 11 : 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/**
 * A page kept for serving: its headers as rendered, its scripts' hashes, its body, its ETag.
 * Its brotli and gzip forms come later (`compressStrongly`, which the cache runs one page at
 * a time off the main thread); meanwhile `bodyFor` compresses it at a fast level, once.
 */
export function keepPage(headers: Array<[string, string]>, body: Buffer, now: number, status = 200): CachedPage {
  return {
    status,
    headers,
    scriptHashes: inlineScriptHashes(body.toString("utf8")),
    identity: body,
    quick: {},
    etag: `"${crypto.createHash("sha1").update(body).digest("base64url")}"`,
    storedAt: now,
  };
}

/** Brotli 11 and gzip 9 of a kept page, computed in zlib's threads. */
export async function compressStrongly(page: CachedPage): Promise<void> {
  const [br, gzip] = await Promise.all([compress(page.identity, "br", true), compress(page.identity, "gzip", true)]);
  page.br = br;
  page.gzip = gzip;
  page.quick = {};
}

/** The kept page's body in an encoding: the strong form when ready, else a fast one (compressed once, off the main thread). */
export function bodyFor(page: CachedPage, encoding: Encoding | "identity"): Buffer | Promise<Buffer> {
  if (encoding === "identity") return page.identity;
  const strong = page[encoding];
  if (strong) return strong;
  return (page.quick[encoding] ??= compress(page.identity, encoding, false));
}

/**
 * Turns of the event loop given to the network between two renders. Node (libuv) accepts one
 * waiting connection per turn: were every turn to run a render, a connection arriving behind
 * twenty others (a health check, say) would wait for twenty renders before it is even read.
 */
export const NETWORK_TURNS_BETWEEN_RENDERS = 64;

/** Resolves after the event loop has turned `NETWORK_TURNS_BETWEEN_RENDERS` times: connections waiting for it are accepted and read. */
async function nextTurnOfTheLoop(): Promise<void> {
  for (let turn = 0; turn < NETWORK_TURNS_BETWEEN_RENDERS; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const pageBytes = (page: CachedPage) => page.identity.length + (page.br?.length ?? 0) + (page.gzip?.length ?? 0);

/**
 * The kept pages by address, the least recently used dropped first beyond `maxPages` pages or
 * `maxBytes` bytes (all encodings counted); a page older than the TTL is rendered again.
 * Kept pages are compressed strongly one at a time, in zlib's threads, so a burst of new
 * addresses neither blocks the event loop nor fills the thread pool.
 */
export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private readonly rendering = new Map<string, Promise<CachedPage | null>>();
  private readonly opts: { maxPages: number; maxBytes: number; ttlMs: number; now?: () => number };
  private bytes = 0;
  private compressing: Promise<void> = Promise.resolve();
  /** Renders of pages not kept, one at a time: the others wait their turn (see `getOrRender`). */
  private renderTurn: Promise<unknown> = Promise.resolve();
  /** Look-ups answered from a kept page, and those that found none (GET /metrics). */
  readonly lookups = { kept: 0, missed: 0 };

  constructor(opts: { maxPages?: number; maxBytes?: number; ttlMs?: number; now?: () => number } = {}) {
    this.opts = { maxPages: 200, maxBytes: 64 * 1024 * 1024, ttlMs: PAGE_TTL_SECONDS * 1000, ...opts };
  }

  /**
   * Runs a render after the renders before it. React renders a page in one piece of work on the
   * main thread, and every render started in the same turn of the event loop runs back to back
   * before the next request is even read: twenty new addresses at once would hold /healthz for
   * twenty renders. One at a time, every other request is answered between two renders.
   */
  private inTurn<T>(render: () => Promise<T>): Promise<T> {
    const run = this.renderTurn.then(nextTurnOfTheLoop).then(render);
    this.renderTurn = run.catch(() => undefined);
    return run;
  }

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  private drop(key: string) {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.bytes -= pageBytes(page);
  }

  private trim() {
    while (this.pages.size > this.opts.maxPages || (this.bytes > this.opts.maxBytes && this.pages.size > 0)) {
      this.drop(this.pages.keys().next().value!);
    }
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) {
      this.lookups.missed++;
      return undefined;
    }
    if (this.now() - page.storedAt >= this.opts.ttlMs) {
      this.drop(key);
      this.lookups.missed++;
      return undefined;
    }
    this.lookups.kept++;
    // Most recently used last.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: CachedPage) {
    this.drop(key);
    this.pages.set(key, page);
    this.bytes += pageBytes(page);
    this.trim();
    if (!page.br || !page.gzip) this.compressLater(key, page);
  }

  /** Queues the page's brotli 11 and gzip 9 behind the pages before it; a page dropped meanwhile is skipped. */
  private compressLater(key: string, page: CachedPage) {
    this.compressing = this.compressing.then(async () => {
      if (this.pages.get(key) !== page) return;
      try {
        await compressStrongly(page);
      } catch {
        return; // The fast forms go on serving it.
      }
      if (this.pages.get(key) !== page) return;
      this.bytes += (page.br?.length ?? 0) + (page.gzip?.length ?? 0);
      this.trim();
    });
  }

  /** Resolves when every kept page queued so far has its strong forms (tests, benchmarks). */
  whenCompressed(): Promise<void> {
    return this.compressing;
  }

  /**
   * The kept page, or the one `render` makes (null: not keepable, e.g. a redirect). Visitors
   * who ask while it renders wait for that one render rather than starting their own, and
   * renders of different addresses take turns.
   */
  async getOrRender(key: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
    const kept = this.get(key);
    if (kept) return kept;
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.inTurn(render)
        .then((page) => {
          if (page) this.set(key, page);
          return page;
        })
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  clear() {
    this.pages.clear();
    this.bytes = 0;
  }

  get size() {
    return this.pages.size;
  }

  /** The bytes the kept pages hold, every encoding counted. */
  get byteSize() {
    return this.bytes;
  }
}
