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

/** A page whose own content is the signed-in user's, read and rendered per request into a kept frame: its name among the server's frames. */
export type SignedInFrameName = "account";

/**
 * A route's `handle` when everything of its page but its own content (the header, the footer,
 * React Router's document) differs from one user to another of the same role only by the user
 * itself and the nonce, and its own content is the user's: read and rendered for each request,
 * and put into the frame kept per role and shape of the user (docs/decisions/013-account-frame.md).
 * The route's loader returns that content as one string (`frameContent` in the load context
 * when the server renders the frame), and its component renders a string that is not JSON as
 * it is: the stand-in's marker where the content goes.
 */
export interface SignedInFrameHandle {
  signedInPage: true;
  query: readonly string[];
  frame: SignedInFrameName;
}

export function signedInFrame(frame: SignedInFrameName): SignedInFrameHandle {
  return { signedInPage: true, query: [], frame };
}

/** A kept signed-in page's parameters, shared content (null: none) and own content's frame (null: none). */
export interface SignedInPageOf {
  query: readonly string[];
  content: SignedInPageContent | null;
  frame: SignedInFrameName | null;
}

/** The page's parameters and content when the route is a signed-in page kept per role, else null. */
export function signedInPageOf(handle: unknown): SignedInPageOf | null {
  if (typeof handle !== "object" || handle === null || (handle as { signedInPage?: unknown }).signedInPage !== true) return null;
  const { query, content, frame } = handle as { query?: unknown; content?: unknown; frame?: unknown };
  const names = Array.isArray(query) ? query.filter((name): name is string => typeof name === "string") : [];
  if (frame === "account") return { query: names, content: null, frame };
  if (content !== "articles" && content !== "membership") return null;
  return { query: names, content, frame: null };
}
