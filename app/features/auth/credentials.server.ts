import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const scryptAsync = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const MIN_PASSWORD_LENGTH = 12;
const SCRYPT = { N: 1 << 15, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 };

/**
 * The key for member birthdate digests: AUTH_SECRET, else a key file generated once in
 * DATA_DIR with mode 600. It lives outside the database, so a stolen database alone cannot
 * be searched through the ~36,600 possible birthdates.
 */
export function loadAuthSecret(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured);
  const file = path.join(dataDir, "auth-secret.key");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // Only written when there is none yet ("wx"); whoever wrote it first, every process reads the same key.
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return Buffer.from(fs.readFileSync(file, "utf8"), "base64");
}

export function birthdateDigest(secret: Buffer, normalizedBirthdate: string): string {
  return crypto.createHmac("sha256", secret).update(`birthdate:${normalizedBirthdate}`).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, hashB64] = stored.split("$");
  if (scheme !== "scrypt" || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, "base64");
  const actual = await scryptAsync(password, Buffer.from(saltB64, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash to verify against when the account does not exist, so the work is the same. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return dummyHash;
}

export function newSessionToken(): string {
  return crypto.randomBytes(32).toString("base64url"); // 256 bits
}

export function sessionIdHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
