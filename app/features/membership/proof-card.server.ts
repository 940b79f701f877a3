import QRCode from "qrcode";

/** Drawings kept, the least recently asked for dropped first (a few KB each). */
export const QR_DRAWINGS_KEPT = 1000;
const drawings = new Map<string, Promise<string>>();

/**
 * The proof-of-coverage card's QR code, drawn on the server as SVG markup (the page shows it
 * as it is, so the card costs the browser no script). Medium error correction survives a
 * smudged or creased print; the quiet zone is the two modules scanners need.
 *
 * A card's address changes only with its token ("New code"), and the drawing is a function of
 * the address alone: it is drawn once and kept with it (issue 42 §1), for the last
 * `QR_DRAWINGS_KEPT` addresses asked for. Members asking at once for the same card share one drawing.
 */
export function qrCodeSvg(text: string): Promise<string> {
  let drawing = drawings.get(text);
  if (drawing) {
    drawings.delete(text);
    drawings.set(text, drawing);
    return drawing;
  }
  drawing = QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#000000", light: "#ffffff" } });
  drawings.set(text, drawing);
  // A drawing that failed is not kept: the next ask draws it again.
  drawing.catch(() => {
    if (drawings.get(text) === drawing) drawings.delete(text);
  });
  if (drawings.size > QR_DRAWINGS_KEPT) drawings.delete(drawings.keys().next().value!);
  return drawing;
}

/** The absolute address a card's QR code opens: the configured public address, else the request's own origin. */
export function verifyUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/verify/${encodeURIComponent(token)}`;
}
