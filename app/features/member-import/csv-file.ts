import Papa from "papaparse";
import { hasRequiredColumns, MAX_UPLOAD_BYTES, MESSAGES } from "./contract";

/** A dropped or chosen file counts as CSV by its name or its type. */
export function isCsvFile(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === "text/csv";
}

export const isTooLarge = (file: File) => file.size > MAX_UPLOAD_BYTES;

/** Size in KB with two decimals, as both pages show it. */
export const sizeInKb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** /admin/upload: the first 5 lines of the file, as text. */
export function firstLines(text: string, count = 5): string[] {
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\n|\r/)
    .slice(0, count);
}

export type CsvCheck =
  { ok: true; header: string[]; rows: string[][]; records: number } | { ok: false; error: string; header?: string[]; rows?: string[][] };

/**
 * /admin/users: parses the file in the browser. At least two rows and a header with
 * certificate_number and birthdate (case-insensitive, trimmed); N user records = rows - 1.
 */
export function checkCsv(text: string): CsvCheck {
  let parsed: Papa.ParseResult<string[]>;
  try {
    parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  } catch (err) {
    return { ok: false, error: `Error parsing CSV: ${err instanceof Error ? err.message : String(err)}` };
  }
  const fatal = parsed.errors.find((e) => e.type === "Quotes");
  if (fatal) return { ok: false, error: `Error parsing CSV: ${fatal.message}${fatal.row !== undefined ? ` (row ${fatal.row + 1})` : ""}` };
  const [header = [], ...rows] = parsed.data;
  if (parsed.data.length < 2 || !hasRequiredColumns(header)) return { ok: false, error: MESSAGES.missingColumns, header, rows };
  return { ok: true, header, rows, records: parsed.data.length - 1 };
}
