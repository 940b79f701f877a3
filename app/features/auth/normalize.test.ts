import { describe, expect, it } from "vitest";
import {
  birthdateFromPaste,
  isNormalizedBirthdate,
  maskBirthdateEdit,
  maskBirthdateInput,
  normalizeBirthdate,
  normalizeCertificate,
} from "./normalize";

describe("normalizeCertificate", () => {
  it("trims and upper-cases", () => {
    expect(normalizeCertificate("  ab12cd  ")).toBe("AB12CD");
    expect(normalizeCertificate("aha-00042")).toBe("AHA-00042");
    expect(normalizeCertificate("")).toBe("");
  });
});

describe("normalizeBirthdate", () => {
  it("turns dashes with three parts (YYYY-MM-DD) into MMDDYY", () => {
    expect(normalizeBirthdate("1985-03-07")).toBe("030785");
    expect(normalizeBirthdate("1985-12-31")).toBe("123185");
  });
  it("pads month and day of dashed dates", () => {
    expect(normalizeBirthdate("1985-3-7")).toBe("030785");
    expect(normalizeBirthdate("2001-1-09")).toBe("010901");
  });
  it("keeps the last two digits of the first dashed part as the year", () => {
    expect(normalizeBirthdate("85-03-07")).toBe("030785");
    expect(normalizeBirthdate("5-03-07")).toBe("03075");
  });
  it("does not apply the dash rule to two or four parts", () => {
    expect(normalizeBirthdate("0307-85")).toBe("030785");
    expect(normalizeBirthdate("1985-03-07-1")).toBe("198503071");
  });
  it("drops the century from 8 digits", () => {
    expect(normalizeBirthdate("03071985")).toBe("030785");
    expect(normalizeBirthdate("03/07/1985")).toBe("030785");
    expect(normalizeBirthdate("12312000")).toBe("123100");
  });
  it("keeps 6 digits", () => {
    expect(normalizeBirthdate("030785")).toBe("030785");
    expect(normalizeBirthdate("03/07/85")).toBe("030785");
    expect(normalizeBirthdate(" 030785 ")).toBe("030785");
  });
  it("strips junk and leaves what digits remain", () => {
    expect(normalizeBirthdate("abc")).toBe("");
    expect(normalizeBirthdate("")).toBe("");
    expect(normalizeBirthdate("0307a85")).toBe("030785");
    expect(normalizeBirthdate("12345")).toBe("12345");
    expect(normalizeBirthdate("1234567")).toBe("1234567");
  });
  it("is idempotent on its own output", () => {
    for (const v of ["1985-03-07", "03071985", "030785"]) {
      expect(normalizeBirthdate(normalizeBirthdate(v))).toBe(normalizeBirthdate(v));
    }
  });
});

describe("maskBirthdateInput", () => {
  it("keeps digits only, at most 8 characters", () => {
    expect(maskBirthdateInput("030785")).toBe("030785");
    expect(maskBirthdateInput("030719851")).toBe("03071985");
    expect(maskBirthdateInput("03-07-85x")).toBe("030785");
  });
  it("drops separators, so a birthdate typed with slashes keeps its year (issue 14)", () => {
    expect(maskBirthdateInput("05/17/1980")).toBe("05171980");
    expect(normalizeBirthdate(maskBirthdateInput("05/17/1980"))).toBe("051780");
    expect(maskBirthdateInput("05/17/80")).toBe("051780");
    expect(maskBirthdateInput("05.17.1980")).toBe("05171980");
  });
});

describe("maskBirthdateEdit", () => {
  it("typed one character at a time, 05/17/1980 ends as 05171980 with the caret at the end", () => {
    let state = { value: "", caret: 0 };
    for (const ch of "05/17/1980") state = maskBirthdateEdit(state.value + ch, state.value.length + 1);
    expect(state).toEqual({ value: "05171980", caret: 8 });
  });
  it("keeps the caret after the digits before it when a separator is typed mid-field", () => {
    expect(maskBirthdateEdit("05/171980", 3)).toEqual({ value: "05171980", caret: 2 });
    expect(maskBirthdateEdit("0517/1980", 5)).toEqual({ value: "05171980", caret: 4 });
  });
});

describe("birthdateFromPaste", () => {
  it("keeps the digits of a month-first date, whatever the separator", () => {
    expect(birthdateFromPaste("05/17/1980")).toBe("05171980");
    expect(birthdateFromPaste(" 05-17-1980 ")).toBe("05171980");
    expect(birthdateFromPaste("05.17.80")).toBe("051780");
  });
  it("puts a year-first date in the mask's order", () => {
    expect(birthdateFromPaste("1980-05-17")).toBe("051780");
    expect(birthdateFromPaste("1980-5-7")).toBe("050780");
  });
});

describe("isNormalizedBirthdate", () => {
  it("accepts exactly six digits", () => {
    expect(isNormalizedBirthdate("030785")).toBe(true);
    expect(isNormalizedBirthdate("03078")).toBe(false);
    expect(isNormalizedBirthdate("0307851")).toBe(false);
  });
});
