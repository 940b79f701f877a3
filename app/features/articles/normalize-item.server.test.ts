import { describe, expect, it } from "vitest";
import {
  absoluteHttpUrl,
  clipText,
  htmlToText,
  normalizeItem,
  parseFeedDate,
  plainTitle,
  prepareItems,
  sanitizeContent,
  SUMMARY_MAX,
  type NormalizedItem,
} from "./normalize-item.server";
import type { RawItem } from "./parse-feed.server";

describe("absoluteHttpUrl", () => {
  it("resolves relative and protocol-relative URLs against the base", () => {
    expect(absoluteHttpUrl("/a/b?c=1", "https://x.example.com/feed/")).toBe("https://x.example.com/a/b?c=1");
    expect(absoluteHttpUrl("post.html", "https://x.example.com/blog/")).toBe("https://x.example.com/blog/post.html");
    expect(absoluteHttpUrl("//cdn.example.com/i.jpg", "https://x.example.com/")).toBe("https://cdn.example.com/i.jpg");
    expect(absoluteHttpUrl("  https://x.example.com/ok  ")).toBe("https://x.example.com/ok");
  });

  it("refuses every scheme but http and https, however it is spelled", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\nscript:alert(1)",
      "java\tscript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://x.example.com/",
      "mailto:a@b.c",
    ]) {
      expect(absoluteHttpUrl(bad, "https://x.example.com/"), bad).toBeNull();
    }
  });

  it("refuses garbage, credentials and absurd lengths", () => {
    expect(absoluteHttpUrl("http://")).toBeNull();
    expect(absoluteHttpUrl("not a url")).toBeNull();
    expect(absoluteHttpUrl("https://user:pw@x.example.com/")).toBeNull();
    expect(absoluteHttpUrl(`https://x.example.com/${"a".repeat(3000)}`)).toBeNull();
    expect(absoluteHttpUrl(null)).toBeNull();
  });
});

describe("htmlToText", () => {
  it("drops tags and the content of script/style, decodes entities, collapses space", () => {
    expect(htmlToText("<p>Tom &amp; Jerry&#8217;s <b>tips</b></p><script>alert(1)</script><style>p{}</style>")).toBe("Tom & Jerry’s tips");
    expect(htmlToText("5 &lt; 6 &gt; 4 &quot;q&quot; &hellip;&nbsp;end")).toBe('5 < 6 > 4 "q" … end');
    expect(htmlToText("<p>One</p><p>Two</p><figure><figcaption>Cap</figcaption></figure>Three")).toBe("One Two Cap Three");
    expect(htmlToText("a<br>b")).toBe("a b");
    expect(htmlToText("<iframe>fallback</iframe><noscript>ns</noscript>kept")).toBe("kept");
    expect(htmlToText(null)).toBe("");
  });
});

