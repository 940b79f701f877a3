import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeedServer, type FeedServer } from "../../tests/support/feed-server";
import { classifyAddress } from "./ip-policy.server";
import { checkedLookup, DEFAULT_FETCH_LIMITS, FeedFetchError, SafeFetcher, type SafeFetchLimits } from "./safe-fetch.server";

const none = { etag: null, lastModified: null };

describe("SafeFetcher against a local feed server", () => {
  let feeds: FeedServer;
  let fetcher: SafeFetcher;
  const make = (limits: Partial<SafeFetchLimits> = {}) =>
    new SafeFetcher({ ...DEFAULT_FETCH_LIMITS, allowPrivateHosts: true, timeoutMs: 1500, ...limits });

  beforeAll(async () => {
    feeds = await startFeedServer();
    fetcher = make();
  });
  afterAll(async () => {
    fetcher.close();
    await feeds.close();
  });

  it("fetches a feed and hands back its validators", async () => {
    const res = await fetcher.fetch(`${feeds.url}/feeds/wordpress.xml`, none);
    expect(res.status).toBe("ok");
    if (res.status !== "ok") return;
    expect(res.body.toString("utf8")).toContain("Handy Home Journal");
    expect(res.contentType).toBe("application/rss+xml");
    expect(res.validators.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(res.validators.lastModified).toBe("Tue, 05 Mar 2024 14:12:09 GMT");
  });

  it("sends If-None-Match / If-Modified-Since and reads a 304 as not modified", async () => {
    const first = await fetcher.fetch(`${feeds.url}/feeds/blogger.xml`, none);
    if (first.status !== "ok") throw new Error("expected a body");
    const second = await fetcher.fetch(`${feeds.url}/feeds/blogger.xml`, first.validators);
    expect(second).toEqual({ status: "not-modified", url: `${feeds.url}/feeds/blogger.xml`, validators: first.validators });
    const last = feeds.hits("/feeds/blogger.xml").at(-1)!;
    expect(last).toMatchObject({ ifNoneMatch: first.validators.etag, ifModifiedSince: first.validators.lastModified, status: 304 });
  });

  it("follows up to 5 redirects and reports the final URL", async () => {
    const res = await fetcher.fetch(`${feeds.url}/redirect/5/feeds/medium.xml`, none);
    expect(res.status).toBe("ok");
    expect(res.url).toBe(`${feeds.url}/feeds/medium.xml`);
  });

  it("gives up after 5 redirects, and on a redirect loop", async () => {
    await expect(fetcher.fetch(`${feeds.url}/redirect/6/feeds/medium.xml`, none)).rejects.toThrow(
      new FeedFetchError("Too many redirects (more than 5)"),
    );
    await expect(fetcher.fetch(`${feeds.url}/loop`, none)).rejects.toThrow(new FeedFetchError("Too many redirects (more than 5)"));
  });

  it("times out a server that does not answer, or answers too slowly", async () => {
    const quick = make({ timeoutMs: 300 });
    try {
      await expect(quick.fetch(`${feeds.url}/slow?ms=5000`, none)).rejects.toThrow(new FeedFetchError("Timed out after 300 ms"));
      await expect(quick.fetch(`${feeds.url}/drip`, none)).rejects.toThrow(new FeedFetchError("Timed out after 300 ms"));
    } finally {
      quick.close();
    }
  });

  it("stops reading a body over the limit, announced or not", async () => {
    const small = make({ maxBytes: 256 * 1024 });
    try {
      await expect(small.fetch(`${feeds.url}/huge?bytes=${2 * 1024 * 1024}`, none)).rejects.toThrow(
        new FeedFetchError("Feed is larger than 256 KB"),
      );
      await expect(small.fetch(`${feeds.url}/huge-declared`, none)).rejects.toThrow(new FeedFetchError("Feed is larger than 256 KB"));
    } finally {
      small.close();
    }
    await expect(fetcher.fetch(`${feeds.url}/huge`, none)).rejects.toThrow(new FeedFetchError("Feed is larger than 5 MB"));
  });

  it("decompresses gzip bodies", async () => {
    const res = await fetcher.fetch(`${feeds.url}/gzip/youtube.xml`, none);
    if (res.status !== "ok") throw new Error("expected a body");
    expect(res.body.toString("utf8")).toContain("Weekend Fix-It Videos");
  });

  it("turns HTTP errors and dead ports into clear messages", async () => {
    await expect(fetcher.fetch(`${feeds.url}/status/500`, none)).rejects.toThrow(new FeedFetchError("HTTP 500 Internal Server Error"));
    await expect(fetcher.fetch(`${feeds.url}/status/404`, none)).rejects.toThrow(new FeedFetchError("HTTP 404 Not Found"));
    await expect(fetcher.fetch("http://127.0.0.1:1/feed", none)).rejects.toThrow(new FeedFetchError("Connection refused by 127.0.0.1:1"));
    await expect(fetcher.fetch("http://no-such-host.invalid/feed", none)).rejects.toThrow(
      new FeedFetchError("Could not resolve host no-such-host.invalid"),
    );
  });

  it("accepts only http and https", async () => {
    for (const url of ["ftp://example.com/feed", "file:///etc/passwd", "javascript:alert(1)", "gopher://example.com/"]) {
      await expect(fetcher.fetch(url, none), url).rejects.toThrow(/Only http and https URLs are allowed/);
    }
    await expect(fetcher.fetch("not a url", none)).rejects.toThrow(new FeedFetchError("The feed URL is not a valid URL"));
  });
});

describe("SafeFetcher refuses addresses that are not public", () => {
  let feeds: FeedServer;
  beforeAll(async () => {
    feeds = await startFeedServer();
  });
  afterAll(() => feeds.close());

  it("refuses loopback, private and metadata addresses in every spelling, before connecting", async () => {
    const strict = new SafeFetcher({ ...DEFAULT_FETCH_LIMITS, timeoutMs: 1000 });
    try {
      const cases: Array<[string, string]> = [
        [`${feeds.url}/feeds/wordpress.xml`, "Refused to connect to 127.0.0.1: a loopback address is not allowed"],
        [`http://2130706433:${feeds.port}/feeds/wordpress.xml`, "Refused to connect to 127.0.0.1: a loopback address is not allowed"],
        [`http://0x7f.1:${feeds.port}/feeds/wordpress.xml`, "Refused to connect to 127.0.0.1: a loopback address is not allowed"],
        [`http://0177.0.0.1:${feeds.port}/feeds/wordpress.xml`, "Refused to connect to 127.0.0.1: a loopback address is not allowed"],
        [`http://[::1]:${feeds.port}/`, "Refused to connect to ::1: a loopback address is not allowed"],
        [`http://[::ffff:127.0.0.1]:${feeds.port}/`, "Refused to connect to ::ffff:7f00:1: a loopback address is not allowed"],
        ["http://169.254.169.254/latest/meta-data/", "Refused to connect to 169.254.169.254: a link-local address is not allowed"],
        ["http://10.0.0.1/feed", "Refused to connect to 10.0.0.1: a private network address is not allowed"],
        ["http://100.64.1.1/feed", "Refused to connect to 100.64.1.1: a carrier-grade NAT address is not allowed"],
        ["http://0.0.0.0/feed", "Refused to connect to 0.0.0.0: an unspecified address is not allowed"],
        [`http://localhost:${feeds.port}/feeds/wordpress.xml`, "Refused to connect to localhost"],
      ];
      for (const [url, message] of cases) {
        await expect(strict.fetch(url, none), url).rejects.toThrow(message);
      }
      expect(feeds.requests).toEqual([]);
    } finally {
      strict.close();
    }
  });

  it("checks every redirect: a public-looking start cannot bounce to a private address", async () => {
    // Only 127.0.0.1 counts as "public" here, so 127.0.0.2 stands in for an internal host.
    const onlyOne = (address: string) => (address === "127.0.0.1" ? { allowed: true as const } : classifyAddress(address));
    const fetcher = new SafeFetcher({ ...DEFAULT_FETCH_LIMITS, timeoutMs: 1000, addressPolicy: onlyOne });
    try {
      const ok = await fetcher.fetch(`${feeds.url}/redirect/1/feeds/bom.xml`, none);
      expect(ok.status).toBe("ok");
      const target = encodeURIComponent(`http://127.0.0.2:${feeds.port}/feeds/bom.xml`);
      await expect(fetcher.fetch(`${feeds.url}/redirect-to?url=${target}`, none)).rejects.toThrow(
        "Refused to connect to 127.0.0.2: a loopback address is not allowed",
      );
      const scheme = encodeURIComponent("file:///etc/passwd");
      await expect(fetcher.fetch(`${feeds.url}/redirect-to?url=${scheme}`, none)).rejects.toThrow(
        "Only http and https URLs are allowed (got file)",
      );
      expect(feeds.hits("/feeds/bom.xml").length).toBe(1);
    } finally {
      fetcher.close();
    }
  });

  it("the lookup checks every resolved address and hands the socket only checked ones", async () => {
    const strictLookup = checkedLookup(false);
    const refused = await new Promise<Error | null>((resolve) => strictLookup("localhost", { all: true }, (err) => resolve(err)));
    expect(refused?.message).toMatch(/^Refused to connect to localhost \((127\.0\.0\.1|::1)\): a loopback address is not allowed$/);

    const lenient = checkedLookup(true);
    const addresses = await new Promise<unknown>((resolve, reject) =>
      lenient("localhost", { all: true }, (err, list) => (err ? reject(err) : resolve(list))),
    );
    expect(Array.isArray(addresses) && addresses.length > 0).toBe(true);
    const single = await new Promise<string>((resolve, reject) =>
      lenient("localhost", { family: 4 }, (err, address) => (err ? reject(err) : resolve(address as string))),
    );
    expect(single).toBe("127.0.0.1");
  });
});
