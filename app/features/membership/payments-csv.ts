import Papa from "papaparse";
import { normalizeHeader } from "~/platform/csv";
import { normalizeCertificate } from "~/features/auth/normalize";
import { isIsoDate } from "~/platform/dates";
import { isOneLine } from "~/platform/text-fields";
import { firstUnclosedRow, unclosedQuoteMessage } from "~/platform/csv";
import { EARLIEST_MEMBERSHIP_DAY, MAX_PAYMENT_CENTS, PAYMENT_METHODS, parseCents, type PaymentMethod } from "./contract";
import { formatLongDay } from "./coverage";

/** The payment portal's export: these columns, named as the member import names its columns ("Paid On" is paid_on). */
export const PAYMENT_COLUMNS = ["certificate_number", "amount", "paid_on", "reference"] as const;

export const PAYMENTS_CSV_MESSAGES = {
  empty: "The file is empty",
  missingColumns: (missing: string[]) =>
    `The file's first row must name the columns certificate_number, amount, paid_on and reference (missing: ${missing.join(", ")})`,
  noRows: "The file has no payment rows",
  certificate: "certificate_number is missing",
  amount: "amount must be dollars and cents above $0.00, like 19.95",
  paidOn: "paid_on must be a date written YYYY-MM-DD or MM/DD/YYYY",
  /** From 1990 to `latest` (tomorrow, as people read it): as Record payment's Paid on. */
  paidOnRange: (latest: string) => `paid_on must be a day from ${formatLongDay(EARLIEST_MEMBERSHIP_DAY)} to ${formatLongDay(latest)}`,
  reference: "reference is missing, or longer than 100 characters, or not one line",
  method: `method must be one of ${PAYMENT_METHODS.join(", ")} (or left out)`,
  repeated: (line: number) => `reference is repeated from line ${line}`,
  /** The reference names another member's payment: a mistake in the file or in the ledger, not a re-import to skip. */
  referenceOfAnother: (certificate: string) =>
    `reference is already recorded for another member's payment (certificate number ${certificate}): check the file and that payment`,
  unknownCertificate: "no member has this certificate number",
  noPlan: "this member has no plan on record",
} as const;

/** One row as the file has it, checked. */
export interface PaymentRow {
  line: number;
  certificate: string;
  amountCents: number;
  paidOn: string;
  reference: string;
  method: PaymentMethod;
}

export interface RowProblem {
  line: number;
  message: string;
  /** The certificate number of a row that matched no member (or one without a plan). */
  certificate?: string;
}

export type PaymentsCsv = { ok: true; rows: PaymentRow[]; problems: RowProblem[]; totalRows: number } | { ok: false; error: string };

/** "03/07/2026" or "2026-03-07" as YYYY-MM-DD, or null. */
export function paymentDay(text: string): string | null {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const day = us ? `${us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}` : text;
  return isIsoDate(day) ? day : null;
}

/** Characters read at once: about 7,000 rows of a portal export, a few milliseconds. */
export const PIECE_CHARS = 256 * 1024;

/**
 * Reads and checks a payments file. Lines are the file's physical lines (the header is line
 * 1); blank lines are skipped; extra columns are ignored; a reference seen earlier in the file
 * makes the later row a problem. `latest` is the last day a payment may carry.
 */
export function parsePaymentsCsv(text: string, latest: string, pieceChars = PIECE_CHARS): PaymentsCsv {
  const reading = readPaymentsCsv(text, latest, pieceChars);
  for (;;) {
    const step = reading.next();
    if (step.done) return step.value;
  }
}

/**
 * The same, awaiting `between` after each piece of PIECE_CHARS: a server reading a large file
 * answers other requests meanwhile.
 */
export async function parsePaymentsCsvInTurns(text: string, latest: string, between: () => Promise<void>): Promise<PaymentsCsv> {
  const reading = readPaymentsCsv(text, latest);
  for (;;) {
    const step = reading.next();
    if (step.done) return step.value;
    await between();
  }
}

/** Reads the file a piece at a time, pausing (yield) after each. */
function* readPaymentsCsv(text: string, latest: string, pieceChars = PIECE_CHARS): Generator<void, PaymentsCsv> {
  if (!/\S/.test(text)) return { ok: false, error: PAYMENTS_CSV_MESSAGES.empty };
  const pieces = csvPieces(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, pieceChars);
  let piece = pieces.next();
  if (!piece.done && piece.value.unclosed === 0) return { ok: false, error: unclosedQuoteMessage(1) };
  const head = piece.done ? undefined : piece.value.rows.shift();
  const header = (head ?? []).map(normalizeHeader);
  const col = Object.fromEntries([...PAYMENT_COLUMNS, "method"].map((name) => [name, header.indexOf(name)])) as Record<string, number>;
  const missing = PAYMENT_COLUMNS.filter((name) => col[name] < 0);
  if (missing.length) return { ok: false, error: PAYMENTS_CSV_MESSAGES.missingColumns(missing) };

  const rows: PaymentRow[] = [];
  const problems: RowProblem[] = [];
  const seen = new Map<string, number>();
  const [certCol, amountCol, paidCol, refCol, methodCol] = [...PAYMENT_COLUMNS, "method"].map((name) => col[name]);
  let line = 1 + lineBreaksIn(head);
  let totalRows = 0;
  for (let first = true; !piece.done; piece = pieces.next(), first = false) {
    const { rows: cellRows, unclosed } = piece.value;
    // The first piece's header was taken off its rows.
    const unclosedAt = first && unclosed > 0 ? unclosed - 1 : unclosed;
    for (let i = 0; i < cellRows.length; i++) {
      const cells = cellRows[i];
      const rowLine = line + 1;
      // Every later row is in this one's open field: none of them can be read as meant.
      if (i === unclosedAt) return { ok: false, error: unclosedQuoteMessage(rowLine) };
      line = rowLine + lineBreaksIn(cells);
      if (cells.every((c) => c.trim() === "")) continue;
      totalRows++;
      const problem = checkRow(cells, certCol, amountCol, paidCol, refCol, methodCol, latest, seen, rowLine);
      if (typeof problem === "string") problems.push({ line: rowLine, message: problem });
      else rows.push(problem);
    }
    yield;
  }
  if (totalRows === 0) return { ok: false, error: PAYMENTS_CSV_MESSAGES.noRows };
  return { ok: true, rows, problems, totalRows };
}

