import fs from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { FIXTURES_DIR } from "../../../tests/support/feed-server";
import { charsetFromXmlDeclaration, decodeFeedBody, normalizeEncoding } from "./decode-feed.server";
import { readFeedItems } from "./read-feed.server";
import { FeedParseError } from "./parse-feed.server";

/** The corpus in tests/fixtures/feeds, read the way an ingest reads it. */
const NOW = Date.parse("2024-03-06T00:00:00Z");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name));
const read = (name: string, contentType: string | null = null) =>
  readFeedItems(fixture(name), contentType, `https://feeds.example.com/${name}`, "Name Given By Admin", NOW);

const TEXT_MENTIONS_MARKUP = ["atom-text-titles.xml", "atom-relative.xml", "jsonfeed.json"];

describe("the fixture corpus", () => {
  it("has at least 20 feeds", () => {
    expect(fs.readdirSync(FIXTURES_DIR).length).toBeGreaterThanOrEqual(20);
  });

  it("every article of every readable feed is safe and complete", () => {
    for (const name of fs.readdirSync(FIXTURES_DIR)) {
      let result;
      try {
        result = read(name);
      } catch (err) {
        expect(err, name).toBeInstanceOf(FeedParseError);
        continue;
      }
      for (const a of result.items) {
        expect(a.link, name).toMatch(/^https?:\/\//);
        expect(a.title.trim(), name).not.toBe("");
        // Titles and summaries are plain text; only fixtures whose text mentions markup may show a literal "<".
        if (!TEXT_MENTIONS_MARKUP.includes(name)) {
          expect(a.title, name).not.toMatch(/[<>]/);
          expect(a.summary ?? "", name).not.toMatch(/[<>]/);
        }
        expect(a.content ?? "", name).not.toMatch(/<script|<style|<iframe|\son\w+=|javascript:|data:/i);
        if (a.image_url) expect(a.image_url, name).toMatch(/^https?:\/\//);
        if (a.published_at) expect(a.published_at, name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    }
  });
});

describe("real-world feed shapes", () => {
  it("WordPress: content:encoded, entities, relative links, the stats pixel", () => {
    const { format, sourceName, items } = read("wordpress.xml");
    expect(format).toBe("rss");
    expect(sourceName).toBe("Handy Home Journal");
    expect(items).toHaveLength(3);
    const [caulk, heater, gutters] = items;
    expect(caulk).toMatchObject({
      title: "How to Re-Caulk a Bathtub Like a Pro",
      link: "https://handyhome.example.com/re-caulk-bathtub/",
      guid: "https://handyhome.example.com/?p=4211",
      image_url: "https://handyhome.example.com/wp-content/uploads/2024/03/caulk-1024x683.jpg",
      published_at: "2024-03-05T14:00:00.000Z",
    });
    expect(caulk.summary).toBe(
      "Old caulk that’s cracked or moldy lets water behind your tub surround. Here’s how to strip it and lay a clean bead in an afternoon…",
    );
    expect(caulk.content).toContain(
      '<a href="https://handyhome.example.com/tools/caulk-guns/" rel="noopener noreferrer" target="_blank">caulk gun guide</a>',
    );
    expect(caulk.content).not.toMatch(/onclick|style=|srcset|class=/);
    expect(heater.content).not.toContain("pixel.wp.com");
    expect(gutters.content).toBe("Clear debris, check downspouts, and look for sagging runs before the April rains.");
  });

  it("Blogger Atom: escaped HTML content, small media:thumbnail loses to the content image", () => {
    const { format, items } = read("blogger.xml");
    expect(format).toBe("atom");
    expect(items[0]).toMatchObject({
      title: "Painting Kitchen Cabinets: Our Before & After",
      link: "https://cozycottage.example.com/2024/02/painting-cabinets.html",
      image_url: "https://blogger.googleusercontent.com/img/b/R29v/s320/cabinets.jpg",
      published_at: "2024-02-20T16:10:00.000Z",
    });
    expect(items[0].summary).toBe("We finally painted the 1970s oak cabinets a soft sage green. Here is what worked.");
  });

  it("Medium: CDATA titles, no description, the tracking pixel is gone", () => {
    const { items } = read("medium.xml");
    expect(items[0].title).toBe("I Automated My Thermostat and Cut My Bill 18%");
    expect(items[0].summary).toMatch(/^Photo by someone Last winter/);
    expect(items[0].content).not.toContain("medium.com/_/stat");
    expect(items[1].content).toBe("<p>Three locks, one very determined two-year-old.</p>");
    expect(items[1].image_url).toBeNull();
  });

  it("YouTube Atom: media:group description and thumbnail", () => {
    const { items, sourceName } = read("youtube.xml");
    expect(sourceName).toBe("Weekend Fix-It Videos");
    expect(items[0]).toMatchObject({
      title: "Fixing a Running Toilet in 10 Minutes",
      link: "https://www.youtube.com/watch?v=AbCdEfGhIjK",
      guid: "yt:video:AbCdEfGhIjK",
      image_url: "https://i1.ytimg.com/vi/AbCdEfGhIjK/hqdefault.jpg",
    });
    expect(items[0].summary).toBe("A running toilet wastes up to 200 gallons a day. Replace the flapper & adjust the float — here's how.");
  });

  it("Feedburner: named US time zones, feedflare and ~r pixels removed", () => {
    const { items } = read("feedburner.xml");
    expect(items[0].published_at).toBe("2024-02-29T18:00:00.000Z");
    expect(items[1].published_at).toBe("2024-02-26T17:00:00.000Z");
    expect(items[0].content).toBe("<p>Most attics need R-49 to R-60. Here is how to check yours.</p>");
  });

  it("RSS 1.0 (RDF): dc:date, rdf:about", () => {
    const { format, items } = read("rss1-rdf.xml");
    expect(format).toBe("rdf");
    expect(items.map((i) => i.published_at)).toEqual(["2024-03-04T14:30:00.000Z", "2024-03-01T00:00:00.000Z"]);
    expect(items[0].guid).toBe("https://housing-news.example.net/2024/03/rates-dip");
  });

  it("podcasts: the episode art, or an image enclosure, never the audio file", () => {
    const { items } = read("podcast.xml");
    expect(items[0].image_url).toBe("https://homeownerhour.example.fm/art/ep52.jpg");
    expect(items[1].image_url).toBe("https://cdn.example.fm/homeownerhour/ep51-cover.png");
    expect(items[0].content).toContain("<b>wear and tear</b>");
  });

  it("Atom with xml:base: links, content and enclosures resolve against the right base", () => {
    const { items, sourceName } = read("atom-relative.xml");
    expect(sourceName).toBe("Safe Home Blog");
    expect(items[0].link).toBe("https://safehome.example.com/blog/2024/03/smoke-alarms");
    expect(items[0].image_url).toBe("https://safehome.example.com/blog/images/alarm.jpg");
    expect(items[0].content).toContain('href="https://safehome.example.com/guides/testing"');
    expect(items[1].link).toBe("https://safehome.example.com/archive/co-rules.html");
    expect(items[1].image_url).toBe("https://safehome.example.com/media/co.jpg");
    expect(items[1].title).toBe("Carbon Monoxide: 3 < 5 Rules");
  });

  it("media:thumbnail, media:content images (protocol-relative too) and image enclosures", () => {
    const { items } = read("media-thumbnail.xml");
    expect(items.map((i) => i.image_url)).toEqual([
      "https://secweekly.example.com/thumbs/doorbells.jpg",
      "https://cdn.secweekly.example.com/media/motion.jpg",
      "https://secweekly.example.com/img/sensors.jpeg",
      "https://secweekly.example.com/img/group.jpg",
    ]);
  });

  it("ISO-8859-1 and windows-1252 feeds are decoded from their declaration", () => {
    const latin = read("iso-8859-1.xml");
    expect(latin.sourceName).toBe("Maison & Jardin Québec");
    expect(latin.items[0].title).toBe("Rénover sa cuisine à petit budget : 7 idées");
    const cp = read("windows-1252.xml");
    expect(cp.items[0].title).toBe("Don’t Ignore Your Sump Pump — Test It Now");
    expect(cp.items[0].summary).toBe("Pour a bucket of water in the pit… it should kick on.");
  });

  it("a byte order mark does not get in the way", () => {
    const { items, sourceName } = read("bom.xml");
    expect(sourceName).toBe("Décor Daily");
    expect(items[0].title).toBe("Café Curtains Are Back — Here’s How to Hang Them");
  });

  it("CDATA, numeric and named entities, double encoding", () => {
    const { items, sourceName } = read("cdata-entities.xml");
    expect(sourceName).toBe("Tom & Jerry’s Renovations");
    expect(items.map((i) => i.title)).toEqual([
      "Kitchen Remodel Costs & Tips – 2024",
      "Bathroom Tile: Porcelain vs. Ceramic — Which Lasts?",
      'Why "Open Concept" Is Fading',
    ]);
    expect(items[0].summary).toBe("Cabinets eat 30% of the budget — plan for it.");
    expect(items[0].link).toBe("https://tjreno.example.com/kitchen-costs?utm_source=rss&utm_medium=rss");
    expect(items[1].summary).toBe("Porcelain is denser… and pricier. Ceramic is easier to cut.");
  });

  it("missing and odd dates never crash and fall back to null (first seen)", () => {
    const { items } = read("missing-dates.xml");
    expect(Object.fromEntries(items.map((i) => [i.title, i.published_at]))).toEqual({
      "No Date At All": null,
      "Garbage Date": null,
      "ISO Without Zone": "2024-03-05T10:30:00.000Z",
      "Dublin Core Date Only": "2024-02-14T07:00:00.000Z",
      "Far Future Date": new Date(NOW).toISOString(),
      "Named European Zone": "2024-03-05T10:00:00.000Z",
      "Epoch Zero": null,
    });
  });

  it("a guid repeated inside one feed does not merge different items", () => {
    const { items } = read("duplicate-guids.xml");
    expect(items.map((i) => i.title)).toEqual([
      "Fence Staining Basics",
      "Deck Board Replacement",
      "Pressure Washing Without Damage",
      "Gate Latch Fix",
      "Gate Latch Fix, Part 2",
    ]);
    expect(new Set(items.map((i) => i.dedupe_key)).size).toBe(5);
  });

  it("tracking pixels of every shape are dropped; the real image stays", () => {
    const [item] = read("tracking-pixels.xml").items;
    expect(item.content).toBe(
      '<p>Full-view doors add a layer of insulation.</p>\n        <img src="https://pixels.example.com/img/storm-door.jpg" alt="A storm door" width="640" height="480" />',
    );
    expect(item.image_url).toBe("https://pixels.example.com/img/storm-door.jpg");
  });

  it("JSON Feed items", () => {
    const { format, items } = read("jsonfeed.json");
    expect(format).toBe("json");
    expect(items[0]).toMatchObject({ title: "Rain Barrels <Done Right>", image_url: "https://greening.example.org/img/barrel.jpg" });
    expect(items[1].title).toBe("Browns and greens. Turn it weekly.");
  });

  it("Atom text titles stay text; html titles become text", () => {
    const { items } = read("atom-text-titles.xml");
    expect(items[0].title).toBe("Use <br> Tags? A Markup Primer for Your HOA Newsletter");
    expect(items[0].content).toBe("<p>Plain text summary with a &lt;script&gt; mention that is just text.</p>");
    expect(items[1].title).toBe("Bold HTML Title");
  });

  it("an XSS attempt in every field leaves nothing executable", () => {
    const { items, sourceName } = read("xss.xml");
    expect(sourceName).toBe("Evil Feed");
    expect(items.map((i) => i.link)).toEqual(["https://xss.example.com/post-1", "https://xss.example.com/post-2"]);
    const [evil, second] = items;
    expect(evil.title).toBe("Harmless Title");
    expect(evil.guid).toBeNull();
    expect(evil.summary).toBe("Summary with a link");
    expect(evil.published_at).toBeNull();
    expect(evil.content).not.toMatch(
      /<script|<iframe|<object|<embed|<svg|<math|<form|<input|<button|<meta|<base|<link|<style|<noscript|\son\w+\s*=|javascript:|vbscript:|data:|style=|background=|alert\(/i,
    );
    expect(evil.content).toContain(
      '<a href="https://xss.example.com/relative/ok" rel="noopener noreferrer" target="_blank">relative link</a>',
    );
    expect(evil.content).toContain('<img src="https://xss.example.com/real.jpg" alt="real" />');
    expect(evil.image_url).toMatch(/^https:\/\/xss\.example\.com\//);
    expect(second.image_url).toBe("https://xss.example.com/thumb.jpg");
  });

  it("an empty channel is a feed with no items", () => {
    expect(read("empty-channel.xml").items).toEqual([]);
  });

  it("broken XML, a web page and an entity bomb fail with a clear error", () => {
    expect(() => read("broken.xml")).toThrow(new FeedParseError("The feed is not well-formed XML"));
    expect(() => read("not-a-feed.html")).toThrow(new FeedParseError("The URL returned a web page, not a feed"));
    expect(() => read("entity-expansion.xml")).toThrow(FeedParseError);
    expect(() => readFeedItems(Buffer.from("   "), null, "https://x.example.com/", "X")).toThrow(new FeedParseError("The feed is empty"));
    expect(() => readFeedItems(Buffer.from('{"hello": 1}'), null, "https://x.example.com/", "X")).toThrow(FeedParseError);
  });

  it("falls back to the admin's name when the feed has no title", () => {
    const body = Buffer.from(
      '<rss version="2.0"><channel><item><title>T</title><link>https://x.example.com/t</link></item></channel></rss>',
    );
    expect(readFeedItems(body, null, "https://x.example.com/", "Admin Name").sourceName).toBe("Admin Name");
  });
});

describe("decodeFeedBody", () => {
  const xml = (encoding: string, text: string) =>
    `<?xml version="1.0" encoding="${encoding}"?><rss><channel><title>${text}</title></channel></rss>`;

  it("prefers a byte order mark, then the Content-Type charset, then the XML declaration", () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(xml("UTF-16", "Ünïcode"), "utf-16le")]);
    expect(decodeFeedBody(utf16, "text/xml; charset=iso-8859-1").text).toContain("Ünïcode");
    const latin = iconv.encode(xml("UTF-8", "Café"), "latin1");
    expect(decodeFeedBody(latin, 'application/rss+xml; charset="ISO-8859-1"').text).toContain("Café");
    expect(decodeFeedBody(iconv.encode(xml("ISO-8859-1", "Café"), "latin1"), "text/xml").text).toContain("Café");
  });

  it("reads undeclared non-UTF-8 bytes as windows-1252 rather than replacement characters", () => {
    const body = iconv.encode("<rss><channel><title>Don’t — café</title></channel></rss>", "windows-1252");
    expect(decodeFeedBody(body, null)).toEqual({
      text: "<rss><channel><title>Don’t — café</title></channel></rss>",
      encoding: "windows-1252",
    });
  });

  it("ignores unknown charset names", () => {
    expect(decodeFeedBody(Buffer.from("<rss>é</rss>"), "text/xml; charset=klingon").text).toBe("<rss>é</rss>");
    expect(normalizeEncoding("klingon")).toBeNull();
    expect(normalizeEncoding("ISO-8859-1")).toBe("windows-1252");
    expect(charsetFromXmlDeclaration(Buffer.from("<?xml version='1.0' encoding='Shift_JIS'?>"))).toBe("Shift_JIS");
  });
});
