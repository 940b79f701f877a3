import { describe, expect, it } from "vitest";
import { categoryOptions, categoryParam, toArticleCard } from "./cards";
import type { ArticleJson } from "./contract";

// The mapper also copes with answers shaped as the spec allows (fields absent or null).
const article = (over: Partial<Record<keyof ArticleJson, unknown>> = {}) =>
  ({
    id: 7,
    title: "Winterize your pipes",
    summary: "Insulate exposed pipes before the first frost.",
    content: "<p>Long <strong>content</strong></p>",
    link: "https://example.org/pipes",
    category: "maintenance_repair",
    image_url: "https://cdn.example.org/pipes.jpg",
    published_at: "2024-11-02T08:00:00.000Z",
    source_name: "Fix-It Weekly",
    ...over,
  }) as ArticleJson;

describe("toArticleCard", () => {
  it("takes the summary, the feed title and the publish date", () => {
    expect(toArticleCard(article({ feedTitle: "Fix-It Weekly (feed)" }))).toEqual({
      id: 7,
      title: "Winterize your pipes",
      link: "https://example.org/pipes",
      category: "maintenance_repair",
      imageUrl: "https://cdn.example.org/pipes.jpg",
      publishedAt: "2024-11-02T08:00:00.000Z",
      source: "Fix-It Weekly (feed)",
      excerpt: "Insulate exposed pipes before the first frost.",
    });
  });

  it("falls back to content text, publishDate and source_name", () => {
    const card = toArticleCard(article({ summary: null, published_at: null, publishDate: "2024-01-01T00:00:00.000Z", feedTitle: null }));
    expect(card.excerpt).toBe("Long content");
    expect(card.publishedAt).toBe("2024-01-01T00:00:00.000Z");
    expect(card.source).toBe("Fix-It Weekly");
  });

  it("cuts the text to 150 characters followed by '...'", () => {
    const card = toArticleCard(article({ summary: "a".repeat(200) }));
    expect(card.excerpt).toBe(`${"a".repeat(150)}...`);
  });

  it("drops links and images that are not http(s)", () => {
    const card = toArticleCard(article({ link: "javascript:alert(1)", image_url: "data:image/png;base64,xx" }));
    expect(card.link).toBeNull();
    expect(card.imageUrl).toBeNull();
  });
});

describe("categoryOptions", () => {
  const counts = [
    { value: "decor", label: "Decor", count: 3 },
    { value: "insurance", label: "Insurance", count: 2 },
    { value: "safety", label: "Safety", count: 0 },
  ];

  it("starts with 'All Categories (n)' and lists only categories with articles", () => {
    expect(categoryOptions(counts, null)).toEqual([
      { value: "", label: "All Categories (5)" },
      { value: "decor", label: "Decor (3)" },
      { value: "insurance", label: "Insurance (2)" },
    ]);
  });

  it("keeps a selected category without articles so the control matches the URL", () => {
    expect(categoryOptions(counts, "green_design").at(-1)).toEqual({ value: "green_design", label: "Green Design (0)" });
  });
});

describe("categoryParam", () => {
  it("accepts the 17 categories only", () => {
    expect(categoryParam("decor")).toBe("decor");
    expect(categoryParam("Decor")).toBeNull();
    expect(categoryParam("")).toBeNull();
    expect(categoryParam(null)).toBeNull();
  });
});
