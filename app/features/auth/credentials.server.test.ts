import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  birthdateDigest,
  dummyPasswordHash,
  hashPassword,
  loadAuthSecret,
  newSessionToken,
  safeEqual,
  sessionIdHash,
  verifyPassword,
} from "./credentials.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-credentials-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("the birthdate key", () => {
  it("is AUTH_SECRET when set, and then no file is written", () => {
    const dir = tempDir();
    expect(loadAuthSecret("configured secret", dir).toString("utf8")).toBe("configured secret");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("is otherwise generated once into DATA_DIR (created if missing), mode 600, 32 random bytes, and read back after", () => {
    const dir = path.join(tempDir(), "nested", "data");
    const first = loadAuthSecret(undefined, dir);
    const file = path.join(dir, "auth-secret.key");
    expect(first).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, "utf8")).toBe(`${first.toString("base64")}\n`);
    expect(loadAuthSecret(undefined, dir).equals(first)).toBe(true);
    expect(loadAuthSecret("", dir).equals(first)).toBe(true);
    expect(loadAuthSecret(undefined, tempDir()).equals(first)).toBe(false);
  });

  it("reads a key file with surrounding spaces, and fails loudly on a key file it cannot read", () => {
    const dir = tempDir();
    const key = crypto.randomBytes(32);
    fs.writeFileSync(path.join(dir, "auth-secret.key"), `  ${key.toString("base64")}  \n`);
    expect(loadAuthSecret(undefined, dir).equals(key)).toBe(true);
    const unreadable = tempDir();
    fs.mkdirSync(path.join(unreadable, "auth-secret.key"));
    expect(() => loadAuthSecret(undefined, unreadable)).toThrow(/EISDIR/);
    // A data directory that is a file: the error is the one creating it, not swallowed.
    const notADir = path.join(tempDir(), "file");
    fs.writeFileSync(notADir, "x");
    expect(() => loadAuthSecret(undefined, notADir)).toThrow(/EEXIST|ENOTDIR/);
    expect(() => loadAuthSecret(undefined, path.join(notADir, "sub"))).toThrow(/ENOTDIR/);
  });
});

describe("digests and tokens", () => {
  it("digests a birthdate with the key: HMAC-SHA256 of 'birthdate:<MMDDYY>', hex", () => {
    const key = Buffer.from("k");
    expect(birthdateDigest(key, "011580")).toBe(crypto.createHmac("sha256", key).update("birthdate:011580").digest("hex"));
    expect(birthdateDigest(key, "011580")).not.toBe(birthdateDigest(Buffer.from("other"), "011580"));
    expect(birthdateDigest(key, "011580")).not.toBe(birthdateDigest(key, "011581"));
  });

  it("compares strings whole, whatever their lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("abcd", "abc")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("", "a")).toBe(false);
  });

  it("makes 256-bit url-safe session tokens, stored only as their SHA-256", () => {
    const a = newSessionToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(newSessionToken()).not.toBe(a);
    expect(sessionIdHash("tok")).toBe(crypto.createHash("sha256").update("tok").digest("hex"));
  });
});

describe("staff passwords", () => {
  it("hash with scrypt N=2^15 r=8 p=1, a 16-byte salt and a 32-byte key, and verify only the same password", async () => {
    const stored = await hashPassword("correct horse battery");
    const [scheme, n, r, p, salt, hash] = stored.split("$");
    expect([scheme, n, r, p]).toEqual(["scrypt", "32768", "8", "1"]);
    expect(Buffer.from(salt, "base64")).toHaveLength(16);
    expect(Buffer.from(hash, "base64")).toHaveLength(32);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await hashPassword("correct horse battery")).not.toBe(stored);
  });

  it("verify against the parameters stored with the hash", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const key = crypto.scryptSync("pw", salt, 32, { N: 1024, r: 4, p: 2 });
    const stored = ["scrypt", 1024, 4, 2, salt.toString("base64"), key.toString("base64")].join("$");
    expect(await verifyPassword("pw", stored)).toBe(true);
    expect(await verifyPassword("pw", stored.replace("$1024$4$2$", "$1024$4$1$"))).toBe(false);
  });

  it("refuse anything that is not a whole scrypt hash", async () => {
    const stored = await hashPassword("pw-pw-pw-pw-pw");
    const [, n, r, p, salt, hash] = stored.split("$");
    for (const bad of [
      ["bcrypt", n, r, p, salt, hash].join("$"),
      ["scrypt", n, r, p, "", hash].join("$"),
      ["scrypt", n, r, p, salt, ""].join("$"),
      ["scrypt", n, r, p, salt].join("$"),
      "",
    ])
      expect(await verifyPassword("pw-pw-pw-pw-pw", bad), bad).toBe(false);
  });

  it("a dummy hash for unknown accounts, made once, that no password opens", async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy.startsWith("scrypt$32768$8$1$")).toBe(true);
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(await verifyPassword("", dummy)).toBe(false);
  });
});
