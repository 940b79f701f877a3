/**
 * Checks a drawn signature as sent by the browser: a PNG data URL
 * (data:image/png;base64,...) whose bytes really are a PNG (signature bytes and a sane IHDR
 * chunk) and at most 500 KB. Runs in the browser and on the server (atob, no Buffer).
 */

export const SIGNATURE_MAX_BYTES = 500 * 1024;
export const PNG_DATA_URL_PREFIX = "data:image/png;base64,";
/** The longest data URL a signature within the byte limit can have. */
export const SIGNATURE_MAX_CHARS = PNG_DATA_URL_PREFIX.length + Math.ceil(SIGNATURE_MAX_BYTES / 3) * 4;
/** Wider or taller than any screen's canvas (at 3x density) is not a drawn signature. */
const MAX_SIDE = 10_000;

export type SignatureProblem = "invalid" | "not-png" | "too-large";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function checkSignatureDataUrl(value: string): SignatureProblem | null {
  const comma = value.indexOf(",");
  if (!value.startsWith("data:") || comma < 0) return "invalid";
  const header = value.slice(5, comma).toLowerCase();
  if (!header.endsWith(";base64")) return "invalid";
  if (header !== "image/png;base64") return "not-png";
  const data = value.slice(comma + 1);
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return "invalid";
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  if ((data.length / 4) * 3 - padding > SIGNATURE_MAX_BYTES) return "too-large";
  // Signature (8 bytes) + IHDR length and type (8) + width, height, bit depth, colour type (10).
  const head = decodeBase64(data.slice(0, 36));
  if (head.length < 26) return "not-png";
  if (PNG_MAGIC.some((b, i) => head[i] !== b)) return "not-png";
  const ihdrLength = readUint32(head, 8);
  const chunkType = String.fromCharCode(head[12], head[13], head[14], head[15]);
  if (ihdrLength !== 13 || chunkType !== "IHDR") return "not-png";
  const width = readUint32(head, 16);
  const height = readUint32(head, 20);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return "not-png";
  const bitDepth = head[24];
  const colourType = head[25];
  if (![1, 2, 4, 8, 16].includes(bitDepth) || ![0, 2, 3, 4, 6].includes(colourType)) return "not-png";
  return null;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function readUint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
}
