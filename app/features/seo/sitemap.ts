/**
 * robots.txt and sitemap.xml. Only the public pages meant for search engines are listed:
 * noindex pages (/members-only, /login, /privacy-policy) and login-guarded pages are not.
 */
export const INDEXABLE_PATHS = [
  "/",
  "/about-us",
  "/membership-benefits",
  "/contact-us",
  "/form-requests",
  "/make-payment",
  "/mortgage-calculator",
] as const;

/** Paths crawlers have no business fetching: the JSON API and the staff area. */
export const DISALLOWED_PATHS = ["/api/", "/.netlify/", "/admin"] as const;

/** The site's origin for absolute URLs: PUBLIC_URL when configured, else the request's origin. */
export function siteOrigin(publicUrl: string | null | undefined, requestUrl: string): string {
  const base = publicUrl?.trim() ? publicUrl.trim() : new URL(requestUrl).origin;
  return base.replace(/\/+$/, "");
}

export function absoluteUrl(origin: string, path: string): string {
  return path === "/" ? `${origin}/` : `${origin}${path}`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

export function buildSitemap(origin: string, paths: readonly string[] = INDEXABLE_PATHS): string {
  const urls = paths.map((p) => `  <url>\n    <loc>${escapeXml(absoluteUrl(origin, p))}</loc>\n  </url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function buildRobots(origin: string): string {
  return ["User-agent: *", "Allow: /", ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`), "", `Sitemap: ${origin}/sitemap.xml`, ""].join(
    "\n",
  );
}
