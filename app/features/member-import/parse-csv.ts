import Papa from "papaparse";
import { isCertificateNumber, normalizeCertificate } from "~/features/auth/normalize";
import { DATE_FORMATS_TEXT, EARLIEST_YEAR, parseBirthdate, toMmddyy } from "./birthdate";
import { holdsWebOrMailAddress, isOneLine } from "~/platform/text-fields";
import { firstUnclosedRow, unclosedQuoteMessage } from "~/platform/csv";
import { MESSAGES, REQUIRED_COLUMNS } from "./contract";
import { normalizeHeader } from "~/platform/csv";
import { z } from "~/platform/zod";
import { BILLINGS, formatLongDay, latestPaidThrough, MAX_PREPAID_YEARS, type Billing } from "~/features/membership/coverage";
import { coverageCentsOf, EARLIEST_MEMBERSHIP_DAY } from "~/features/membership/contract";

export const MAX_CERTIFICATE_LENGTH = 64;
export const MAX_NAME_LENGTH = 100;
/** As in the member's own contact details (RFC 5321's limit on a path). */
export const MAX_EMAIL_LENGTH = 254;
const emailAddress = z.email();
const CHUNK_BYTES = 1 << 20;
/**
 * About 1,500 member rows: the most records a streamed read holds at once. The import reads
 * each piece in a turn of the event loop of its own (issue 48): a smaller piece holds it less
 * long (a 256KB piece took 50 to 100 ms to read and check on a busy two-core machine).
 */
export const STREAM_CHUNK_BYTES = 64 * 1024;

/** One valid row, ready to write. The birthdate is kept only as MMDDYY, to be digested. */
export interface MemberRecord {
  line: number;
  certificate: string;
  mmddyy: string;
  /** Filled in by the service: the keyed digest of mmddyy. */
  digest: string;
  firstName: string | null;
  lastName: string | null;
  /** Null when the file has no e-mail for the row: an existing member keeps theirs. */
  email: string | null;
  /** The optional plan columns (associations moving in); null when the row gives no plan. */
  plan: ImportedPlan | null;
}

/** A plan from the optional columns plan, coverage_amount and paid_through. */
export interface ImportedPlan {
  billing: Billing;
  /** Null: not given (an existing plan keeps its amount). */
  coverageCents: number | null;
  /** YYYY-MM-DD, paid through on the old records; null: not given (an existing plan keeps its day). */
  paidThrough: string | null;
}

export interface RowError {
  line: number;
  message: string;
}

/** One of the first rows, as the file has it, and why the import will refuse it (null: it will be imported). */
export interface PreviewRow {
  line: number;
  cells: string[];
  problem: string | null;
}

export type ParseResult =
  | {
      ok: true;
      records: MemberRecord[];
      rowErrors: RowError[];
      totalRows: number;
      hasNameColumns: { first: boolean; last: boolean };
      hasEmailColumn: boolean;
      /** The header cells as written and the first `preview` rows (option), for a page to show. */
      headerCells: string[];
      preview: PreviewRow[];
    }
  | { ok: false; error: string };

/** What a file holds besides its valid records: a streamed read hands those on as it goes. */
export type ReadSummary = { ok: true } & Omit<Extract<ParseResult, { ok: true }>, "ok" | "records">;
export type ReadResult = ReadSummary | { ok: false; error: string };

/**
 * Parses and checks a whole member CSV. Line numbers are physical lines of the file (the
 * header is line 1): a quoted field spanning lines counts its lines, so later rows keep theirs.
 * Blank lines are skipped; extra columns are ignored; a certificate number seen before in the
 * file makes the later row an error.
 */
export function parseMemberCsv(text: string, today: string, options: { preview?: number } = {}): ParseResult {
  const reader = new MemberCsvReader(today, options.preview ?? 0);
  const records: MemberRecord[] = [];
  for (const chunk of csvChunks(textPieces(text, CHUNK_BYTES))) {
    const found = reader.read(chunk);
    for (let i = 0; i < found.length; i++) records.push(found[i]);
    if (reader.done) break;
  }
  const summary = reader.summary();
  return summary.ok ? { ...summary, records } : summary;
}

