import { describe, expect, it } from "vitest";
import { knowledgeCenterSearch, pageItems, pageRange, parsePageParam } from "./pagination";

describe("pageItems", () => {
  it("lists every page when there are few", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it("shows the first, the last and the current page ±1 with ellipses for gaps", () => {
    expect(pageItems(1, 10)).toEqual([1, 2, "ellipsis-end", 10]);
    expect(pageItems(5, 10)).toEqual([1, "ellipsis-start", 4, 5, 6, "ellipsis-end", 10]);
    expect(pageItems(10, 10)).toEqual([1, "ellipsis-start", 9, 10]);
    expect(pageItems(9, 10)).toEqual([1, "ellipsis-start", 8, 9, 10]);
  });

  it("never hides a single page behind an ellipsis", () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis-end", 10]);
    expect(pageItems(7, 10)).toEqual([1, "ellipsis-start", 6, 7, 8, 9, 10]);
    expect(pageItems(1, 4)).toEqual([1, 2, 3, 4]);
  });

  it("clamps a current page outside the range and handles no pages", () => {
    expect(pageItems(0, 3)).toEqual([1, 2, 3]);
    expect(pageItems(99, 10)).toEqual([1, "ellipsis-start", 9, 10]);
    expect(pageItems(1, 0)).toEqual([]);
  });
});

describe("pageRange", () => {
  it("gives the positions shown in 'Showing a-b of n articles'", () => {
    expect(pageRange(1, 9, 20)).toEqual({ from: 1, to: 9 });
    expect(pageRange(3, 9, 20)).toEqual({ from: 19, to: 20 });
    expect(pageRange(1, 9, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe("parsePageParam", () => {
  it("accepts positive integers only", () => {
    expect(parsePageParam("3")).toBe(3);
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam("0")).toBe(1);
    expect(parsePageParam("-2")).toBe(1);
    expect(parsePageParam("2.5")).toBe(1);
    expect(parsePageParam("abc")).toBe(1);
    expect(parsePageParam("99999999999")).toBe(1);
  });
});

describe("knowledgeCenterSearch", () => {
  it("keeps category and page in the URL, leaving defaults out", () => {
    expect(knowledgeCenterSearch({})).toBe("");
    expect(knowledgeCenterSearch({ category: "decor", page: 1 })).toBe("?category=decor");
    expect(knowledgeCenterSearch({ category: "decor", page: 3 })).toBe("?category=decor&page=3");
    expect(knowledgeCenterSearch({ page: 2 })).toBe("?page=2");
  });
});
