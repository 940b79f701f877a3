import { data } from "react-router";
import { ILL_FORMED_TEXT } from "./http.server";

export const UNREADABLE_FORM = "The form could not be read. Please fill it in on the page and send it again.";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The body of a page action, read as a browser form posts it. Anything else (JSON, plain
 * text, no body, a broken multipart body) is the caller's mistake: a 400, never a 500. A
 * form whose bytes, or percent-escapes, are not UTF-8 (a 0xFF, a %FF) is refused as the JSON
 * API refuses it, rather than read with U+FFFD in their place.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw data(UNREADABLE_FORM, { status: 400 });
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.clone().arrayBuffer());
  } catch {
    throw data(UNREADABLE_FORM, { status: 400 });
  }
  // No page form sends a file: a multipart body is its text fields, UTF-8 as a whole.
  if (!isUtf8Text(type === FORM_TYPES[0] ? percentDecoded(bytes) : bytes)) throw data(ILL_FORMED_TEXT, { status: 400 });
  try {
    return await request.formData();
  } catch {
    throw data(UNREADABLE_FORM, { status: 400 });
  }
}

const PERCENT = 0x25;
const hexValue = (b: number) => (b >= 0x30 && b <= 0x39 ? b - 0x30 : (b | 0x20) >= 0x61 && (b | 0x20) <= 0x66 ? (b | 0x20) - 0x57 : -1);

/** The bytes a urlencoded body stands for: each %XX as its byte, anything else as it is. */
function percentDecoded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const high = bytes[i] === PERCENT && i + 2 < bytes.length ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (low >= 0) {
      out[n++] = high * 16 + low;
      i += 2;
    } else out[n++] = bytes[i];
  }
  return out.subarray(0, n);
}

function isUtf8Text(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
