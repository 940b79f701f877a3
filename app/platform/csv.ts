import type Papa from "papaparse";

/**
 * What every CSV reader of the site says of a quoted field that is never closed (a stray `"`):
 * Papa Parse then reads the rest of the file into that one cell, so the rows after it would be
 * lost unseen. The whole file is refused, naming the line where the field opens.
 */
export const UNCLOSED_QUOTE = "a quoted field is not closed";

export const unclosedQuoteMessage = (line: number) =>
  `Line ${line}: ${UNCLOSED_QUOTE}, so the lines after it cannot be read. Nothing in the file was recorded: close the quote or remove it, and try again.`;

/**
 * The first row (its index in the parse's rows) whose quoted field Papa Parse found not
 * closed, or closed and followed by more text (its "Quotes" errors: either way the rows after
 * it are misread); -1 when there is none.
 */
export function firstUnclosedRow(errors: readonly Papa.ParseError[]): number {
  let first = -1;
  for (const e of errors) if (e.type === "Quotes" && e.row !== undefined && e.row !== null && (first < 0 || e.row < first)) first = e.row;
  return first;
}

/**
 * The line where the first such field opens, for a text parsed whole (the errors' places are
 * offsets in it, right however blank lines were skipped); null when every field is closed.
 */
export function unclosedQuoteLine(text: string, errors: readonly Papa.ParseError[]): number | null {
  let at = -1;
  for (const e of errors) if (e.type === "Quotes" && (at < 0 || (e.index ?? 0) < at)) at = e.index ?? 0;
  return at < 0 ? null : lineAt(text, at);
}

/** The line (1: the first) of a text that the character at `index` is on: "\r\n", "\n" or a lone "\r" each end one. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}

/** Normalizes a header cell: trimmed, lower case, spaces and dashes as underscores ("Certificate Number" → certificate_number). */
export function normalizeHeader(cell: string): string {
  // trim() drops a byte order mark too (U+FEFF counts as white space).
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
