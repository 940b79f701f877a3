import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashedAssets, IMMUTABLE_CACHE_CONTROL } from "./hashed-assets.server";

let server: http.Server;
let base: string;
let dir: string;
const script = `export const plan = ${JSON.stringify("home protection ".repeat(300))};\n`;
/** A chunk of a few hundred bytes, like one of the build's icons. */
const icon = `import{c as a}from"./createLucideIcon-x.js";const e=[["path",{d:"M15 21v-8a1 1 0 0 0-1-1h-4a1 1 0 0 0-1 1v8",key:"5wwlr5"}],["path",{d:"M3 10a2 2 0 0 1 .709-1.528l7-6a2 2 0 0 1 2.582 0l7 6A2 2 0 0 1 21 10v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z",key:"r6nss1"}]],o=a("house",e);export{o as H};\n`;

function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-assets-"));
  fs.writeFileSync(path.join(dir, "entry-AbC123.js"), script);
  fs.writeFileSync(path.join(dir, "tiny-x1.css"), "a{color:red}");
  fs.writeFileSync(path.join(dir, "house-Q7.js"), icon);
  fs.mkdirSync(path.join(dir, "img"));
  fs.writeFileSync(path.join(dir, "img", "logo-9f.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const app = express();
  const assets = hashedAssets(dir);
  await assets.compressed;
  app.use("/assets", assets);
  app.use((_req, res) => res.status(404).send("not here"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("hashed build files", () => {
  it("are immutable for a year, typed, and compressed as the browser accepts", async () => {
    const br = await get(`${base}/assets/entry-AbC123.js`, { "accept-encoding": "gzip, br" });
    expect(br.status).toBe(200);
    expect(br.headers["cache-control"]).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["x-content-type-options"]).toBe("nosniff");
    expect(br.headers["vary"]).toBe("Accept-Encoding");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);

    const gzip = await get(`${base}/assets/entry-AbC123.js`, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(script);

    const plain = await get(`${base}/assets/entry-AbC123.js`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it("compresses a chunk of a few hundred bytes too: compressed once, it saves more than its headers", async () => {
    expect(icon.length).toBeLessThan(1024);
    const br = await get(`${base}/assets/house-Q7.js`, { "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.length).toBeLessThan(icon.length - 48);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(icon);
  });

  it("sends a file too small to gain from compression as it is, and files in folders", async () => {
    const tiny = await get(`${base}/assets/tiny-x1.css`, { "accept-encoding": "br" });
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe("a{color:red}");
    const png = await get(`${base}/assets/img/logo-9f.png`, { "accept-encoding": "br" });
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["content-encoding"]).toBeUndefined();
  });

  it("answers a repeat with 304 and HEAD without a body; anything else passes on", async () => {
    const first = await get(`${base}/assets/entry-AbC123.js`);
    const again = await get(`${base}/assets/entry-AbC123.js`, { "if-none-match": first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get(`${base}/assets/entry-AbC123.js`, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get(`${base}/assets/missing.js`)).status).toBe(404);
    expect((await get(`${base}/assets/entry-AbC123.js`, {}, "DELETE")).status).toBe(404);
    expect((await get(`${base}/assets/../entry-AbC123.js`)).status).toBe(404);
  });
});
