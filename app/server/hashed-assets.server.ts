import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RequestHandler } from "express";
import { pickEncoding } from "./page-cache.server";

/**
 * The build's hashed files (`build/client/assets`), served before any other middleware: read
 * at start and compressed once just after it, then answered from memory with `immutable` and a year. Their
 * names change whenever their content does, so nothing ever needs to ask again.
 */

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt"]);
/**
 * A compressed form is kept only when it saves more than the headers it adds
 * (`Content-Encoding` and `Vary`). Files are compressed once, at start, so even a few hundred
 * bytes (the build's small chunks: an icon, a helper) are worth it.
 */
const ENCODING_HEADER_BYTES = 48;

export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

export interface Asset {
  type: string;
  etag: string;
  identity: Buffer;
  /** Worth compressing: a text type larger than the headers compression adds. */
  compressible: boolean;
  gzip?: Buffer;
  br?: Buffer;
}

/** Every file below `dir`, as its URL path below the mount point and its path on disk. */
export function* filesBelow(dir: string, prefix = ""): Generator<[string, string]> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(full, `${prefix}/${entry.name}`);
    else if (entry.isFile()) yield [`${prefix}/${entry.name}`, full];
  }
}

/** One file as it is served: its bytes; compressAsset (or compressAssetSync) adds its gzip and brotli forms. */
export function loadAsset(file: string): Asset {
  const ext = path.extname(file).toLowerCase();
  const identity = fs.readFileSync(file);
  return {
    type: TYPES[ext] ?? "application/octet-stream",
    etag: `"${crypto.createHash("sha1").update(identity).digest("base64url")}"`,
    identity,
    compressible: COMPRESSIBLE.has(ext) && identity.length > ENCODING_HEADER_BYTES,
  };
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const BROTLI_BEST = (bytes: number) => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes },
});

/** Keeps each compressed form that saves more than the headers it adds. */
function keep(asset: Asset, gz: Buffer, br: Buffer): Asset {
  if (gz.length + ENCODING_HEADER_BYTES < asset.identity.length) asset.gzip = gz;
  if (br.length + ENCODING_HEADER_BYTES < asset.identity.length) asset.br = br;
  return asset;
}

/** Brotli at its best and gzip, on libuv's threads: the server listens meanwhile (files go out uncompressed until then). */
async function compressAsset(asset: Asset): Promise<void> {
  if (!asset.compressible) return;
  const [gz, br] = await Promise.all([gzip(asset.identity, { level: 9 }), brotli(asset.identity, BROTLI_BEST(asset.identity.length))]);
  keep(asset, gz, br);
}

/** The same forms at once, for scripts that measure what the server sends (scripts/js-budget.ts). */
export function compressAssetSync(asset: Asset): Asset {
  if (!asset.compressible) return asset;
  return keep(
    asset,
    zlib.gzipSync(asset.identity, { level: 9 }),
    zlib.brotliCompressSync(asset.identity, BROTLI_BEST(asset.identity.length)),
  );
}

/**
 * Serves the files below `dir` at `/<name>` of the mount point (`app.use("/assets", hashedAssets(dir))`); anything else passes on.
 * `compressed` settles when every file's compressed forms are ready.
 */
export function hashedAssets(dir: string): RequestHandler & { compressed: Promise<void> } {
  const assets = new Map<string, Asset>();
  if (fs.existsSync(dir)) for (const [urlPath, file] of filesBelow(dir)) assets.set(urlPath, loadAsset(file));
  const compressed = Promise.all([...assets.values()].map(compressAsset)).then(() => undefined);
  const serve: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const asset = assets.get(req.path);
    if (!asset) return next();
    res.setHeader("Content-Type", asset.type);
    res.setHeader("Cache-Control", IMMUTABLE_CACHE_CONTROL);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    res.setHeader("ETag", asset.etag);
    if (asset.compressible) res.setHeader("Vary", "Accept-Encoding");
    if (req.headers["if-none-match"] === asset.etag) {
      res.status(304).end();
      return;
    }
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    const body = (encoding !== "identity" && asset[encoding]) || asset.identity;
    if (body !== asset.identity) res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    if (req.method === "HEAD") res.end();
    else res.end(body);
  };
  return Object.assign(serve, { compressed });
}