describe("clipText", () => {
  it("cuts at a word boundary and adds an ellipsis only when cut", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("The quick brown fox jumps", 16)).toBe("The quick brown…");
    expect(clipText("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("plainTitle", () => {
  it("reads HTML titles as HTML and text titles as text", () => {
    expect(plainTitle("Kitchen <em>Remodel</em> &amp; More", false)).toBe("Kitchen Remodel & More");
    expect(plainTitle("Use <br> Tags", true)).toBe("Use <br> Tags");
    expect(plainTitle("  spaced\n  out ", true)).toBe("spaced out");
  });
});

describe("sanitizeContent", () => {
  const base = "https://blog.example.com/posts/1";
  const clean = (html: string) => sanitizeContent(html, base);

  it("removes script, style, iframes, objects, forms and event handlers", () => {
    const out = clean(`<p onclick="x()">Hi<script>alert(1)</script></p><style>p{}</style><iframe src="https://e.example.com"></iframe>
      <object data="x"></object><embed src="x"><form><input></form><svg onload="x()"></svg><img src="/a.jpg" onerror="x()">`);
    expect(out).not.toMatch(/script|style|iframe|object|embed|form|input|svg|onerror|onclick|alert/i);
    expect(out).toContain("<p>Hi</p>");
    expect(out).toContain('<img src="https://blog.example.com/a.jpg" />');
  });

  it("keeps only http(s) and mailto links, made absolute, opening safely in a new tab", () => {
    const out = clean(
      `<a href="/x" target="_self" rel="opener">rel</a><a href="javascript:alert(1)">js</a><a href="mailto:hi@example.com">mail</a>`,
    );
    expect(out).toContain('<a href="https://blog.example.com/x" rel="noopener noreferrer" target="_blank">rel</a>');
    expect(out).toContain("<span>js</span>");
    expect(out).toContain('<a href="mailto:hi@example.com" rel="noopener noreferrer" target="_blank">mail</a>');
  });

  it("drops 1x1 tracking pixels and data: images, and the wrappers they leave empty", () => {
    const out = clean(`<p><img src="https://t.example.com/p.gif" width="1" height="1"></p>
      <a href="https://share.example.com"><img src="https://feeds.feedburner.com/~ff/X?d=1"></a>
      <img src="https://t.example.com/q.gif" style="width:1px;height:1px">
      <img src="https://pixel.wp.com/b.gif?x=1"><img src="data:image/gif;base64,AAAA">
      <img src="https://blog.example.com/real.jpg" width="600">`);
    expect(out).toBe('<img src="https://blog.example.com/real.jpg" width="600" />');
  });

  it("strips inline styles and unknown attributes", () => {
    expect(clean(`<div style="background:url(javascript:x)" class="c" id="i">ok</div>`)).toBe("<div>ok</div>");
  });
});

describe("parseFeedDate", () => {
  const now = Date.parse("2024-03-06T00:00:00Z");
  it.each([
    ["Tue, 05 Mar 2024 14:00:00 +0000", "2024-03-05T14:00:00.000Z"],
    ["Tue, 05 Mar 2024 14:00:00 GMT", "2024-03-05T14:00:00.000Z"],
    ["Thu, 29 Feb 2024 13:00:00 EST", "2024-02-29T18:00:00.000Z"],
    ["Mon, 26 Feb 2024 09:00:00 PST", "2024-02-26T17:00:00.000Z"],
    ["2024-03-04T09:30:00-05:00", "2024-03-04T14:30:00.000Z"],
    ["2024-03-04T09:30:00.123Z", "2024-03-04T09:30:00.000Z"],
    ["2024-03-05 10:30:00", "2024-03-05T10:30:00.000Z"],
    ["2024-03-01", "2024-03-01T00:00:00.000Z"],
    ["2024-03-04T09:30+0100", "2024-03-04T08:30:00.000Z"],
    ["tue, 05 mar 2024 14:00:00 gmt", "2024-03-05T14:00:00.000Z"],
    ["Tue, 05 Mar 2024 10:00:00 CEST", "2024-03-05T10:00:00.000Z"],
  ])("reads %s", (raw, iso) => {
    expect(parseFeedDate([raw], now)).toBe(iso);
  });

  it("falls back to the next candidate, and to null when none is usable", () => {
    expect(parseFeedDate(["garbage", "2024-01-02T00:00:00Z"], now)).toBe("2024-01-02T00:00:00.000Z");
    expect(parseFeedDate(["sometime last week"], now)).toBeNull();
    expect(parseFeedDate(["Thu, 01 Jan 1970 00:00:00 GMT"], now)).toBeNull();
    expect(parseFeedDate([], now)).toBeNull();
  });

  it("does not let a date in the future pin an article to the top", () => {
    expect(parseFeedDate(["Fri, 01 Jan 2100 00:00:00 GMT"], now)).toBe(new Date(now).toISOString());
  });
});

function raw(over: Partial<RawItem>): RawItem {
  return {
    guid: null,
    link: "https://x.example.com/post",
    title: "Title",
    titleIsText: false,
    description: null,
    content: null,
    dates: [],
    images: [],
    base: "https://x.example.com/feed",
    contentBase: null,
    ...over,
  };
}

describe("normalizeItem", () => {
  it("drops an item without a safe link or without any title text", () => {
    expect(normalizeItem(raw({ link: "javascript:alert(1)" }))).toBeNull();
    expect(normalizeItem(raw({ link: null }))).toBeNull();
    expect(normalizeItem(raw({ title: null, description: null }))).toBeNull();
  });

  it("takes the title from the summary when the item has none", () => {
    expect(normalizeItem(raw({ title: null, description: "<p>Only a body here</p>" }))?.title).toBe("Only a body here");
  });

  it("makes a plain-text summary of bounded length, without WordPress boilerplate", () => {
    const long = `<p>${"word ".repeat(400)}</p>`;
    const item = normalizeItem(raw({ description: long }))!;
    expect(item.summary!.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(item.summary).toMatch(/…$/);
    const wp = normalizeItem(raw({ description: "<p>Body.</p><p>The post <a href='x'>X</a> appeared first on <a href='y'>Y</a>.</p>" }))!;
    expect(wp.summary).toBe("Body.");
  });

  it("picks the image: large media first, then the content's first image, then a small thumbnail", () => {
    const big = normalizeItem(raw({ images: [{ url: "/big.jpg", small: false }], content: '<img src="/c.jpg">' }))!;
    expect(big.image_url).toBe("https://x.example.com/big.jpg");
    const content = normalizeItem(raw({ images: [{ url: "/thumb.jpg", small: true }], content: '<img src="/c.jpg">' }))!;
    expect(content.image_url).toBe("https://x.example.com/c.jpg");
    const thumb = normalizeItem(raw({ images: [{ url: "/thumb.jpg", small: true }] }))!;
    expect(thumb.image_url).toBe("https://x.example.com/thumb.jpg");
    const none = normalizeItem(raw({ images: [{ url: "javascript:alert(1)", small: false }] }))!;
    expect(none.image_url).toBeNull();
  });

  it("stores the guid as plain text", () => {
    expect(normalizeItem(raw({ guid: "<script>alert(1)</script>id-1" }))?.guid).toBe("id-1");
  });
});

describe("prepareItems (dedupe keys)", () => {
  const item = (over: Partial<NormalizedItem>): NormalizedItem => ({
    rawGuid: null,
    guid: null,
    link: "https://x.example.com/a",
    title: "A",
    summary: null,
    content: null,
    image_url: null,
    published_at: "2024-03-01T00:00:00.000Z",
    ...over,
  });

  it("keys by guid, else link; the same item gets the same key in every fetch", () => {
    const first = prepareItems([item({ rawGuid: "g1", guid: "g1" }), item({ link: "https://x.example.com/b" })], "S");
    const again = prepareItems([item({ rawGuid: "g1", guid: "g1", title: "A, edited" }), item({ link: "https://x.example.com/b" })], "S");
    expect(first.map((p) => p.dedupe_key)).toEqual(again.map((p) => p.dedupe_key));
    expect(first[0].content_hash).not.toBe(again[0].content_hash);
    expect(first[0].dedupe_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("never merges different items that share a guid inside one document, and merges exact repeats", () => {
    const out = prepareItems(
      [
        item({ rawGuid: "post", link: "https://x.example.com/1", title: "One" }),
        item({ rawGuid: "post", link: "https://x.example.com/2", title: "Two" }),
        item({ rawGuid: "post", link: "https://x.example.com/1", title: "One" }),
      ],
      "S",
    );
    expect(out.map((p) => p.title)).toEqual(["One", "Two"]);
    expect(new Set(out.map((p) => p.dedupe_key)).size).toBe(2);
  });

  it("tells apart guid-less items that share a link by title and date", () => {
    const out = prepareItems([item({ title: "Part 1" }), item({ title: "Part 2", published_at: "2024-03-02T00:00:00.000Z" })], "S");
    expect(out).toHaveLength(2);
  });

  it("keeps guid and link keys apart (a guid equal to another item's link does not collide)", () => {
    const out = prepareItems([item({ rawGuid: "https://x.example.com/a", link: "https://x.example.com/z" }), item({})], "S");
    expect(out).toHaveLength(2);
  });
});