/** One piece's rows, and the index among them of the row whose quoted field is not closed (-1: none). */
export interface CsvPiece {
  rows: string[][];
  unclosed: number;
}

const piece = (parsed: Papa.ParseResult<string[]>): CsvPiece => ({ rows: parsed.data, unclosed: firstUnclosedRow(parsed.errors) });

/**
 * The rows Papa.parse reads from the whole text, read a piece of about `pieceChars` at a time
 * (each piece's rows in turn), so a large file is not one long task. A piece ends before a
 * line break with an even number of quote characters before it: outside any quoted field in
 * a well-formed file. Where stray quotes fool that count, the piece ends inside a quoted
 * field and Papa reports a quotes error; then that piece is read again with the rest of the
 * file, as one. The delimiter and line break are Papa's guesses from the whole text.
 */
export function* csvPieces(text: string, pieceChars = PIECE_CHARS): Generator<CsvPiece> {
  const { meta } = Papa.parse<string[]>(text, { preview: 1 });
  const config: Papa.ParseConfig<string[]> = {
    delimiter: meta.delimiter,
    newline: meta.linebreak as Papa.ParseConfig["newline"],
    skipEmptyLines: false,
  };
  const lineBreak = meta.linebreak;
  let start = 0;
  // The quote characters before the line break looked at, and the first one after it.
  let quotes = 0;
  let nextQuote = text.indexOf('"');
  for (;;) {
    let end = -1;
    for (let at = text.indexOf(lineBreak, start + pieceChars); at >= 0; at = text.indexOf(lineBreak, at + lineBreak.length)) {
      for (; nextQuote >= 0 && nextQuote < at; nextQuote = text.indexOf('"', nextQuote + 1)) quotes++;
      if (quotes % 2 === 0) {
        end = at;
        break;
      }
    }
    if (end < 0) {
      // The rest of the file: a text ending in a line break ends with an empty row, as Papa reads it.
      const rest = text.slice(start);
      yield rest === "" ? { rows: [[""]], unclosed: -1 } : piece(Papa.parse<string[]>(rest, config));
      return;
    }
    const parsed = Papa.parse<string[]>(text.slice(start, end), config);
    if (parsed.errors.some((e) => e.type === "Quotes")) {
      yield piece(Papa.parse<string[]>(text.slice(start), config));
      return;
    }
    yield { rows: parsed.data, unclosed: -1 };
    start = end + lineBreak.length;
  }
}

const cellAt = (cells: string[], index: number) => (index >= 0 ? (cells[index] ?? "").trim() : "");

/** One row checked: the payment, or what is wrong with it. (A function of its own: the loop above makes no closures per row.) */
function checkRow(
  cells: string[],
  certCol: number,
  amountCol: number,
  paidCol: number,
  refCol: number,
  methodCol: number,
  latest: string,
  seen: Map<string, number>,
  line: number,
): PaymentRow | string {
  const certificate = normalizeCertificate(cellAt(cells, certCol));
  if (!certificate) return PAYMENTS_CSV_MESSAGES.certificate;
  const amountCents = parseCents(cellAt(cells, amountCol));
  if (amountCents === null || amountCents < 1 || amountCents > MAX_PAYMENT_CENTS) return PAYMENTS_CSV_MESSAGES.amount;
  const paidOn = paymentDay(cellAt(cells, paidCol));
  if (!paidOn) return PAYMENTS_CSV_MESSAGES.paidOn;
  if (paidOn > latest || paidOn < EARLIEST_MEMBERSHIP_DAY) return PAYMENTS_CSV_MESSAGES.paidOnRange(latest);
  const reference = cellAt(cells, refCol);
  if (!reference || reference.length > 100 || !isOneLine(reference)) return PAYMENTS_CSV_MESSAGES.reference;
  const methodText = cellAt(cells, methodCol).toLowerCase();
  if (methodText && !(PAYMENT_METHODS as readonly string[]).includes(methodText)) return PAYMENTS_CSV_MESSAGES.method;
  const earlier = seen.get(reference);
  if (earlier !== undefined) return PAYMENTS_CSV_MESSAGES.repeated(earlier);
  seen.set(reference, line);
  // The portal takes cards unless the file says otherwise.
  return { line, certificate, amountCents, paidOn, reference, method: (methodText || "card") as PaymentMethod };
}

/** The line breaks inside a row's quoted fields (most rows have none: only those are scanned). */
function lineBreaksIn(cells: string[] | undefined): number {
  let n = 0;
  for (const cell of cells ?? []) if (cell.includes("\n") || cell.includes("\r")) n += lineBreaks(cell);
  return n;
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}
