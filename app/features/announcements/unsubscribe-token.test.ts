import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { UnsubscribeTokens } from "./unsubscribe-token.server";

/**
 * The one-click unsubscribe token (issue 48 §3): only the exact token this server made for a
 * member names that member. Each refusal below was a planted fault no test caught.
 */
describe("the unsubscribe token", () => {
  const tokens = new UnsubscribeTokens(Buffer.from("unsubscribe-test-secret-0123456789"));
  const split = (token: string) => {
    const [id, mac] = token.split(".");
    return { id, mac };
  };

  it("reads back the member it was made for, whatever the id's size", () => {
    for (const userId of [1, 4, 35, 36, 1_000_000, 2_147_483_647]) expect(tokens.read(tokens.make(userId))).toBe(userId);
  });

  it("refuses every prefix of the member's MAC, one character changed and the MAC with more after it", () => {
    const { id, mac } = split(tokens.make(4));
    expect(mac).toHaveLength(32);
    for (let length = 0; length < mac.length; length++)
      expect([length, tokens.read(`${id}.${mac.slice(0, length)}`)]).toEqual([length, null]);
    for (let i = 0; i < mac.length; i++) {
      const changed = mac.slice(0, i) + (mac[i] === "A" ? "B" : "A") + mac.slice(i + 1);
      expect([i, tokens.read(`${id}.${changed}`)]).toEqual([i, null]);
    }
    expect(tokens.read(`${id}.${mac}A`)).toBeNull();
    expect(tokens.read(`${id}.${mac}.`)).toBeNull();
    expect(tokens.read(` ${id}.${mac}`)).toBeNull();
  });

  it("refuses another member's MAC, and a MAC made with another key", () => {
    const mine = split(tokens.make(4));
    const theirs = split(tokens.make(5));
    expect(tokens.read(`${mine.id}.${theirs.mac}`)).toBeNull();
    expect(tokens.read(`${theirs.id}.${mine.mac}`)).toBeNull();
    const other = new UnsubscribeTokens(crypto.randomBytes(32));
    expect(tokens.read(other.make(4))).toBeNull();
  });

  it("accepts one form of the id only: no leading zeros, no capitals, no sign", () => {
    const { id, mac } = split(tokens.make(4));
    expect(id).toBe("4");
    for (const written of ["04", "004", "00000004", "+4", "-4", " 4"])
      expect([written, tokens.read(`${written}.${mac}`)]).toEqual([written, null]);
    const big = split(tokens.make(1_000_000));
    expect(big.id).toBe("lfls");
    expect(tokens.read(`LFLS.${big.mac}`)).toBeNull();
    expect(tokens.read(`0lfls.${big.mac}`)).toBeNull();
  });

  it("refuses what is not a token: id 0, an id past the range, other types", () => {
    for (const userId of [0, 2_147_483_648]) {
      const forged = `${userId.toString(36)}.${crypto
        .createHmac("sha256", Buffer.from("unsubscribe-test-secret-0123456789"))
        .update(`announcements-unsubscribe:${userId}`)
        .digest("base64url")
        .slice(0, 32)}`;
      expect([userId, tokens.read(forged)]).toEqual([userId, null]);
    }
    for (const value of [undefined, null, 4, {}, "", ".", "4.", "x".repeat(65)]) expect(tokens.read(value)).toBeNull();
  });
});
