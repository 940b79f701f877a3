import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { bodyFor, compressStrongly, inlineScriptHashes, keepPage, keptPageAddress, PageCache, pickEncoding } from "./page-cache.server";

const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("kept public pages", () => {
  it("hashes every inline script once, and no script loaded from a file", () => {
    const html =
      '<html><script>window.__ctx = {"a":1};</script><script type="module">import "/assets/entry.js";</script>' +
      '<script src="/assets/x.js"></script><SCRIPT nonce="n">window.__ctx = {"a":1};</SCRIPT><script type="application/ld+json">{}</script></html>';
    expect(inlineScriptHashes(html)).toEqual([sha('window.__ctx = {"a":1};'), sha('import "/assets/entry.js";'), sha("{}")]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });

  it("answers brotli, then gzip, as the browser accepts them", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip, deflate")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(undefined)).toBe("identity");
  });

  it("keeps the body in three encodings that decode to the same page, fast ones until the strong ones are ready, with an ETag of its content", async () => {
    const body = Buffer.from(`<!DOCTYPE html><html><body>${"Home protection ".repeat(200)}<script>go()</script></body></html>`);
    const page = keepPage([["content-type", "text/html; charset=utf-8"]], body, 1);
    expect(page.br).toBeUndefined();
    const quickBr = bodyFor(page, "br");
    expect(bodyFor(page, "br")).toBe(quickBr); // compressed once
    expect(zlib.brotliDecompressSync(await quickBr).equals(body)).toBe(true);
    expect(zlib.gunzipSync(await bodyFor(page, "gzip")).equals(body)).toBe(true);
    expect(bodyFor(page, "identity")).toBe(body);
    await compressStrongly(page);
    expect(bodyFor(page, "br")).toBe(page.br);
    expect(zlib.gunzipSync(page.gzip!).equals(body)).toBe(true);
    expect(zlib.brotliDecompressSync(page.br!).equals(body)).toBe(true);
    expect(page.br!.length).toBeLessThan(body.length / 5);
    expect(page.scriptHashes).toEqual([sha("go()")]);
    expect(keepPage([], Buffer.from(body), 2).etag).toBe(page.etag);
    expect(keepPage([], Buffer.from("other"), 2).etag).not.toBe(page.etag);
  });

  it("keys a page by its path and the parameters it reads, in its order, the first value of each", () => {
    const query = ["homePrice", "loanTerm"];
    const key = (search: string) => keptPageAddress("/mortgage-calculator", new URLSearchParams(search), query);
    expect(key("")).toBe("/mortgage-calculator");
    expect(key("utm_source=mail&fbclid=1")).toBe("/mortgage-calculator");
    expect(key("loanTerm=15&x=1&homePrice=400000")).toBe("/mortgage-calculator?homePrice=400000&loanTerm=15");
    expect(key("homePrice=400000&loanTerm=15")).toBe(key("loanTerm=15&homePrice=400000"));
    expect(key("homePrice=1&homePrice=2")).toBe("/mortgage-calculator?homePrice=1");
    expect(key("homePrice=a%26b")).toBe("/mortgage-calculator?homePrice=a%26b");
    expect(keptPageAddress("/about-us", new URLSearchParams("homePrice=1"), [])).toBe("/about-us");
  });

  it("holds at most its size in bytes, the least recently used dropped first, and compresses what it keeps", async () => {
    const cache = new PageCache({ maxPages: 100, maxBytes: 2500, ttlMs: 60_000, now: () => 0 });
    const page = (n: number) => keepPage([], Buffer.from(`${n}`.repeat(1000)), 0);
    cache.set("/1", page(1));
    cache.set("/2", page(2));
    await cache.whenCompressed();
    expect(cache.get("/1")?.br).toBeDefined();
    expect(cache.byteSize).toBeLessThanOrEqual(2500);
    cache.set("/3", page(3));
    await cache.whenCompressed();
    expect(cache.get("/2")).toBeUndefined();
    expect(cache.get("/1")).toBeDefined();
    expect(cache.get("/3")).toBeDefined();
    expect(cache.byteSize).toBeLessThanOrEqual(2500);
  });

  it("serves a page for its time to live, drops the least recently used beyond its size, and renders once for visitors who ask together", async () => {
    let now = 0;
    const cache = new PageCache({ maxPages: 2, ttlMs: 1000, now: () => now });
    const page = (n: number) => keepPage([], Buffer.from(`page ${n}`), now);
    cache.set("/a", page(1));
    cache.set("/b", page(2));
    expect(cache.get("/a")?.identity.toString()).toBe("page 1"); // /a is now the most recent
    cache.set("/c", page(3));
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    now = 999;
    expect(cache.get("/a")).toBeDefined();
    now = 1000;
    expect(cache.get("/a")).toBeUndefined();

    let renders = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const render = async () => {
      renders++;
      await held;
      return page(4);
    };
    const waiting = Promise.all([cache.getOrRender("/d", render), cache.getOrRender("/d", render), cache.getOrRender("/d", render)]);
    release();
    const pages = await waiting;
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
    expect(await cache.getOrRender("/d", render)).toBe(pages[0]);
    expect(renders).toBe(1);

    // A render that is not kept (a redirect) is not remembered: the next visitor renders again.
    expect(await cache.getOrRender("/e", async () => (renders++, null))).toBeNull();
    expect(await cache.getOrRender("/e", async () => (renders++, null))).toBeNull();
    expect(renders).toBe(3);
  });
});
