import { describe, expect, it } from "vitest";
import { MAX_RECORD_ID, parseRecordId, recordIdSchema } from "./ids";

describe("record ids", () => {
  it("takes a positive whole JSON number or a string of decimal digits", () => {
    expect(parseRecordId(1)).toBe(1);
    expect(parseRecordId(108)).toBe(108);
    expect(parseRecordId("108")).toBe(108);
    expect(parseRecordId(MAX_RECORD_ID)).toBe(MAX_RECORD_ID);
    expect(parseRecordId(String(MAX_RECORD_ID))).toBe(MAX_RECORD_ID);
  });

  it.each([
    ["0x6c"],
    ["0o154"],
    ["0b1"],
    ["1e2"],
    ["1.0"],
    [" 7"],
    ["7 "],
    ["+7"],
    ["-7"],
    ["07"],
    ["0"],
    [""],
    ["١٢"],
    [String(MAX_RECORD_ID + 1)],
    ["99999999999"],
    [0],
    [-1],
    [1.5],
    [MAX_RECORD_ID + 1],
    [Number.NaN],
    [Infinity],
    [true],
    [false],
    [null],
    [undefined],
    [[109]],
    [{ id: 1 }],
  ])("refuses %j", (value) => {
    expect(parseRecordId(value)).toBeNull();
    expect(recordIdSchema("Invalid id").safeParse(value).success).toBe(false);
  });

  it("the schema carries the caller's message", () => {
    const result = recordIdSchema("Feed id is required").safeParse("0x6c");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("Feed id is required");
    expect(recordIdSchema("x").parse("42")).toBe(42);
  });
});
