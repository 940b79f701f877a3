import { parse, serialize } from "cookie";

/** `__Host-` prefixed and Secure over HTTPS; a plain name on http://localhost where Secure cookies would be dropped. */
export function sessionCookieName(secure: boolean) {
  return secure ? "__Host-aha_session" : "aha_session";
}

/**
 * Only the name that belongs to the request's scheme is read. The session itself is bound to
 * its scheme too (SessionStore.resolve), so a token moved from one cookie name to the other
 * does not work either.
 */
export function readSessionToken(cookieHeader: string | undefined, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const cookies = parse(cookieHeader);
  return cookies[sessionCookieName(secure)] ?? null;
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return serialize(sessionCookieName(secure), token, {
    httpOnly: true,
    secure,
    sameSite: "lax",
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(secure: boolean): string {
  return serialize(sessionCookieName(secure), "", { httpOnly: true, secure, sameSite: "lax", path: "/", maxAge: 0 });
}
