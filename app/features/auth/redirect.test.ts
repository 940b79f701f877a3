import { describe, expect, it } from "vitest";
import { landingPath, safeRedirectPath } from "./redirect";

/** What a browser would do with the answer: the URL it ends up at, resolved against our origin. */
const followed = (location: string) => new URL(location, "https://aha.example");

describe("safeRedirectPath", () => {
  const hostile = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\u3000/evil.example",
    "/\u2028/evil.example",
    "/\u2029/evil.example",
    "/\u00a0/evil.example",
    "/\u200b/evil.example",
    "/\u0000/evil.example",
    "/ /evil.example",
    "/x y",
    "//evil.example",
    "/\\evil.example",
    "/x\\y",
    "/..//evil.example",
    "/a/../..//evil.example",
    "/knowledge-center?next=//evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/login",
    "/LOGOUT",
    "/login/next",
    "/Login?next=/application",
    "/logout/now",
  ];
  it.each(hostile)("refuses %j", (value) => {
    expect(safeRedirectPath(value, "https://aha.example")).toBeNull();
    expect(safeRedirectPath(value)).toBeNull();
  });

  it("refuses everything when the site's own origin is not a URL", () => {
    expect(safeRedirectPath("/application", "not a url")).toBeNull();
  });

  it("keeps a plain path with its query and fragment, percent-encoded so it is a valid Location", () => {
    expect(safeRedirectPath("/knowledge-center?page=2&category=roofing#top", "https://aha.example")).toBe(
      "/knowledge-center?page=2&category=roofing#top",
    );
    expect(safeRedirectPath("/café?q=é")).toBe("/caf%C3%A9?q=%C3%A9");
    expect(followed(safeRedirectPath("/application")!).origin).toBe("https://aha.example");
  });

  it("sends members to a safe path or the knowledge center, staff to the dashboard", () => {
    expect(landingPath({ role: "user" }, "/\t/evil.example")).toBe("/knowledge-center");
    expect(landingPath({ role: "user" }, "/application")).toBe("/application");
    expect(landingPath({ role: "super_admin" }, "/application")).toBe("/admin/dashboard");
  });
});
