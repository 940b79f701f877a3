import zlib from "node:zlib";

/**
 * Real PNG files for signature tests: a white image of the given size, optionally padded with
 * a private ancillary chunk to reach a byte size (still a valid PNG).
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes RGBA scanlines (each starting with its filter byte) as a PNG; `extra` chunks go before IEND. */
export function encodePng(width: number, height: number, raw: Buffer, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), ...extra, chunk("IEND", Buffer.alloc(0))]);
}

/** White RGBA scanlines, each starting with its filter byte (0). */
export function whiteScanlines(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height, 0xff);
  for (let y = 0; y < height; y++) raw[y * (width * 4 + 1)] = 0;
  return raw;
}

export function makePng(width = 40, height = 20, padToBytes = 0): Buffer {
  const raw = whiteScanlines(width, height);
  const size = encodePng(width, height, raw).length;
  // A private ancillary chunk (12 bytes of framing plus its data) brings the file to the size asked for.
  const padding = padToBytes > size + 12 ? [chunk("prVt", Buffer.alloc(padToBytes - size - 12, 0x41))] : [];
  return encodePng(width, height, raw, padding);
}

export const pngDataUrl = (png: Buffer = makePng()) => `data:image/png;base64,${png.toString("base64")}`;
