/**
 * A route's `handle` when its page shows every anonymous visitor the same HTML for the same
 * address (it reads only the settings and the URL): the server keeps it rendered and answers
 * it with shared-cache headers (docs/decisions/007-public-page-cache.md). A page that shows
 * stored content or anything of the visitor must not carry it.
 *
 * `query` names every address parameter the page reads (its loader and its components): the
 * kept page is keyed by those alone, in this order, and rendered from them alone; any other
 * parameter of an address is not part of the page.
 */
export interface PublicPageHandle {
  publicPage: true;
  query: readonly string[];
}

/** A public page that reads no address parameter. */
export const PUBLIC_PAGE: PublicPageHandle = { publicPage: true, query: [] };

/** A public page that reads these address parameters (and no others). */
export function publicPage(query: readonly string[]): PublicPageHandle {
  return { publicPage: true, query: [...query] };
}

export function isPublicPage(handle: unknown): boolean {
  return publicPageQuery(handle) !== null;
}

/** The parameters a public page reads, or null when the route is not a public page. */
export function publicPageQuery(handle: unknown): readonly string[] | null {
  if (typeof handle !== "object" || handle === null || (handle as { publicPage?: unknown }).publicPage !== true) return null;
  const query = (handle as { query?: unknown }).query;
  return Array.isArray(query) ? query.filter((name): name is string => typeof name === "string") : [];
}
