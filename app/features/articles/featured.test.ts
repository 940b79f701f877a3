import { describe, expect, it } from "vitest";
import type { FeaturedArticle } from "./contract";
import { CARDS_FAILED } from "./FeaturedArticles";
import {
  FEATURED_LOAD_FAILED,
  FEATURED_PLACEHOLDER_IMAGE,
  featuredButton,
  featuredExcerpt,
  featuredImageCandidates,
  featuredStateFromAnswer,
  featuredStateFromException,
  featuredTitle,
  fallbackFeaturedArticles,
} from "./featured";

// The helpers also cope with answers shaped as the spec allows (a link absent or null).
const item = (over: Partial<Record<keyof FeaturedArticle, unknown>> = {}) =>
  ({
    id: 1,
    category: "decor",
    title: "Paint colors for small rooms",
    excerpt: "Light shades make a room feel larger.",
    image_url: "https://cdn.example.org/a.jpg",
    external_url: "https://example.org/a",
    published_at: "2024-05-01T10:00:00.000Z",
    is_placeholder: false,
    is_error: false,
    ...over,
  }) as FeaturedArticle;

describe("featuredButton", () => {
  it("reads 'Read More' with the article link", () => {
    expect(featuredButton(item())).toEqual({ kind: "read-more", label: "Read More", href: "https://example.org/a" });
  });

  it("reads 'Coming Soon' for a placeholder, a '#' link or no link", () => {
    expect(featuredButton(item({ is_placeholder: true })).label).toBe("Coming Soon");
    expect(featuredButton(item({ external_url: "#" })).label).toBe("Coming Soon");
    expect(featuredButton(item({ external_url: null })).label).toBe("Coming Soon");
    expect(featuredButton(item({ external_url: "javascript:alert(1)" })).label).toBe("Coming Soon");
  });

  it("reads 'Unavailable' for an error item, even a placeholder", () => {
    expect(featuredButton(item({ is_error: true })).label).toBe("Unavailable");
    expect(featuredButton(item({ is_error: true, is_placeholder: true })).label).toBe("Unavailable");
  });
});

describe("featuredImageCandidates", () => {
  it("tries the image, the category default, then the placeholder", () => {
    expect(featuredImageCandidates(item())).toEqual([
      "https://cdn.example.org/a.jpg",
      "/images/articles/decor.svg",
      FEATURED_PLACEHOLDER_IMAGE,
    ]);
  });

  it("maps article categories and slot keys to their slot default", () => {
    expect(featuredImageCandidates(item({ image_url: null, category: "greening_tips" }))).toEqual([
      "/images/articles/green-living.svg",
      FEATURED_PLACEHOLDER_IMAGE,
    ]);
    expect(featuredImageCandidates(item({ image_url: "", category: "green_living" }))[0]).toBe("/images/articles/green-living.svg");
    expect(featuredImageCandidates(item({ image_url: null, category: "insurance" }))).toEqual([FEATURED_PLACEHOLDER_IMAGE]);
    for (const unusable of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "/relative.jpg",
      "//cdn.example.org/a.jpg",
    ])
      expect(featuredImageCandidates(item({ image_url: unusable, category: "insurance" })), unusable).toEqual([FEATURED_PLACEHOLDER_IMAGE]);
  });
});

describe("title and excerpt cuts", () => {
  it("cuts the title to 80 and the excerpt to 120 characters", () => {
    expect(featuredTitle(item({ title: "t".repeat(100) }))).toBe(`${"t".repeat(80)}...`);
    expect(featuredExcerpt(item({ excerpt: "e".repeat(121) }))).toBe(`${"e".repeat(120)}...`);
    expect(featuredExcerpt(item({ excerpt: "e".repeat(120) }))).toBe("e".repeat(120));
  });

  it("falls back to 'No description available.'", () => {
    expect(featuredExcerpt(item({ excerpt: null }))).toBe("No description available.");
    expect(featuredExcerpt(item({ excerpt: "   " }))).toBe("No description available.");
  });
});

describe("featured states", () => {
  it("three fallback cards on an exception, with the spec's titles and excerpt", () => {
    const state = featuredStateFromException();
    expect(state.status).toBe("failed");
    expect(state.status === "failed" && state.articles.map((a) => a.title)).toEqual([
      "Home Improvement Temporarily Unavailable",
      "Decor Temporarily Unavailable",
      "Green Living Temporarily Unavailable",
    ]);
    for (const a of fallbackFeaturedArticles()) {
      expect(a.excerpt).toBe("We're experiencing technical difficulties. Please try again later.");
      expect(featuredButton(a).label).toBe("Unavailable");
    }
  });

  it("a server error shows its text, or 'Failed to load articles', and keeps the articles returned", () => {
    expect(featuredStateFromAnswer({ success: false, articles: [item()], error: "Database busy" })).toEqual({
      status: "loaded",
      articles: [item()],
      error: "Database busy",
    });
    const none = featuredStateFromAnswer({ success: false, articles: [], error: null });
    expect(none.status === "loaded" && none.error).toBe("Failed to load articles");
    expect(none.status === "loaded" && none.articles).toHaveLength(3);
  });

  it("a success shows the articles without a message", () => {
    expect(featuredStateFromAnswer({ success: true, articles: [item()], error: null })).toEqual({
      status: "loaded",
      articles: [item()],
      error: null,
    });
  });
});

describe("the block's frame", () => {
  it("says what a failed answer says when the cards' code itself could not be fetched", () => {
    expect(CARDS_FAILED).toBe(FEATURED_LOAD_FAILED);
  });
});