/**
 * The same parse and checks, streamed: the file is read in pieces of about chunkBytes
 * characters (a string, or the bytes of an upload as they arrived, decoded as UTF-8), and
 * each piece's valid records (none, perhaps) are handed to onRecords; the next piece is read once they are
 * stored, so only one piece's text and records are held at a time. If onRecords fails, the
 * read stops and the error is thrown. A file refused as a whole (empty, without the required
 * columns, without rows) hands on nothing: its header is its first row. One with a quoted field
 * that is not closed may have handed on the rows above it: the caller undoes them.
 */
export async function readMemberCsv(
  file: string | Iterable<Uint8Array>,
  today: string,
  onRecords: (records: MemberRecord[]) => Promise<void>,
  chunkBytes = STREAM_CHUNK_BYTES,
): Promise<ReadResult> {
  const reader = new MemberCsvReader(today, 0);
  const pieces = typeof file === "string" ? textPieces(file, chunkBytes) : decodedPieces(file, chunkBytes);
  for (const chunk of csvChunks(pieces)) {
    // Also a piece without valid rows: the caller may give way between pieces (the import does).
    await onRecords(reader.read(chunk));
    if (reader.done) break;
  }
  return reader.summary();
}

/** One parsed piece of a file: its complete rows, and whether its text holds a quote, or only white space. */
export interface CsvChunk {
  result: Papa.ParseResult<string[]>;
  quoted: boolean;
  blank: boolean;
}

interface PapaHandle {
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): Papa.ParseResult<string[]>;
}
/** Papa Parse's parser that keeps its guesses (delimiter, line break) from one piece to the next: the one its own chunked parse uses. */
const { ParserHandle } = Papa as unknown as { ParserHandle: new (config: Papa.ParseConfig) => PapaHandle };

/** Text the first parse waits for: Papa guesses the delimiter and line break from it. */
const GUESS_CHARS = 64 * 1024;

/**
 * The rows of a file given in pieces, as Papa Parse's own chunked parse reads them: each
 * piece is parsed after what was left of the one before (a row cut by the piece's end, even
 * inside quotes), the last one to its end. The first parse waits for GUESS_CHARS of text or
 * the file's end. A leading byte order mark is dropped, as Papa does.
 */
