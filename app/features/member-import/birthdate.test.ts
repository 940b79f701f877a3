import { describe, expect, it } from "vitest";
import { normalizeBirthdate } from "~/features/auth/normalize";
import { parseBirthdate, toMmddyy } from "./birthdate";

const TODAY = "2024-06-15";

describe("parseBirthdate", () => {
  it.each([
    ["1980-01-15", [1980, 1, 15]],
    ["01/15/1980", [1980, 1, 15]],
    ["01-15-1980", [1980, 1, 15]],
    ["1980/01/15", [1980, 1, 15]],
    ["1/5/1980", [1980, 1, 5]],
    [" 1980-1-5 ", [1980, 1, 5]],
    ["2000-02-29", [2000, 2, 29]],
    ["2024-06-15", [2024, 6, 15]],
  ])("accepts %s", (value, [year, month, day]) => {
    expect(parseBirthdate(value, TODAY)).toEqual({ ok: true, year, month, day });
  });

  it.each([
    ["15/01/1980", "impossible"],
    ["1980-02-30", "impossible"],
    ["1900-02-29", "impossible"],
    ["2023-02-29", "impossible"],
    ["1980-13-01", "impossible"],
    ["1980-00-10", "impossible"],
    ["1980-04-31", "impossible"],
    ["2024-06-16", "future"],
    ["2099-01-01", "future"],
    ["1899-12-31", "too-old"],
    ["1980.01.15", "format"],
    ["1980-01/15", "format"],
    ["80-01-15", "format"],
    ["011580", "format"],
    ["January 15, 1980", "format"],
    ["", "format"],
    ["1980-01-", "format"],
    ["1980--01", "format"],
    ["1980-01-15-", "format"],
    ["/01/15/1980", "format"],
    ["01/15/19800", "format"],
    ["001/15/1980", "format"],
    ["1980-001-15", "format"],
    ["1980-01-15 10:00", "format"],
  ])("rejects %s (%s)", (value, reason) => {
    expect(parseBirthdate(value, TODAY)).toEqual({ ok: false, reason });
  });
});

describe("toMmddyy", () => {
  it("is what login makes of the typed password, for every accepted format", () => {
    expect(toMmddyy(1980, 1, 5)).toBe("010580");
    expect(toMmddyy(2003, 12, 31)).toBe("123103");
    for (const typed of ["010580", "01/05/80", "01051980", "1980-01-05"]) expect(normalizeBirthdate(typed)).toBe("010580");
  });
});
