import { describe, expect, it } from "vitest";
import {
  hasMixedScripts,
  holdsIllFormedText,
  holdsWebOrMailAddress,
  isCleanMultiLine,
  isOneLine,
  notANameMessage,
  scriptsOf,
  stripControlChars,
} from "./text-fields";

describe("one rule for text fields", () => {
  it("a one-line field takes letters, accents, emoji and spaces", () => {
    for (const ok of ["Dana Reyes", "José Núñez-O'Brien", "李小龍", "Dana 😀", "Zoë & Ana", ""]) expect(isOneLine(ok), ok).toBe(true);
  });

  it.each([
    ["NUL", "a\u0000b"],
    ["tab", "a\tb"],
    ["line feed", "a\nb"],
    ["DEL", "a\u007fb"],
    ["C1 control", "a\u0085b"],
    ["line separator (Zl)", "a\u2028b"],
    ["paragraph separator (Zp)", "a\u2029b"],
    ["right-to-left override (Cf)", "a\u202eb"],
    ["first strong isolate (Cf)", "a\u2068b"],
    ["zero-width space (Cf)", "a\u200bb"],
    ["zero-width joiner (Cf)", "a\u200db"],
    ["byte order mark (Cf)", "a\ufeffb"],
    ["lone high surrogate (Cs)", "a\ud800b"],
    ["lone low surrogate (Cs)", "a\udc00"],
  ])("a one-line field refuses the %s", (_name, value) => {
    expect(isOneLine(value)).toBe(false);
    expect(isOneLine(stripControlChars(value))).toBe(true);
  });

  it("a multi-line field keeps newline, carriage return, tab and the emoji joiner, and refuses the rest", () => {
    expect(isCleanMultiLine("Line one\r\nLine two\n\tindented 👨\u200d👩\u200d👧")).toBe(true);
    for (const bad of ["a\u0000", "a\u2028b", "a\u202eb", "a\u200bb", "a\ud800"])
      expect(isCleanMultiLine(bad), JSON.stringify(bad)).toBe(false);
    expect(stripControlChars("a\u202eb\nc\u200dd", { keepLineBreaks: true })).toBe("ab\nc\u200dd");
  });

  it("finds ill-formed text anywhere in a parsed JSON body", () => {
    expect(holdsIllFormedText({ a: ["ok", { b: "😀" }] })).toBe(false);
    expect(holdsIllFormedText("\ud800")).toBe(true);
    expect(holdsIllFormedText({ a: [1, { b: "x\udfff" }] })).toBe(true);
    expect(holdsIllFormedText({ ["k\ud800"]: 1 })).toBe(true);
    expect(holdsIllFormedText([null, true, 3])).toBe(false);
  });
});

describe("names are names (issue 39)", () => {
  it("finds web and e-mail addresses", () => {
    for (const address of [
      "Pay now at http://evil.example/pay - urgent",
      "hxxps://evil",
      "www.evil.example",
      "evil.example/pay",
      "Visit evil.com today",
      "pay@evil.example",
      "pay\uff20evil",
      "HTTPS://X.Y",
    ])
      expect(holdsWebOrMailAddress(address), address).toBe(true);
  });
  it("leaves names alone", () => {
    for (const name of ["St. John", "J.R.R. Tolkien", "O'Brien-Smith", "Mary Ann", "Dr.Who", "José Núñez", "Anne-Marie St.Clair"])
      expect(holdsWebOrMailAddress(name), name).toBe(false);
  });
  it("names the field", () => {
    expect(notANameMessage("First name")).toBe("First name must be a name, not a web or e-mail address.");
  });
});

describe("mixed-script names (issue 39)", () => {
  it("finds a look-alike letter of another script", () => {
    expect(scriptsOf("\u0410lice Anders")).toEqual(["Cyrillic", "Latin"]);
    expect(hasMixedScripts("\u0410lice Anders")).toBe(true);
    // Greek omicron in "Bob".
    expect(hasMixedScripts("B\u03bfb")).toBe(true);
  });
  it("leaves one-script names alone, accents, digits and punctuation included", () => {
    for (const name of ["Alice Anders", "José Núñez-O'Brien", "Иван Петров", "Ζωή", "李小龍", "山田 はなこ", "Anne 2nd", "", null])
      expect(hasMixedScripts(name), String(name)).toBe(false);
  });
});
