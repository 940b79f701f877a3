import { describe, expect, it } from "vitest";
import { currentMonth, exportMonthError, formatDigest, latestExportMonth, monthRange } from "./digest";

describe("monthRange", () => {
  it("gives the UTC bounds and a label of a YYYY-MM month", () => {
    expect(monthRange("2024-02")).toEqual({ from: "2024-02-01T00:00:00.000Z", to: "2024-03-01T00:00:00.000Z", label: "February 2024" });
    expect(monthRange("2024-12")?.to).toBe("2025-01-01T00:00:00.000Z");
  });
  it("refuses anything else", () => {
    for (const bad of ["2024-13", "2024-00", "24-01", "2024-1", "2024/01", "", "2024-01-05"]) expect(monthRange(bad), bad).toBeNull();
  });
  it("knows the current month", () => {
    expect(currentMonth(new Date("2024-03-31T23:59:59Z"))).toBe("2024-03");
  });
  it("labels years before 100 as written, not as 19xx", () => {
    expect(monthRange("0001-01")).toEqual({ from: "0001-01-01T00:00:00.000Z", to: "0001-02-01T00:00:00.000Z", label: "January 1" });
    expect(monthRange("0099-12")?.to).toBe("0100-01-01T00:00:00.000Z");
  });
});

describe("exportMonthError", () => {
  const now = new Date("2024-12-31T23:59:59Z");
  it("accepts months from 1970-01 to next month", () => {
    expect(latestExportMonth(now)).toBe("2025-01");
    for (const ok of ["1970-01", "1999-05", "2024-12", "2025-01"]) expect(exportMonthError(ok, now), ok).toBeNull();
  });
  it("refuses earlier and later months, and anything that is not YYYY-MM", () => {
    for (const late of ["0001-01", "1969-12", "2025-02", "9999-12"]) {
      expect(exportMonthError(late, now), late).toBe("Month must be between 1970-01 and 2025-01");
    }
    expect(exportMonthError("2024-13", now)).toBe("Month must be in YYYY-MM format");
  });
});

describe("formatDigest", () => {
  const a = (over: Partial<Parameters<typeof formatDigest>[0]["articles"][number]>) => ({
    title: "T",
    summary: "S",
    link: "https://x.example.com/",
    category: "decor",
    published_at: "2024-03-05T10:00:00.000Z",
    source_name: "Src",
    ...over,
  });

  it("groups articles by category in the admin's order, with source, date, summary and link", () => {
    const text = formatDigest({
      orgName: "AHA",
      monthLabel: "March 2024",
      total: 3,
      articles: [
        a({ title: "Paint colors", category: "decor" }),
        a({ title: "Gutters", category: "home_improvement", summary: null, source_name: null }),
        a({ title: "Rates", category: "housing_mortgage_trends", summary: "x ".repeat(300) }),
      ],
    });
    const lines = text.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "AHA Knowledge Center: March 2024",
      "================================",
      "",
      "3 articles this month.",
    ]);
    expect(text.indexOf("Home Improvement (1)")).toBeLessThan(text.indexOf("Decor (1)"));
    expect(text.indexOf("Decor (1)")).toBeLessThan(text.indexOf("Housing and Mortgage Trends (1)"));
    expect(text).toContain("* Paint colors\n  Src · Mar 5, 2024\n  S\n  https://x.example.com/\n");
    expect(text).toContain("* Gutters\n  Mar 5, 2024\n  https://x.example.com/\n");
    const rates = lines.find((l) => l.startsWith("  x x"))!;
    expect(rates.length).toBeLessThanOrEqual(242);
    expect(rates.endsWith("…")).toBe(true);
  });

  it("says so when the month has no articles, and when the list was cut", () => {
    expect(formatDigest({ orgName: "AHA", monthLabel: "May 2023", total: 0, articles: [] })).toContain(
      "No articles were published in May 2023.",
    );
    expect(formatDigest({ orgName: "AHA", monthLabel: "May 2023", total: 5, articles: [a({})] })).toContain(
      "… and 4 more articles not listed here.",
    );
  });
});
