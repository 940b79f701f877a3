import type { PublicUser } from "./user";
import { isAdmin } from "./user";

// Control characters (C0, DEL, C1, format marks), every kind of space or line separator, and
// the backslash: browsers strip or reinterpret them, so "/\t/evil.example" becomes "//evil.example".
const UNSAFE_IN_PATH = /[\p{C}\p{Z}\s\\]/u;
// Only used to resolve the path; any http origin answers the same question.
const PLACEHOLDER_ORIGIN = "http://site.invalid";

/**
 * A path followed after login, or null. Only a plain same-site path passes: it starts with
 * one "/", has no scheme, no "//", no backslash, no whitespace or control character, and,
 * resolved against the site's own origin, stays on that origin without turning into "//"
 * (as "/..//evil.example" would). The answer is the resolved path, percent-encoded, so it
 * is always a valid Location header.
 */
export function safeRedirectPath(value: string | null | undefined, origin: string = PLACEHOLDER_ORIGIN): string | null {
  if (!value || !value.startsWith("/") || value.includes("//") || UNSAFE_IN_PATH.test(value)) return null;
  let url: URL;
  let base: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  // A second wall: the checks above already keep every value here on the site's own origin
  // with a single leading "/", so no test can reach it (mutation testing: equivalent mutants).
  // Stryker disable next-line all
  if (url.origin !== base.origin || url.username || url.password || url.pathname.startsWith("//")) return null;
  const path = url.pathname.toLowerCase();
  if (path.startsWith("/login") || path.startsWith("/logout")) return null;
  return url.pathname + url.search + url.hash;
}

/** Staff land on /admin/dashboard; members on the page they came from, else /knowledge-center. */
export function landingPath(user: Pick<PublicUser, "role">, redirectTo: string | null | undefined, origin?: string): string {
  if (isAdmin(user as PublicUser)) return "/admin/dashboard";
  return safeRedirectPath(redirectTo, origin) ?? "/knowledge-center";
}

export const LOGIN_NAVIGATION_DELAY_MS = 100;
