import Papa from "papaparse";
import { normalizeCertificate } from "~/features/auth/normalize";
import { DATE_FORMATS_TEXT, EARLIEST_YEAR, parseBirthdate, toMmddyy } from "./birthdate";
import { isOneLine } from "~/platform/text-fields";
import { MESSAGES, normalizeHeader, REQUIRED_COLUMNS } from "./contract";
import { z } from "~/platform/zod";

export const MAX_CERTIFICATE_LENGTH = 64;
export const MAX_NAME_LENGTH = 100;
/** As in the member's own contact details (RFC 5321's limit on a path). */
export const MAX_EMAIL_LENGTH = 254;
const emailAddress = z.email();
const CHUNK_BYTES = 1 << 20;

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

/**
 * Parses and checks a whole member CSV. Line numbers are physical lines of the file (the
 * header is line 1): a quoted field spanning lines counts its lines, so later rows keep theirs.
 * Blank lines are skipped; extra columns are ignored; a certificate number seen before in the
 * file makes the later row an error.
 */
export function parseMemberCsv(text: string, today: string, options: { preview?: number } = {}): ParseResult {
  // A leading byte order mark needs no care: trim() counts it as white space, and Papa Parse drops it.
  if (!text.trim()) return { ok: false, error: MESSAGES.emptyFile };

  let header: string[] | null = null;
  let col: Columns = { cert: -1, birth: -1, first: -1, last: -1, email: -1 };
  const records: MemberRecord[] = [];
  const rowErrors: RowError[] = [];
  const seen = new Map<string, number>();
  let totalRows = 0;
  let headerCells: string[] = [];
  const preview: PreviewRow[] = [];
  const previewCount = options.preview ?? 0;

  /** Null when the row is imported (it joins the records), else why not. */
  const rowProblem = (row: string[], index: number, startLine: number, unclosed: Set<number> | null): string | null => {
    if (unclosed?.has(index)) return "a quoted field is not closed";
    const outcome = checkRow(row, col, today);
    if (typeof outcome === "string") return outcome;
    const earlier = seen.get(outcome.certificate);
    if (earlier !== undefined) return `certificate number "${outcome.certificate}" repeats line ${earlier}`;
    seen.set(outcome.certificate, startLine);
    outcome.line = startLine;
    records.push(outcome);
    return null;
  };

  // Without quotes every row is one line; with them a field may hold line breaks.
  const mayHoldBreaks = text.includes('"');
  let line = 1;
  let done = false;
  // In 1 MB chunks: each chunk's rows are checked and dropped, so only the valid records stay
  // in memory (a per-row callback would cost more than the parse itself).
  parseInChunks(text, {
    skipEmptyLines: false,
    chunkSize: CHUNK_BYTES,
    chunk(result, parser) {
      if (done) return;
      const unclosed = result.errors.length
        ? new Set(result.errors.filter((e) => e.type === "Quotes" && e.row !== undefined).map((e) => e.row!))
        : null;
      const rows = result.data;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const startLine = line;
        line += mayHoldBreaks ? 1 + embeddedBreaks(row) : 1;
        if (row.length === 1 && row[0].trim() === "") continue; // blank line
        if (!header) {
          headerCells = row;
          const names = row.map(normalizeHeader);
          header = names;
          col = {
            cert: names.indexOf("certificate_number"),
            birth: names.indexOf("birthdate"),
            first: names.indexOf("first_name"),
            last: names.indexOf("last_name"),
            email: names.findIndex((n) => n === "email" || n === "e_mail"),
          };
          if (col.cert < 0 || col.birth < 0) {
            done = true;
            parser.abort();
            return;
          }
          continue;
        }
        totalRows++;
        const problem = rowProblem(row, i, startLine, unclosed);
        if (totalRows <= previewCount) preview.push({ line: startLine, cells: row, problem });
        if (problem !== null) rowErrors.push({ line: startLine, message: `Line ${startLine}: ${problem}` });
      }
    },
  });

  if (!header || !REQUIRED_COLUMNS.every((c) => header!.includes(c))) return { ok: false, error: MESSAGES.missingColumns };
  if (totalRows === 0) return { ok: false, error: MESSAGES.noRecords };
  return {
    ok: true,
    records,
    rowErrors,
    totalRows,
    hasNameColumns: { first: col.first >= 0, last: col.last >= 0 },
    hasEmailColumn: col.email >= 0,
    headerCells,
    preview,
  };
}

/**
 * Papa.parse over a string with a chunk callback. Papaparse's string streamer honours
 * chunkSize and calls back synchronously; its type definitions only describe chunk for files.
 */
function parseInChunks(
  input: string,
  config: { skipEmptyLines: false; chunkSize: number; chunk: (result: Papa.ParseResult<string[]>, parser: Papa.Parser) => void },
) {
  (Papa.parse as (input: string, config: object) => void)(input, config);
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
}

/** A row's values, or the reason it cannot be imported. */
function checkRow(row: string[], col: Columns, today: string): MemberRecord | string {
  const certificate = normalizeCertificate(row[col.cert] ?? "");
  if (!certificate) return "certificate_number is missing";
  if (certificate.length > MAX_CERTIFICATE_LENGTH) return `certificate_number is longer than ${MAX_CERTIFICATE_LENGTH} characters`;
  if (!isOneLine(certificate)) return "certificate_number contains control characters";

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
  return {
    line: 0,
    certificate,
    mmddyy: toMmddyy(date.year, date.month, date.day),
    digest: "",
    firstName,
    lastName,
    email: email || null,
  };
}

function name(row: string[], index: number): string | null | Error {
  if (index < 0) return null;
  const value = (row[index] ?? "").trim();
  if (!value) return null;
  if (value.length > MAX_NAME_LENGTH) return new Error(`is longer than ${MAX_NAME_LENGTH} characters`);
  if (!isOneLine(value)) return new Error("contains control characters");
  return value;
}
