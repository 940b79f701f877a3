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

/** The shared content a kept signed-in page shows: what makes it render again when it changes. */
export type SignedInPageContent = "articles" | "membership";

/**
 * A route's `handle` when its page, for a signed-in user, differs from one user to another of
 * the same role only by the user itself (the root loader's `user`: names, certificate number,
 * id) and the nonce: its loaders read nothing else of the person. The server keeps it rendered
 * per address, role and shape of the user, and puts the person in when it serves it
 * (docs/decisions/011-signed-in-pages.md). `query` names every address parameter the page
 * reads, as for a public page; `content` the shared content it shows.
 */
export interface SignedInPageHandle {
  signedInPage: true;
  query: readonly string[];
  content: SignedInPageContent;
}

export function signedInPage(content: SignedInPageContent, query: readonly string[] = []): SignedInPageHandle {
  return { signedInPage: true, query: [...query], content };
}

/** The page's parameters and content when the route is a signed-in page kept per role, else null. */
export function signedInPageOf(handle: unknown): { query: readonly string[]; content: SignedInPageContent } | null {
  if (typeof handle !== "object" || handle === null || (handle as { signedInPage?: unknown }).signedInPage !== true) return null;
  const { query, content } = handle as { query?: unknown; content?: unknown };
  if (content !== "articles" && content !== "membership") return null;
  return { query: Array.isArray(query) ? query.filter((name): name is string => typeof name === "string") : [], content };
}
