import { describe, expect, it } from "vitest";
import { INDEXABLE_PATHS, buildRobots, buildSitemap, siteOrigin } from "./sitemap";

describe("siteOrigin", () => {
  it("prefers the configured PUBLIC_URL, without trailing slashes", () => {
    expect(siteOrigin("https://www.aha-homeowners.org/", "http://10.0.0.5:3000/sitemap.xml")).toBe("https://www.aha-homeowners.org");
    expect(siteOrigin("https://example.org/aha//", "http://localhost/sitemap.xml")).toBe("https://example.org/aha");
  });

  it("falls back to the request's origin", () => {
    expect(siteOrigin(null, "http://localhost:3201/robots.txt?x=1")).toBe("http://localhost:3201");
    expect(siteOrigin("  ", "https://aha.test/sitemap.xml")).toBe("https://aha.test");
  });
});

describe("buildSitemap", () => {
  it("lists every indexable public page as an absolute URL, and nothing else", () => {
    const xml = buildSitemap("https://aha.test");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(
      true,
    );
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      "https://aha.test/",
      "https://aha.test/about-us",
      "https://aha.test/membership-benefits",
      "https://aha.test/contact-us",
      "https://aha.test/form-requests",
      "https://aha.test/make-payment",
      "https://aha.test/mortgage-calculator",
    ]);
    for (const hidden of [
      "/members-only",
      "/login",
      "/privacy-policy",
      "/application",
      "/knowledge",
      "/admin",
      "/confirm-email",
      "/mortgage-calculator/print",
    ]) {
      expect(xml).not.toContain(hidden);
    }
    expect(INDEXABLE_PATHS).toHaveLength(7);
  });

  it("escapes XML special characters in URLs", () => {
    expect(buildSitemap("https://aha.test/?a=1&b='2'", ["/"])).toContain("<loc>https://aha.test/?a=1&amp;b=&apos;2&apos;/</loc>");
  });
});

describe("buildRobots", () => {
  it("allows the site, keeps crawlers out of the API and staff area, and points to the sitemap", () => {
    expect(buildRobots("https://aha.test")).toBe(
      "User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /.netlify/\nDisallow: /admin\n\nSitemap: https://aha.test/sitemap.xml\n",
    );
  });
});
