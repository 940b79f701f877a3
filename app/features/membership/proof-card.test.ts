import { describe, expect, it } from "vitest";
import { QR_DRAWINGS_KEPT, qrCodeSvg, verifyUrl } from "./proof-card.server";

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

  it("draws a code once for its address: asked again, the drawing kept with it; the least recently asked dropped beyond the limit", () => {
    const url = (n: number) => `https://aha.example.org/verify/${String(n).padStart(43, "k")}`;
    const first = qrCodeSvg(url(1));
    expect(qrCodeSvg(url(1))).toBe(first);
    // A new code ("New code" gives a new token) is drawn for itself.
    expect(qrCodeSvg(url(2))).not.toBe(first);
    for (let n = 3; n < 3 + QR_DRAWINGS_KEPT; n++) qrCodeSvg(url(n));
    expect(qrCodeSvg(url(1))).not.toBe(first);
  });
});
