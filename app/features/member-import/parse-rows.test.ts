import { describe, expect, it } from "vitest";
import { emptyStats, hasRequiredColumns, MESSAGES } from "./contract";
import { normalizeHeader } from "~/platform/csv";
import { parseMemberCsv } from "./parse-csv";
import { unclosedQuoteMessage } from "~/platform/csv";

/*
 * Every reason a member row is refused, word for word, with the line it names; where each
 * optional column may sit; and the header rules the upload pages share with the server.
 */

const TODAY = "2024-06-15";
const ok = (text: string) => {
  const r = parseMemberCsv(text, TODAY);
  if (!r.ok) throw new Error(r.error);
  return r;
};
const errors = (text: string) => ok(text).rowErrors.map((e) => e.message);

describe("header names", () => {
  it("are trimmed, lower case, with runs of spaces and dashes as one underscore; a BOM is white space", () => {
    expect(normalizeHeader("\uFEFF Certificate Number ")).toBe("certificate_number");
    expect(normalizeHeader("First - Name")).toBe("first_name");
    expect(normalizeHeader("E-Mail")).toBe("e_mail");
    expect(normalizeHeader("birth\uFEFFdate")).toBe("birth_date");
  });

  it("must include certificate_number and birthdate, in any spelling normalizeHeader accepts", () => {
    expect(hasRequiredColumns(["Birthdate", "Certificate Number", "x"])).toBe(true);
    expect(hasRequiredColumns(["certificate_number"])).toBe(false);
    expect(hasRequiredColumns(["birthdate"])).toBe(false);
    expect(hasRequiredColumns([])).toBe(false);
    expect(emptyStats()).toEqual({ total_processed: 0, successful: 0, errors: 0, processing_time_seconds: 0 });
  });

  it("refuse a file missing either column, whatever follows", () => {
    expect(parseMemberCsv("certificate_number,first_name\nA,Ann\n", TODAY)).toEqual({ ok: false, error: MESSAGES.missingColumns });
    expect(parseMemberCsv("birthdate,first_name\n1980-01-01,Ann\n", TODAY)).toEqual({ ok: false, error: MESSAGES.missingColumns });
  });
});

describe("row errors", () => {
  it("name each refused value and its line", () => {
    const text = [
      "certificate_number,birthdate,first_name,last_name",
      ",1980-01-01,No,Cert", // 2
      "B,   ,Blank,Date", // 3
      "C,Jan 5 1980,Bad,Format", // 4
      "D,1980-02-30,Not,Real", // 5
      "E,2024-06-16,Fut,Ure", // 6
      "F,1899-12-31,Too,Old", // 7
      `G,${"1".repeat(50)},Long,Date`, // 8
      `H,1980-01-01,Ok,${"l".repeat(101)}`, // 9
      "I,1980-01-01,Ok,Tab\tName", // 10
      "J,1980-01-01,Bell\u0007,Ok", // 11
      "K", // 12: one cell is a row, not a blank line
    ].join("\n");
    expect(errors(text)).toEqual([
      "Line 2: certificate_number is missing",
      'Line 3: birthdate is missing for certificate number "B"',
      'Line 4: birthdate "Jan 5 1980" is not a date in the format YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD',
      'Line 5: birthdate "1980-02-30" is not a real date',
      'Line 6: birthdate "2024-06-16" is in the future',
      'Line 7: birthdate "1899-12-31" is before 1900',
      `Line 8: birthdate "${"1".repeat(40)}" is not a date in the format YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD`,
      "Line 9: last_name is longer than 100 characters",
      "Line 10: last_name contains control characters",
      "Line 11: first_name contains control characters",
      'Line 12: birthdate is missing for certificate number "K"',
    ]);
  });

  it("accept values at their limits, trimmed", () => {
    const cert = "C".repeat(64);
    const r = ok(`certificate_number,birthdate,first_name,last_name\n${cert}, 1980-01-01 ,${"f".repeat(100)} , ${"l".repeat(100)}\n`);
    expect(r.rowErrors).toEqual([]);
    expect(r.records[0]).toMatchObject({ certificate: cert, mmddyy: "010180", firstName: "f".repeat(100), lastName: "l".repeat(100) });
  });

  it("refuse the whole file for a quoted field left open, naming its line (issue 39)", () => {
    expect(
      parseMemberCsv('certificate_number,birthdate,first_name\nA,1980-01-01,Ann\nB,1980-01-01,"Open\nC,1980-01-01,Cy\n', TODAY),
    ).toEqual({
      ok: false,
      error: unclosedQuoteMessage(3),
    });
    expect(unclosedQuoteMessage(3)).toMatch(/^Line 3: a quoted field is not closed/);
    // Closed, then followed by more text: the rows after it are misread all the same.
    expect(parseMemberCsv('certificate_number,birthdate,first_name\n"A"x,1980-01-01,Ann\nB,1980-01-01,Bo\n', TODAY)).toEqual({
      ok: false,
      error: unclosedQuoteMessage(2),
    });
  });

  it("count a lone CR or LF inside a quoted field as a line, so later rows keep their numbers", () => {
    const r = ok('certificate_number,birthdate,notes\nA,1980-01-01,"one\ntwo"\nB,1980-01-01,"one\rtwo\rthree"\nC,1980-13-01,x\n');
    expect(r.records.map((x) => [x.certificate, x.line])).toEqual([
      ["A", 2],
      ["B", 4],
    ]);
    expect(r.rowErrors).toEqual([{ line: 7, message: 'Line 7: birthdate "1980-13-01" is not a real date' }]);
  });
});

