import crypto from "node:crypto";
import zlib from "node:zlib";

/**
 * Rendered public pages kept by the server (docs/decisions/007-public-page-cache.md).
 *
 * A page whose route says `handle = { publicPage: true }` shows every anonymous visitor the
 * same HTML for the same address: it reads nothing but the build, the settings and the URL.
 * Its first anonymous GET is rendered without a nonce, its inline scripts are allowed by
 * their hashes instead, and the result is kept (with its gzip and brotli forms) for `ttlMs`.
 * Signed-in visitors are never served from here.
 */

/** How long a kept page is served before it is rendered again, and what a CDN may do with it. */
export const PAGE_TTL_SECONDS = 300;
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PAGE_TTL_SECONDS}, stale-while-revalidate=86400`;

/** Addresses longer than this are rendered each time: a query string cannot fill the cache with variants. */
export const MAX_CACHED_URL_LENGTH = 512;

export interface CachedPage {
  /** The answer's own headers (Content-Type...), as rendered. */
  headers: Array<[string, string]>;
  /** The CSP sources that allow the page's inline scripts. */
  scriptHashes: string[];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
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
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
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

/** A page kept for serving: its headers as rendered, its scripts' hashes, its body in the three encodings, its ETag. */
export function keepPage(headers: Array<[string, string]>, body: Buffer, now: number): CachedPage {
  return {
    headers,
    scriptHashes: inlineScriptHashes(body.toString("utf8")),
    identity: body,
    gzip: zlib.gzipSync(body, { level: 9 }),
    br: zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    etag: `"${crypto.createHash("sha1").update(body).digest("base64url")}"`,
    storedAt: now,
  };
}

/** The kept pages by address, the least recently used dropped first; a page older than the TTL is rendered again. */
export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private readonly rendering = new Map<string, Promise<CachedPage | null>>();

  constructor(
    private readonly opts: { maxPages: number; ttlMs: number; now?: () => number } = { maxPages: 200, ttlMs: PAGE_TTL_SECONDS * 1000 },
  ) {}

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (this.now() - page.storedAt >= this.opts.ttlMs) {
      this.pages.delete(key);
      return undefined;
    }
    // Most recently used last.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: CachedPage) {
    this.pages.delete(key);
    this.pages.set(key, page);
    while (this.pages.size > this.opts.maxPages) this.pages.delete(this.pages.keys().next().value!);
  }

  /**
   * The kept page, or the one `render` makes (null: not keepable, e.g. a redirect). Visitors
   * who ask while it renders wait for that one render rather than starting their own.
   */
  async getOrRender(key: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
    const kept = this.get(key);
    if (kept) return kept;
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = render()
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
  }

  get size() {
    return this.pages.size;
  }
}
