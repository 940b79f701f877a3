import QRCode from "qrcode";

/**
 * The proof-of-coverage card's QR code, drawn on the server as SVG markup (the page shows it
 * as it is, so the card costs the browser no script). Medium error correction survives a
 * smudged or creased print; the quiet zone is the two modules scanners need.
 */
export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#000000", light: "#ffffff" } });
}

/** The absolute address a card's QR code opens: the configured public address, else the request's own origin. */
export function verifyUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/verify/${encodeURIComponent(token)}`;
}
