import { describe, expect, it } from "vitest";
import { qrCodeSvg, verifyUrl } from "./proof-card.server";

describe("proof-of-coverage card", () => {
  it("names /verify/<token> under the site's origin, with or without its trailing slash", () => {
    expect(verifyUrl("https://aha.example.org", "abc_-1")).toBe("https://aha.example.org/verify/abc_-1");
    expect(verifyUrl("https://aha.example.org/", "abc_-1")).toBe("https://aha.example.org/verify/abc_-1");
  });

  it("draws the QR code as plain SVG (no script, no inline style: the page's policy allows neither)", async () => {
    const svg = await qrCodeSvg("https://aha.example.org/verify/" + "A".repeat(43));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    expect(svg).not.toMatch(/<script|style=|on\w+=/i);
    // Another address, another code; the same address, the same code.
    expect(await qrCodeSvg("https://aha.example.org/verify/" + "B".repeat(43))).not.toBe(svg);
    expect(await qrCodeSvg("https://aha.example.org/verify/" + "A".repeat(43))).toBe(svg);
  });
});