describe("optional columns", () => {
  it("are read wherever they sit, the first column included", () => {
    const first = ok("first_name,certificate_number,birthdate\nAnn,A,1980-01-01\n");
    expect(first.records[0]).toMatchObject({ certificate: "A", firstName: "Ann", lastName: null, email: null });
    expect(first.hasNameColumns).toEqual({ first: true, last: false });
    expect(first.hasEmailColumn).toBe(false);
    const last = ok("last_name,certificate_number,birthdate\nLee,A,1980-01-01\n");
    expect(last.records[0]).toMatchObject({ firstName: null, lastName: "Lee" });
    expect(last.hasNameColumns).toEqual({ first: false, last: true });
    const email = ok("email,birthdate,certificate_number\nann@example.com,1980-01-01,A\n");
    expect(email.records[0]).toMatchObject({ certificate: "A", email: "ann@example.com", firstName: null });
    expect(email.hasEmailColumn).toBe(true);
    expect(email.hasNameColumns).toEqual({ first: false, last: false });
    const birthFirst = ok("birthdate,certificate_number\n1980-01-02,B\n");
    expect(birthFirst.records[0]).toMatchObject({ certificate: "B", mmddyy: "010280" });
  });

  it("may be cut short in a row: a missing cell is an empty one", () => {
    const r = ok("certificate_number,birthdate,first_name,email\nA,1980-01-01\n");
    expect(r.records[0]).toMatchObject({ certificate: "A", firstName: null, email: null });
    expect(errors("birthdate,certificate_number\n1980-01-01\n")).toEqual(["Line 2: certificate_number is missing"]);
  });

  it("keep the header cells as written, without the BOM", () => {
    expect(ok("\uFEFFCertificate Number,Birthdate\nA,1980-01-01\n").headerCells).toEqual(["Certificate Number", "Birthdate"]);
  });
});

describe("the optional plan columns", () => {
  const HEAD = "certificate_number,birthdate,Plan,Coverage Amount,Paid Through";
  it("read a plan, its amount of coverage and the day paid through, in any date format the birthdate takes", () => {
    const r = ok(
      `${HEAD}\nP1,1980-01-01,Monthly,"250,000",2026-03-31\nP2,1980-01-01,annual,,03/31/2027\nP3,1980-01-01,,,\nP4,1980-01-01,annual,99.5,\n`,
    );
    expect(r.rowErrors).toEqual([]);
    expect(r.records.map((x) => x.plan)).toEqual([
      { billing: "monthly", coverageCents: 25_000_000, paidThrough: "2026-03-31" },
      { billing: "annual", coverageCents: null, paidThrough: "2027-03-31" },
      null,
      { billing: "annual", coverageCents: 9950, paidThrough: null },
    ]);
  });

  it("refuse a row with a bad value, naming the column and the value", () => {
    expect(
      errors(
        `${HEAD}\nQ1,1980-01-01,weekly,,\nQ2,1980-01-01,,1000,\nQ3,1980-01-01,monthly,lots,\nQ4,1980-01-01,monthly,,2026-02-30\nQ5,1980-01-01,monthly,,next week\nQ6,1980-01-01,monthly,30000000,\n`,
      ),
    ).toEqual([
      'Line 2: plan "weekly" must be monthly or annual',
      "Line 3: plan is missing: give monthly or annual with coverage_amount or paid_through",
      'Line 4: coverage_amount "lots" is not an amount in dollars like 250000 or 250000.00',
      'Line 5: paid_through "2026-02-30" is not a real date',
      'Line 6: paid_through "next week" is not a date in the format YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD',
      'Line 7: coverage_amount "30000000" is not an amount in dollars like 250000 or 250000.00',
    ]);
  });

  it("take a paid_through day from 1990 to 10 years ahead of today, as a payment may pay it (issue 39)", () => {
    const r = ok(`${HEAD}\nP1,1980-01-01,monthly,,1990-01-01\nP2,1980-01-01,monthly,,2034-06-15\n`);
    expect(r.rowErrors).toEqual([]);
    expect(r.records.map((x) => x.plan?.paidThrough)).toEqual(["1990-01-01", "2034-06-15"]);
    const range = "must be a day from January 1, 1990 to June 15, 2034 (at most 10 years ahead)";
    expect(
      errors(`${HEAD}\nQ1,1980-01-01,monthly,,1989-12-31\nQ2,1980-01-01,monthly,,2034-06-16\nQ3,1980-01-01,annual,,9999-12-31\n`),
    ).toEqual([
      `Line 2: paid_through "1989-12-31" ${range}`,
      `Line 3: paid_through "2034-06-16" ${range}`,
      `Line 4: paid_through "9999-12-31" ${range}`,
    ]);
  });
});
