import Papa from "papaparse";
import {
  caseNumberFrom,
  normalizeCoverage,
  normalizeEmail,
  normalizeGender,
  normalizePhone,
  normalizeState,
  normalizeZip,
} from "./case-shapes";
import { LIMITS } from "./contract";
import type { ApplicationsRepository, CaseValues } from "./repository.server";
import { isOneLine } from "~/platform/text-fields";
import { unclosedQuoteLine, unclosedQuoteMessage } from "~/platform/csv";

/**
 * `npm run admin -- import-cases <file.csv>`: a header row with case_number plus any of the
 * case lookup fields (public-side spec, section 3). Every row is checked first; one bad row
 * imports nothing. A case number already stored is updated.
 */

export const CASE_COLUMNS = [
  "firstName",
  "lastName",
  "applicantName",
  "coverage",
  "email",
  "phone",
  "address1",
  "city",
  "state",
  "zip",
  "gender",
] as const;
type CaseColumn = (typeof CASE_COLUMNS)[number];

const DB_COLUMN: Record<CaseColumn, keyof CaseValues> = {
  firstName: "first_name",
  lastName: "last_name",
  applicantName: "applicant_name",
  coverage: "coverage",
  email: "email",
  phone: "phone",
  address1: "address1",
  city: "city",
  state: "state",
  zip: "zip",
  gender: "gender",
};

const plain = (max: number) => (v: string) => (v.length <= max && isOneLine(v) ? v : undefined);
/** Each column's check: the stored value, or undefined when the cell is not acceptable. */
const CHECK: Record<CaseColumn, { check: (v: string) => string | undefined; expect: string }> = {
  firstName: { check: plain(LIMITS.name), expect: `text of at most ${LIMITS.name} characters` },
  lastName: { check: plain(LIMITS.name), expect: `text of at most ${LIMITS.name} characters` },
  applicantName: { check: plain(LIMITS.name), expect: `text of at most ${LIMITS.name} characters` },
  coverage: { check: normalizeCoverage, expect: "a dollar amount like 250000 or $250,000.00" },
  email: { check: normalizeEmail, expect: "an email address" },
  phone: { check: normalizePhone, expect: "a phone number with 10 to 15 digits" },
  address1: { check: plain(LIMITS.address), expect: `text of at most ${LIMITS.address} characters` },
  city: { check: plain(LIMITS.city), expect: `text of at most ${LIMITS.city} characters` },
  state: { check: normalizeState, expect: "2 letters like CT" },
  zip: { check: normalizeZip, expect: "a ZIP code like 06905 or 06905-1234" },
  gender: { check: normalizeGender, expect: "Female, Male, Other or Prefer not to say" },
};

export const MAX_IMPORT_PROBLEMS_SHOWN = 20;

export type CaseImportResult = { ok: true; added: number; updated: number } | { ok: false; problems: string[] };

/** Reads and checks the CSV text; on success every row is stored in one transaction. */
export async function importCasesCsv(text: string, repository: ApplicationsRepository): Promise<CaseImportResult> {
  const parsed = parseCasesCsv(text);
  if (!parsed.ok) return parsed;
  const { added, updated } = await repository.upsertCases(parsed.rows);
  return { ok: true, added, updated };
}

export function parseCasesCsv(text: string): { ok: true; rows: CaseValues[] } | { ok: false; problems: string[] } {
  const body = text.replace(/^\uFEFF/, "");
  const result = Papa.parse<Record<string, string>>(body, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim(),
  });
  // The rows after a stray quote are read into its field: the file is refused as a whole.
  const unclosed = unclosedQuoteLine(body, result.errors);
  if (unclosed !== null) return { ok: false, problems: [unclosedQuoteMessage(unclosed)] };
  const headers = result.meta.fields ?? [];
  const problems: string[] = [];
  if (!headers.includes("case_number")) {
    return { ok: false, problems: [`The header row must have a case_number column (found: ${headers.join(", ") || "nothing"}).`] };
  }
  const unknown = headers.filter((h) => h !== "case_number" && !(CASE_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) {
    return {
      ok: false,
      problems: [
        `Unknown column${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Allowed: case_number, ${CASE_COLUMNS.join(", ")}.`,
      ],
    };
  }
  const duplicated = headers.filter((h, i) => headers.indexOf(h) !== i);
  if (duplicated.length) return { ok: false, problems: [`Column ${duplicated[0]} appears twice in the header row.`] };
  for (const e of result.errors) {
    // A row with more or fewer cells than the header is a broken file, not a detail.
    problems.push(`Line ${(e.row ?? 0) + 2}: ${e.message}.`);
  }

  const seen = new Map<string, number>();
  const rows: CaseValues[] = [];
  result.data.forEach((record, index) => {
    const line = index + 2;
    const rawCase = String(record.case_number ?? "").trim();
    const caseNumber = caseNumberFrom(rawCase);
    if (!caseNumber) {
      problems.push(`Line ${line}: case_number "${rawCase.slice(0, 30)}" must be 5 to 20 digits.`);
      return;
    }
    const earlier = seen.get(caseNumber);
    if (earlier) problems.push(`Line ${line}: case_number ${caseNumber} is already on line ${earlier}.`);
    seen.set(caseNumber, line);
    const row: CaseValues = { case_number: caseNumber };
    for (const column of CASE_COLUMNS) {
      const cell = String(record[column] ?? "").trim();
      if (!cell) continue;
      const value = CHECK[column].check(cell);
      if (value === undefined) problems.push(`Line ${line}: ${column} "${cell.slice(0, 40)}" must be ${CHECK[column].expect}.`);
      else (row as Record<string, unknown>)[DB_COLUMN[column]] = value;
    }
    rows.push(row);
  });
  if (!rows.length && !problems.length) problems.push("The file has no case rows.");
  return problems.length ? { ok: false, problems } : { ok: true, rows };
}
