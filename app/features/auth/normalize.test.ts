import { describe, expect, it } from "vitest";
import { isNormalizedBirthdate, maskBirthdateInput, normalizeBirthdate, normalizeCertificate } from "./normalize";

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
  it("keeps digits and slashes, at most 8 characters", () => {
    expect(maskBirthdateInput("03/07/85")).toBe("03/07/85");
    expect(maskBirthdateInput("030719851")).toBe("03071985");
    expect(maskBirthdateInput("03-07-85x")).toBe("030785");
  });
});

describe("isNormalizedBirthdate", () => {
  it("accepts exactly six digits", () => {
    expect(isNormalizedBirthdate("030785")).toBe(true);
    expect(isNormalizedBirthdate("03078")).toBe(false);
    expect(isNormalizedBirthdate("0307851")).toBe(false);
  });
});
