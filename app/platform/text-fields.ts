import { z } from "zod";

/**
 * Rules for text typed by people, shared by every schema (browser and server alike).
 * A one-line field (a name, an e-mail address, a URL) takes no control character at all:
 * no C0 control (NUL, tab, CR, LF...), no DEL, no Unicode line or paragraph separator.
 * A multi-line field (a message) keeps newline, carriage return and tab, and refuses the rest.
 */
// \p{Cc} is every control character: C0 (NUL...US), DEL and the C1 range.
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;
const NOT_MULTI_LINE = /[^\P{Cc}\t\n\r]/u;
const NOT_MULTI_LINE_GLOBAL = /[^\P{Cc}\t\n\r]/gu;
const ANY_CONTROL_GLOBAL = /\p{Cc}/gu;

export const isOneLine = (value: string) => !NOT_ONE_LINE.test(value);
export const isCleanMultiLine = (value: string) => !NOT_MULTI_LINE.test(value);
/** True when the text holds any control character (tab and line breaks included). */
export const hasControlChars = (value: string) => /\p{Cc}/u.test(value);

/** Removes control characters; `keepLineBreaks` keeps tab, newline and carriage return. */
export function stripControlChars(value: string, { keepLineBreaks = false, replacement = "" } = {}) {
  return value.replace(keepLineBreaks ? NOT_MULTI_LINE_GLOBAL : ANY_CONTROL_GLOBAL, replacement);
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
