import Papa from "papaparse";
import { unclosedQuoteLine, unclosedQuoteMessage } from "~/platform/csv";
import { hasRequiredColumns, MAX_UPLOAD_BYTES, MESSAGES } from "./contract";

export const isTooLarge = (file: File) => file.size > MAX_UPLOAD_BYTES;

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
  const body = text.replace(/^\uFEFF/, "");
  try {
    parsed = Papa.parse<string[]>(body, { skipEmptyLines: "greedy" });
  } catch (err) {
    return { ok: false, error: `Error parsing CSV: ${err instanceof Error ? err.message : String(err)}` };
  }
  // The import refuses such a file with the same words.
  const unclosed = unclosedQuoteLine(body, parsed.errors);
  if (unclosed !== null) return { ok: false, error: unclosedQuoteMessage(unclosed) };
  const [header = [], ...rows] = parsed.data;
  if (parsed.data.length < 2 || !hasRequiredColumns(header)) return { ok: false, error: MESSAGES.missingColumns, header, rows };
  return { ok: true, header, rows, records: parsed.data.length - 1 };
}
