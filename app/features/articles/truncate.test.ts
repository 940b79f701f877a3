import { describe, expect, it } from "vitest";
import { cardSummary, htmlToText, truncate } from "./truncate";

describe("truncate", () => {
  it("keeps short text and cuts long text to the limit followed by '...'", () => {
    expect(truncate("Short title", 80)).toBe("Short title");
    expect(truncate("x".repeat(80), 80)).toBe("x".repeat(80));
    expect(truncate("x".repeat(81), 80)).toBe(`${"x".repeat(80)}...`);
  });

  it("drops the space before the '...' and collapses whitespace", () => {
    expect(truncate("abcd efgh", 5)).toBe("abcd...");
    expect(truncate("  a \n\n b  ", 10)).toBe("a b");
  });

  it("never splits a character made of two code units", () => {
    expect(truncate("ab😀cd", 3)).toBe("ab😀...");
  });

  it("treats null as empty", () => {
    expect(truncate(null, 5)).toBe("");
  });
});

describe("htmlToText", () => {
  it("drops tags and decodes entities", () => {
    expect(htmlToText("<p>Fix a <b>leaky</b>&nbsp;faucet &amp; save</p><p>Next</p>")).toBe("Fix a leaky faucet & save Next");
    expect(htmlToText("Caf&#233; &#x2019;s &lt;tag&gt; &unknown;")).toBe("Café ’s <tag> &unknown;");
  });

  it("drops script and style bodies", () => {
    expect(htmlToText("<style>p{}</style>Hi<script>alert(1)</script>")).toBe("Hi");
  });
});

describe("cardSummary", () => {
  it("uses the summary, cut to 150 characters followed by '...'", () => {
    const summary = "word ".repeat(40);
    const text = cardSummary({ summary, content: "<p>ignored</p>" });
    expect(text.endsWith("...")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(153);
    expect(text.startsWith("word word")).toBe(true);
  });

  it("falls back to the content as text when the summary is empty", () => {
    expect(cardSummary({ summary: "  ", content: "<p>Clean your <em>gutters</em>.</p>" })).toBe("Clean your gutters.");
    expect(cardSummary({ summary: null, content: null })).toBe("");
  });
});
