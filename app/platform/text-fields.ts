import { z } from "zod";

/**
 * Rules for text typed by people, shared by every schema (browser and server alike).
 * A one-line field (a name, an e-mail address, a URL) takes no control character at all:
 * no C0 control (NUL, tab, CR, LF...), no DEL, no Unicode line or paragraph separator.
 * A multi-line field (a message) keeps newline, carriage return and tab, and refuses the rest.
 */
const NOT_ONE_LINE = /[\u0000-\u001f\u007f\u2028\u2029]/;
const NOT_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const isOneLine = (value: string) => !NOT_ONE_LINE.test(value);
export const isCleanMultiLine = (value: string) => !NOT_MULTI_LINE.test(value);

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
