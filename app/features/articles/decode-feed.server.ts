import iconv from "iconv-lite";

/**
 * Turns a feed's bytes into text. Order of authority: a byte order mark, then the charset of
 * the Content-Type header, then the XML declaration, then UTF-8 (with a windows-1252 retry when
 * undeclared bytes are not valid UTF-8). ISO-8859-1 and US-ASCII are read as windows-1252, as
 * browsers do: real "Latin-1" feeds carry its curly quotes and dashes.
 */
export function decodeFeedBody(body: Buffer, contentType: string | null): { text: string; encoding: string } {
  const bom = sniffBom(body);
  if (bom) return { text: iconv.decode(body.subarray(bom.length), bom.encoding), encoding: bom.encoding };

  const declared = normalizeEncoding(charsetFromContentType(contentType)) ?? normalizeEncoding(charsetFromXmlDeclaration(body));
  if (declared && declared !== "utf-8") return { text: iconv.decode(body, declared), encoding: declared };
  if (!declared && body.length >= 4 && body[0] === 0x3c && body[1] === 0x00 && body[2] === 0x3f && body[3] === 0x00) {
    return { text: iconv.decode(body, "utf-16le"), encoding: "utf-16le" };
  }
  if (!declared && body.length >= 4 && body[0] === 0x00 && body[1] === 0x3c && body[2] === 0x00 && body[3] === 0x3f) {
    return { text: iconv.decode(body, "utf-16be"), encoding: "utf-16be" };
  }
  const text = body.toString("utf8");
  if (!declared && text.includes("\uFFFD") && !isValidUtf8(body)) {
    return { text: iconv.decode(body, "windows-1252"), encoding: "windows-1252" };
  }
  return { text, encoding: "utf-8" };
}

function sniffBom(b: Buffer): { length: number; encoding: string } | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { length: 3, encoding: "utf-8" };
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return { length: 2, encoding: "utf-16le" };
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return { length: 2, encoding: "utf-16be" };
  return null;
}

export function charsetFromContentType(contentType: string | null): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m ? m[1] : null;
}

export function charsetFromXmlDeclaration(body: Buffer): string | null {
  const head = body.subarray(0, 1024).toString("latin1");
  const m = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return m ? m[1] : null;
}

/** A name iconv-lite knows, lower-cased; null for unknown or absent names. */
export function normalizeEncoding(name: string | null): string | null {
  if (!name) return null;
  const n = name.trim().toLowerCase();
  if (["iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "cp1252"].includes(n)) return "windows-1252";
  if (n === "utf8" || n === "utf-8") return "utf-8";
  return iconv.encodingExists(n) ? n : null;
}

function isValidUtf8(b: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}
