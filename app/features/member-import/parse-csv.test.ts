import { describe, expect, it } from "vitest";
import { MESSAGES } from "./contract";
import { parseMemberCsv } from "./parse-csv";

const TODAY = "2024-06-15";
const ok = (text: string) => {
  const r = parseMemberCsv(text, TODAY);
  if (!r.ok) throw new Error(r.error);
  return r;
};

describe("parseMemberCsv", () => {
  it("reads quoted fields, CRLF, a BOM, blank lines, extra columns and headers in any case with spaces", () => {
    const text =
      "\uFEFF Certificate Number ,BIRTHDATE,First_Name,Last Name,notes\r\n" +
      'a-100,1980-01-15,"Smith, Jr.",Doe,"multi\r\nline note"\r\n' +
      "\r\n" +
      "  \r\n" +
      "a-101,02/03/1975,Ann,,x,y,z\r\n" +
      "a-102,1975/13/01,Bad,Date\r\n";
    const r = ok(text);
    expect(r.records).toEqual([
      { line: 2, certificate: "A-100", mmddyy: "011580", digest: "", firstName: "Smith, Jr.", lastName: "Doe", email: null },
      { line: 6, certificate: "A-101", mmddyy: "020375", digest: "", firstName: "Ann", lastName: null, email: null },
    ]);
    expect(r.rowErrors).toEqual([{ line: 7, message: 'Line 7: birthdate "1975/13/01" is not a real date' }]);
    expect(r.totalRows).toBe(3);
  });

  it("reports a repeated certificate number on the later rows, after case and spaces are normalized", () => {
    const r = ok("certificate_number,birthdate\nC1,1980-01-01\n c1 ,1981-01-01\nC2,1980-01-01\nC1,1982-01-01\n");
    expect(r.records.map((x) => x.certificate)).toEqual(["C1", "C2"]);
    expect(r.rowErrors.map((e) => e.message)).toEqual([
      'Line 3: certificate number "C1" repeats line 2',
      'Line 5: certificate number "C1" repeats line 2',
    ]);
  });

  it("refuses files without the two columns, empty files and header-only files", () => {
    expect(parseMemberCsv("cert,birthdate\nA,1980-01-01", TODAY)).toEqual({ ok: false, error: MESSAGES.missingColumns });
    expect(parseMemberCsv("\uFEFF\r\n\r\n", TODAY)).toEqual({ ok: false, error: MESSAGES.emptyFile });
    expect(parseMemberCsv("certificate_number,birthdate\r\n\r\n", TODAY)).toEqual({ ok: false, error: MESSAGES.noRecords });
  });

  it("keeps line numbers across parse chunks (files over 1MB) with multi-line quoted fields anywhere", () => {
    const lines = ["certificate_number,birthdate,first_name,notes"];
    for (let i = 0; i < 40_000; i++)
      lines.push(i % 997 === 0 ? `Q${i},1980-01-01,Q,"two\r\nlines"` : `R${i},1980-01-01,Row,plain text padding`);
    lines.push("LAST,1980-02-31,Bad,date");
    const text = lines.join("\r\n");
    expect(text.length).toBeGreaterThan(1.5 * 2 ** 20);
    const r = ok(text);
    const quoted = Math.ceil(40_000 / 997);
    expect(r.totalRows).toBe(40_001);
    expect(r.records).toHaveLength(40_000);
    expect(r.rowErrors).toEqual([{ line: 40_002 + quoted, message: `Line ${40_002 + quoted}: birthdate "1980-02-31" is not a real date` }]);
    expect(r.records[r.records.length - 1]).toMatchObject({ certificate: "R39999", line: 40_001 + quoted });
  });

  it("checks lengths and control characters", () => {
    const r = ok(
      `certificate_number,birthdate,first_name\n${"X".repeat(65)},1980-01-01,A\nB\u0007,1980-01-01,A\nC,1980-01-01,${"n".repeat(101)}\n`,
    );
    expect(r.rowErrors.map((e) => e.message)).toEqual([
      "Line 2: certificate_number is longer than 64 characters",
      "Line 3: certificate_number contains control characters",
      "Line 4: first_name is longer than 100 characters",
    ]);
  });

  it("reads the email column, trimmed; a blank cell is no address and a wrong one is the row's error", () => {
    const long = `${"a".repeat(64)}@${"b".repeat(186)}.com`;
    const r = ok(
      "certificate_number,birthdate,E-Mail\n" +
        "A,1980-01-01, ann@example.com \n" +
        "B,1980-01-01,\n" +
        "C,1980-01-01,no-at-sign\n" +
        `D,1980-01-01,${long}\n` +
        `E,1980-01-01,${long.slice(1)}\n` +
        "F,1980-01-01,two@@example.com\n",
    );
    expect(r.hasEmailColumn).toBe(true);
    expect(long).toHaveLength(255);
    expect(r.records.map((x) => [x.certificate, x.email])).toEqual([
      ["A", "ann@example.com"],
      ["B", null],
      ["E", long.slice(1)],
    ]);
    expect(r.rowErrors.map((e) => e.message)).toEqual([
      'Line 4: email "no-at-sign" is not an e-mail address like name@example.com',
      `Line 5: email ${JSON.stringify(long.slice(0, 60))} is not an e-mail address like name@example.com`,
      'Line 7: email "two@@example.com" is not an e-mail address like name@example.com',
    ]);
    expect(ok("certificate_number,birthdate\nA,1980-01-01\n").hasEmailColumn).toBe(false);
  });

  it("previews the first rows as written, each with the reason the import will refuse it", () => {
    const text =
      'Certificate Number,Birthdate,First\r\nA1,1980-01-15,Ann\r\n\r\n,1980-01-15,Blank\r\na1,1981-01-01,Again\r\nB2,1980-02-30,Feb\r\nC3,1980-03-03,"two\r\nlines"\r\nD4,1980-04-04,Out\r\n';
    const r = ok(text);
    expect(r.headerCells).toEqual(["Certificate Number", "Birthdate", "First"]);
    expect(parseMemberCsv(text, TODAY, { preview: 5 })).toMatchObject({
      preview: [
        { line: 2, cells: ["A1", "1980-01-15", "Ann"], problem: null },
        { line: 4, cells: ["", "1980-01-15", "Blank"], problem: "certificate_number is missing" },
        { line: 5, cells: ["a1", "1981-01-01", "Again"], problem: 'certificate number "A1" repeats line 2' },
        { line: 6, cells: ["B2", "1980-02-30", "Feb"], problem: 'birthdate "1980-02-30" is not a real date' },
        { line: 7, cells: ["C3", "1980-03-03", "two\r\nlines"], problem: null },
      ],
    });
    // The preview and the import agree: every refused preview row is in the row errors.
    expect(r.rowErrors.map((e) => e.line)).toEqual([4, 5, 6]);
    expect(r.preview).toEqual([]);
  });
});
