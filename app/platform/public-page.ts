/**
 * A route's `handle` when its page shows every anonymous visitor the same HTML for the same
 * address (it reads only the settings and the URL): the server keeps it rendered and answers
 * it with shared-cache headers (docs/decisions/007-public-page-cache.md). A page that shows
 * stored content or anything of the visitor must not carry it.
 */
export const PUBLIC_PAGE = { publicPage: true } as const;

export function isPublicPage(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { publicPage?: unknown }).publicPage === true;
}
