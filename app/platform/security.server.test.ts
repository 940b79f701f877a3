import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, hostHeaderGuard } from "./security.server";

const directives = (policy: string) => Object.fromEntries(policy.split(";").map((d) => [d.split(" ")[0], d]));

describe("Content-Security-Policy", () => {
  const csp = contentSecurityPolicy({ dev: false, frameSources: ["https://www.youtube-nocookie.com"] });

  it("lets no script run in an answer that is not a page, with every other directive as strict as a page's", () => {
    const any = directives(csp.forAnyAnswer);
    expect(any["script-src"]).toBe("script-src 'none'");
    const page = directives(csp.forPage(["'nonce-abc'"]));
    for (const name of Object.keys(page)) if (name !== "script-src") expect(any[name], name).toBe(page[name]);
    expect(any["object-src"]).toBe("object-src 'none'");
    expect(any["base-uri"]).toBe("base-uri 'none'");
    expect(any["frame-ancestors"]).toBe("frame-ancestors 'none'");
    expect(any["frame-src"]).toBe("frame-src https://www.youtube-nocookie.com");
  });

  it("names a page's scripts by nonce or by hashes, followed by 'strict-dynamic'", () => {
    expect(directives(csp.forPage(["'nonce-abc'"]))["script-src"]).toBe("script-src 'nonce-abc' 'strict-dynamic'");
    expect(directives(csp.forPage(["'sha256-A'", "'sha256-B'"]))["script-src"]).toBe("script-src 'sha256-A' 'sha256-B' 'strict-dynamic'");
    expect(directives(csp.forPage([]))["script-src"]).toBe("script-src 'strict-dynamic'");
  });

  it("in development allows Vite's scripts everywhere", () => {
    const dev = contentSecurityPolicy({ dev: true });
    expect(directives(dev.forPage(["'nonce-abc'"]))["script-src"]).toBe("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
    expect(dev.forAnyAnswer).toBe(dev.forPage([]));
  });
});

describe("Host header guard", () => {
  const answer = (host: string | undefined) => {
    let status = 0;
    let passed = false;
    const res = { status: (s: number) => ((status = s), { json: () => undefined }) };
    hostHeaderGuard({ headers: { host } } as never, res as never, () => (passed = true));
    return passed ? "next" : status;
  };

  it("remembers good hosts without letting a bad one through, however many good ones came first", () => {
    for (let i = 0; i < 200; i++) expect(answer(`site${i}.example:8080`)).toBe("next");
    expect(answer("site1.example:8080")).toBe("next");
    for (const bad of ["a b", "evil:99999", "[::1", "1.2.3.999", "site1.example:8080/x"]) expect(answer(bad), bad).toBe(400);
    expect(answer(undefined)).toBe("next");
  });
});
