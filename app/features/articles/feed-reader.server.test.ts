import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES_DIR } from "../../../tests/support/feed-server";
import { FeedReader } from "./feed-reader.server";
import { FeedParseError } from "./parse-feed.server";
import { readFeedItems } from "./read-feed.server";

const NOW = Date.parse("2024-03-06T00:00:00Z");
const URL_OF = (name: string) => `https://feeds.example.com/${name}`;

/** An RSS document of `items` items with long bodies. */
function bigFeed(items: number, paragraph = 40): Buffer {
  const body = (i: number) => `<p>${`Item ${i}: gutters, roofs and furnaces need a look twice a year. `.repeat(paragraph)}</p>`;
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Big</title>${Array.from(
    { length: items },
    (_, i) =>
      `<item><title>Article ${i}</title><link>https://big.example.com/${i}</link><description><![CDATA[${body(i)}]]></description></item>`,
  ).join("")}</channel></rss>`);
}

describe("the feed reader thread", () => {
  const reader = new FeedReader();
  afterAll(() => reader.close());

  it("reads every feed of the corpus as the ingest's own code does, errors included", async () => {
    for (const name of fs.readdirSync(path.join(FIXTURES_DIR))) {
      const body = fs.readFileSync(path.join(FIXTURES_DIR, name));
      let expected: unknown;
      try {
        expected = readFeedItems(body, null, URL_OF(name), "Admin Name", NOW);
      } catch (err) {
        const failed = await reader.read(body, null, URL_OF(name), "Admin Name", NOW).then(
          () => null,
          (e: unknown) => e,
        );
        expect(failed, name).toBeInstanceOf(FeedParseError);
        expect((failed as Error).message, name).toBe((err as Error).message);
        continue;
      }
      expect(await reader.read(body, null, URL_OF(name), "Admin Name", NOW), name).toEqual(expected);
    }
  });

  it("reads off this thread: timers here run while a large feed is parsed", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const read = await reader.read(bigFeed(3000), "application/rss+xml", URL_OF("big.xml"), "Big", NOW);
      expect(read.items).toHaveLength(3000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  it("reads in flight fail when the thread stops, and the next read starts a new one", async () => {
    const pending = reader.read(bigFeed(2000), null, URL_OF("big.xml"), "Big", NOW);
    await reader.close();
    await expect(pending).rejects.toThrow(/The feed reader stopped/);
    const again = await reader.read(bigFeed(3), null, URL_OF("small.xml"), "Small", NOW);
    expect(again.items.map((it) => it.title)).toEqual(["Article 0", "Article 1", "Article 2"]);
  });
});