export function* csvChunks(pieces: Iterable<string>): Generator<CsvChunk> {
  const handle = new ParserHandle({ skipEmptyLines: false });
  let partial = "";
  let base = 0;
  let first = true;
  let guessed = false;
  const it = pieces[Symbol.iterator]();
  let next = it.next();
  while (!next.done) {
    let piece = next.value;
    if (first && piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    first = false;
    next = it.next();
    const last = next.done === true;
    const text = partial + piece;
    if (!guessed && !last && text.length < GUESS_CHARS) {
      partial = text;
      continue;
    }
    guessed = true;
    const result = handle.parse(text, base, !last);
    if (!last) {
      partial = text.substring(result.meta.cursor - base);
      base = result.meta.cursor;
    }
    yield { result, quoted: text.includes('"'), blank: !/\S/.test(text) };
  }
}

function* textPieces(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Bytes decoded as UTF-8 in pieces of about `size` characters: a character cut between two buffers is decoded whole. */
function* decodedPieces(buffers: Iterable<Uint8Array>, size: number): Generator<string> {
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for (const buffer of buffers) {
    text += decoder.decode(buffer, { stream: true });
    if (text.length >= size) {
      yield text;
      text = "";
    }
  }
  text += decoder.decode();
  if (text) yield text;
}

/** The rows of a file as they are parsed, piece by piece: the header, then checked rows. */
class MemberCsvReader {
  /** Set when the header lacks a required column, or a quoted field is not closed: nothing after it is read. */
  done = false;
  /** Why the whole file is refused, found while reading (a quoted field not closed). */
  private refusal: string | null = null;
  private blank = true;
  private header: string[] | null = null;
  private col: Columns = { cert: -1, birth: -1, first: -1, last: -1, email: -1, plan: -1, coverage: -1, paidThrough: -1 };
  private headerCells: string[] = [];
  private rowErrors: RowError[] = [];
  private seen = new Map<string, number>();
  private totalRows = 0;
  private preview: PreviewRow[] = [];
  private line = 1;

  constructor(
    private today: string,
    private previewCount: number,
  ) {}

  /** Checks one piece's rows; returns its valid records. */
  read({ result, quoted, blank }: CsvChunk): MemberRecord[] {
    const records: MemberRecord[] = [];
    if (!blank) this.blank = false;
    const unclosed = result.errors.length ? firstUnclosedRow(result.errors) : -1;
    const rows = result.data;
    for (let i = 0; i < rows.length && !this.done; i++) {
      const row = rows[i];
      const startLine = this.line;
      // Without quotes every row is one line; with them a field may hold line breaks.
      this.line += quoted ? 1 + embeddedBreaks(row) : 1;
      if (i === unclosed) {
        // Every later row is in this one's open field: the file is refused (the streamed
        // import undoes the rows it wrote before).
        this.refusal = unclosedQuoteMessage(startLine);
        this.done = true;
        break;
      }
      if (row.length === 1 && row[0].trim() === "") continue; // blank line
      if (!this.header) {
        this.headerCells = row;
        const names = row.map(normalizeHeader);
        this.header = names;
        this.col = {
          cert: names.indexOf("certificate_number"),
          birth: names.indexOf("birthdate"),
          first: names.indexOf("first_name"),
          last: names.indexOf("last_name"),
          email: names.findIndex((n) => n === "email" || n === "e_mail"),
          plan: names.indexOf("plan"),
          coverage: names.indexOf("coverage_amount"),
          paidThrough: names.indexOf("paid_through"),
        };
        if (this.col.cert < 0 || this.col.birth < 0) this.done = true;
        continue;
      }
      this.totalRows++;
      const problem = this.rowProblem(row, startLine, records);
      if (this.totalRows <= this.previewCount) this.preview.push({ line: startLine, cells: row, problem });
      if (problem !== null) this.rowErrors.push({ line: startLine, message: `Line ${startLine}: ${problem}` });
    }
    return records;
  }

  /** Null when the row is imported (it joins the records), else why not. */
  private rowProblem(row: string[], startLine: number, records: MemberRecord[]): string | null {
    const outcome = checkRow(row, this.col, this.today);
    if (typeof outcome === "string") return outcome;
    const earlier = this.seen.get(outcome.certificate);
    if (earlier !== undefined) return `certificate number "${outcome.certificate}" repeats line ${earlier}`;
    this.seen.set(outcome.certificate, startLine);
    outcome.line = startLine;
    records.push(outcome);
    return null;
  }

  summary(): ReadResult {
    // \S does not match a byte order mark: a file of one and white space is empty.
    if (this.blank) return { ok: false, error: MESSAGES.emptyFile };
    if (this.refusal !== null) return { ok: false, error: this.refusal };
    const header = this.header;
    if (!header || !REQUIRED_COLUMNS.every((c) => header.includes(c))) return { ok: false, error: MESSAGES.missingColumns };
    if (this.totalRows === 0) return { ok: false, error: MESSAGES.noRecords };
    return {
      ok: true,
      rowErrors: this.rowErrors,
      totalRows: this.totalRows,
      hasNameColumns: { first: this.col.first >= 0, last: this.col.last >= 0 },
      hasEmailColumn: this.col.email >= 0,
      headerCells: this.headerCells,
      preview: this.preview,
    };
  }
}

/** Line breaks inside a row's (quoted) fields: "\r\n", "\n" or a lone "\r" each start a line. */
function embeddedBreaks(row: string[]): number {
  let n = 0;
  for (const field of row) {
    if (field.indexOf("\n") === -1 && field.indexOf("\r") === -1) continue;
    n += field.match(/\r\n|\n|\r/g)!.length;
  }
  return n;
}

/** Where each known column sits in a row (-1: the file has no such column). */
interface Columns {
  cert: number;
  birth: number;
  first: number;
  last: number;
  email: number;
  plan: number;
  coverage: number;
  paidThrough: number;
}

/** A row's values, or the reason it cannot be imported. */
function checkRow(row: string[], col: Columns, today: string): MemberRecord | string {
  const certificate = normalizeCertificate(row[col.cert] ?? "");
  if (!certificate) return "certificate_number is missing";
  if (certificate.length > MAX_CERTIFICATE_LENGTH) return `certificate_number is longer than ${MAX_CERTIFICATE_LENGTH} characters`;
  if (!isOneLine(certificate)) return "certificate_number contains control characters";
  if (!isCertificateNumber(certificate)) return `certificate_number ${JSON.stringify(certificate)} may contain only letters, digits and -`;

  const rawBirthdate = (row[col.birth] ?? "").trim();
  if (!rawBirthdate) return `birthdate is missing for certificate number "${certificate}"`;
  const date = parseBirthdate(rawBirthdate, today);
  if (!date.ok) {
    const shown = JSON.stringify(rawBirthdate.slice(0, 40));
    switch (date.reason) {
      case "format":
        return `birthdate ${shown} is not a date in the format ${DATE_FORMATS_TEXT}`;
      case "impossible":
        return `birthdate ${shown} is not a real date`;
      case "future":
        return `birthdate ${shown} is in the future`;
      case "too-old":
        return `birthdate ${shown} is before ${EARLIEST_YEAR}`;
    }
  }
  const firstName = name(row, col.first);
  const lastName = name(row, col.last);
  if (firstName instanceof Error) return `first_name ${firstName.message}`;
  if (lastName instanceof Error) return `last_name ${lastName.message}`;
  const email = col.email < 0 ? "" : (row[col.email] ?? "").trim();
  if (email && (email.length > MAX_EMAIL_LENGTH || !emailAddress.safeParse(email).success)) {
    return `email ${JSON.stringify(email.slice(0, 60))} is not an e-mail address like name@example.com`;
  }
  const plan = planOf(row, col, today);
  if (typeof plan === "string") return plan;
  return {
    line: 0,
    certificate,
    mmddyy: toMmddyy(date.year, date.month, date.day),
    digest: "",
    firstName,
    lastName,
    email: email || null,
    plan,
  };
}

/** Any day in the birthdate's formats, future ones included. */
const NO_LIMIT = "9999-12-31";

/** The row's plan from the optional columns, null when it gives none, or why it cannot be imported. */
function planOf(row: string[], col: Columns, today: string): ImportedPlan | null | string {
  const cell = (index: number) => (index < 0 ? "" : (row[index] ?? "").trim());
  const billing = cell(col.plan).toLowerCase();
  const coverage = cell(col.coverage);
  const paidThrough = cell(col.paidThrough);
  if (!billing && !coverage && !paidThrough) return null;
  const shown = (v: string) => JSON.stringify(v.slice(0, 40));
  if (!billing) return "plan is missing: give monthly or annual with coverage_amount or paid_through";
  if (!(BILLINGS as readonly string[]).includes(billing)) return `plan ${shown(cell(col.plan))} must be monthly or annual`;
  let coverageCents: number | null = null;
  if (coverage) {
    coverageCents = coverageCentsOf(coverage);
    if (coverageCents === null) return `coverage_amount ${shown(coverage)} is not an amount in dollars like 250000 or 250000.00`;
  }
  let day: string | null = null;
  if (paidThrough) {
    const parsed = parseBirthdate(paidThrough, NO_LIMIT);
    if (!parsed.ok)
      return parsed.reason === "impossible"
        ? `paid_through ${shown(paidThrough)} is not a real date`
        : `paid_through ${shown(paidThrough)} is not a date in the format ${DATE_FORMATS_TEXT}`;
    day = `${parsed.year}-${String(parsed.month).padStart(2, "0")}-${String(parsed.day).padStart(2, "0")}`;
    // Paid ahead as a payment may pay it: at most 10 years (issue 39), and not before the association's records.
    const latest = latestPaidThrough(today);
    if (day < EARLIEST_MEMBERSHIP_DAY || day > latest)
      return `paid_through ${shown(paidThrough)} must be a day from ${formatLongDay(EARLIEST_MEMBERSHIP_DAY)} to ${formatLongDay(latest)} (at most ${MAX_PREPAID_YEARS} years ahead)`;
  }
  return { billing: billing as Billing, coverageCents, paidThrough: day };
}

function name(row: string[], index: number): string | null | Error {
  if (index < 0) return null;
  const value = (row[index] ?? "").trim();
  if (!value) return null;
  if (value.length > MAX_NAME_LENGTH) return new Error(`is longer than ${MAX_NAME_LENGTH} characters`);
  if (!isOneLine(value)) return new Error("contains control characters");
  if (holdsWebOrMailAddress(value)) return new Error("must be a name, not a web or e-mail address");
  return value;
}
