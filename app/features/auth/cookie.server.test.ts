import { describe, expect, it } from "vitest";
import { clearSessionCookie, readSessionToken, sessionCookie, sessionCookieName } from "./cookie.server";

describe("session cookie", () => {
  it("is __Host- prefixed over HTTPS and plain on http", () => {
    expect(sessionCookieName(true)).toBe("__Host-aha_session");
    expect(sessionCookieName(false)).toBe("aha_session");
  });

  it("reads only the name of the request's scheme", () => {
    const both = "other=1; aha_session=plain-token; __Host-aha_session=host-token";
    expect(readSessionToken(both, false)).toBe("plain-token");
    expect(readSessionToken(both, true)).toBe("host-token");
    expect(readSessionToken("aha_session=plain-token", true)).toBeNull();
    expect(readSessionToken("__Host-aha_session=host-token", false)).toBeNull();
    expect(readSessionToken("", false)).toBeNull();
    expect(readSessionToken(undefined, true)).toBeNull();
    expect(readSessionToken("theme=dark", false)).toBeNull();
  });

  it("is HttpOnly, SameSite=Lax, for the whole site, until the session ends; Secure only over HTTPS", () => {
    const expires = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    expect(sessionCookie("tok", expires, true)).toBe(
      "__Host-aha_session=tok; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; SameSite=Lax",
    );
    expect(sessionCookie("tok", expires, false)).toBe(
      "aha_session=tok; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; SameSite=Lax",
    );
  });

  it("is cleared under the same name and flags, at once", () => {
    expect(clearSessionCookie(true)).toBe("__Host-aha_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax");
    expect(clearSessionCookie(false)).toBe("aha_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
  });
});
