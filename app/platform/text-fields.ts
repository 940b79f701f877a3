import { z } from "~/platform/zod";

/**
 * Rules for text typed by people, shared by every schema (browser and server alike), and for
 * text the site takes from elsewhere (feeds, case records).
 *
 * A one-line field (a name, an e-mail address, a URL, a file name) holds no invisible or
 * layout-changing character: no control character (Unicode Cc: NUL, tab, CR, LF, DEL, C1),
 * no format character (Cf: bidi overrides and isolates such as U+202E, zero-width spaces and
 * joiners, the BOM, soft hyphens), no line or paragraph separator (Zl, Zp), and no lone half
 * of a surrogate pair (Cs: text that is not well-formed Unicode). Staff would otherwise read
 * spoofed or reversed text.
 * A multi-line field (a message) also keeps newline, carriage return and tab, and the
 * zero-width joiner that emoji sequences are made of.
 */
const NOT_ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const NOT_ONE_LINE_GLOBAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const NOT_MULTI_LINE = /(?![\t\n\r\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const NOT_MULTI_LINE_GLOBAL = /(?![\t\n\r\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** Printable ASCII only: the usual value, checked without the Unicode regex. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

export const isOneLine = (value: string) => PLAIN_ASCII.test(value) || !NOT_ONE_LINE.test(value);
export const isCleanMultiLine = (value: string) => !NOT_MULTI_LINE.test(value);

/** Removes what a field of its kind may not hold; `keepLineBreaks` keeps what a multi-line field may. */
export function stripControlChars(value: string, { keepLineBreaks = false, replacement = "" } = {}) {
  return value.replace(keepLineBreaks ? NOT_MULTI_LINE_GLOBAL : NOT_ONE_LINE_GLOBAL, replacement);
}

export const oneLineMessage = (label: string) => `${label} must be a single line without control characters`;
export const multiLineMessage = (label: string) => `${label} must not contain control characters`;

/** A string on one line: refuses line breaks and control characters with a message naming the field. */
export function oneLineString(label: string, typeError?: string) {
  return z.string(typeError ?? `${label} must be text`).refine(isOneLine, oneLineMessage(label));
}

/** A string of several lines: newline and tab are kept, other control characters refused. */
export function multiLineString(label: string, typeError?: string) {
  return z.string(typeError ?? `${label} must be text`).refine(isCleanMultiLine, multiLineMessage(label));
}

// With the u flag a lone surrogate reads as one code point of category Cs; a valid pair does not.
const LONE_SURROGATE = /\p{Cs}/u;

/** True when a string, or any string inside an array or object, is not well-formed Unicode (a lone surrogate). */
export function holdsIllFormedText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (depth > 64 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => holdsIllFormedText(v, depth + 1));
  for (const [k, v] of Object.entries(value)) if (LONE_SURROGATE.test(k) || holdsIllFormedText(v, depth + 1)) return true;
  return false;
}

/**
 * A web or e-mail address where a name belongs (issue 39: "Pay now at http://evil.example/pay"
 * went into a mail as "Dear Pay now at ..."): an @ (or its full-width forms), a scheme
 * ("http://", "hxxp://"), "www.", a domain followed by a path, or a bare domain of a common
 * top-level domain. Kept narrow on purpose: "St. John", "J.R.R.", "Dr.Who" and
 * "O'Brien-Smith" are names.
 */
const WEB_OR_MAIL_ADDRESS =
  /[@\uff20\ufe6b]|:\/\/|\bwww\.|[a-z0-9-]\.[a-z]{2,}\/|\b[a-z0-9-]+\.(?:com|net|org|info|biz|io|co|us|uk|ru|cn|xyz|top|online|site|app|dev|link|click|shop|store|ly|me|tk|gq|ml|cf|ga|example)\b/i;

/** True when a name field holds a web or e-mail address (see above). */
export const holdsWebOrMailAddress = (value: string) => WEB_OR_MAIL_ADDRESS.test(value);

/** The message of a name field that holds one, naming the field. */
export const notANameMessage = (label: string) => `${label} must be a name, not a web or e-mail address.`;

/**
 * The writing systems a name's letters come from, for telling look-alikes apart (issue 39:
 * "Аlice Anders" with a Cyrillic А reads as "Alice Anders"). Chinese and Japanese mix Han,
 * Hiragana and Katakana as one writing system; any script not listed counts as "other".
 */
const SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Han", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["Hangul", /\p{Script=Hangul}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
];
const LETTER = /\p{L}/u;

/** The scripts of a text's letters, in the order met (digits, spaces and marks belong to none). */
export function scriptsOf(value: string): string[] {
  const seen: string[] = [];
  for (const char of value) {
    if (char < "\u0080") {
      if (/[A-Za-z]/.test(char) && !seen.includes("Latin")) seen.push("Latin");
      continue;
    }
    if (!LETTER.test(char)) continue;
    const script = SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? "other";
    if (!seen.includes(script)) seen.push(script);
  }
  return seen;
}

/** True when a name's letters come from more than one writing system: shown to staff with a warning. */
export const hasMixedScripts = (value: string | null | undefined) => !!value && scriptsOf(value).length > 1;

/** What staff read beside such a name (visible, and its accessible label). */
export const MIXED_SCRIPTS_MARK = "⚠ mixed scripts";
export const mixedScriptsLabel = (scripts: string[]) =>
  `Mixed scripts: this name mixes ${scripts.join(" and ")} letters and may imitate another name.`;
