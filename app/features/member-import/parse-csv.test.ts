import { describe, expect, it } from "vitest";
import { MESSAGES } from "./contract";
import Papa from "papaparse";
import { csvChunks, parseMemberCsv, readMemberCsv, type MemberRecord } from "./parse-csv";

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
      { line: 2, certificate: "A-100", mmddyy: "011580", digest: "", firstName: "Smith, Jr.", lastName: "Doe", email: null, plan: null },
      { line: 6, certificate: "A-101", mmddyy: "020375", digest: "", firstName: "Ann", lastName: null, email: null, plan: null },
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

  it("takes certificate numbers of letters, digits and - only", () => {
    const r = ok(
      `certificate_number,birthdate\naha-100001,1980-01-01\nOLD-777,1980-01-01\nA B,1980-01-01\nÅ1,1980-01-01\nA.1,1980-01-01\n"A,1",1980-01-01\n`,
    );
    expect(r.records.map((m) => m.certificate)).toEqual(["AHA-100001", "OLD-777"]);
    expect(r.rowErrors.map((e) => e.message)).toEqual([
      'Line 4: certificate_number "A B" may contain only letters, digits and -',
      'Line 5: certificate_number "Å1" may contain only letters, digits and -',
      'Line 6: certificate_number "A.1" may contain only letters, digits and -',
      'Line 7: certificate_number "A,1" may contain only letters, digits and -',
    ]);
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

  it("refuses a web or e-mail address in a name (issue 39)", () => {
    const r = ok(
      "certificate_number,birthdate,first_name,last_name\n" +
        "A,1980-01-01,Pay now at http://evil.example/pay - urgent,Lee\n" +
        "B,1980-01-01,Bo,pay@evil.example\n" +
        "C,1980-01-01,St. John,O'Brien-Smith\n",
    );
    expect(r.rowErrors.map((e) => e.message)).toEqual([
      "Line 2: first_name must be a name, not a web or e-mail address",
      "Line 3: last_name must be a name, not a web or e-mail address",
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

describe("readMemberCsv", () => {
  // Rows with quoted line breaks, repeats, errors and blank lines, so that chunk edges fall
  // inside quoted fields and between a row and its repeat.
  const text = [
    "certificate_number,birthdate,first_name,last_name,email",
    ...Array.from({ length: 3000 }, (_, i) =>
      i % 50 === 7
        ? `M${i},1980-01-0${1 + (i % 9)},"Multi\r\nline ""${i}""",Doe,`
        : i % 97 === 3
          ? `M${i - 1},1980-02-02,Repeat,Row,`
          : i % 89 === 5
            ? `M${i},1980-02-30,Bad,Date,\r\n`
            : `M${i},1980-01-0${1 + (i % 9)},First${i},Last${i},m${i}@example.com`,
    ),
  ].join("\r\n");

  it("hands on, chunk by chunk and one chunk at a time, the records the whole parse finds, with the same row errors", async () => {
    const whole = ok(text);
    const parts: MemberRecord[][] = [];
    let pending = 0;
    const read = await readMemberCsv(
      text,
      TODAY,
      async (records) => {
        expect(pending).toBe(0);
        pending++;
        await new Promise((resolve) => setTimeout(resolve, 1));
        parts.push(records);
        pending--;
      },
      4096,
    );
    // The first part is the 64KB the delimiter is guessed from; then a part per 4KB.
    expect(parts.length).toBeGreaterThan(20);
    expect(Math.max(...parts.slice(1).map((p) => p.length))).toBeLessThan(200);
    expect(parts.flat()).toEqual(whole.records);
    const { records: _records, ...summary } = whole;
    expect(read).toEqual(summary);
  });

  it("stops at the first chunk whose records cannot be stored, and throws that error", async () => {
    let calls = 0;
    await expect(
      readMemberCsv(
        text,
        TODAY,
        async () => {
          if (++calls === 3) throw new Error("disk full");
        },
        4096,
      ),
    ).rejects.toThrow("disk full");
    expect(calls).toBe(3);
  });

  it("refuses a file as a whole without handing on any row", async () => {
    const handed: MemberRecord[] = [];
    const keep = async (records: MemberRecord[]) => void handed.push(...records);
    expect(await readMemberCsv("cert,birthdate\nA,1980-01-01\n", TODAY, keep)).toEqual({ ok: false, error: MESSAGES.missingColumns });
    expect(await readMemberCsv(" \r\n", TODAY, keep)).toEqual({ ok: false, error: MESSAGES.emptyFile });
    expect(await readMemberCsv("certificate_number,birthdate\r\n\r\n", TODAY, keep)).toEqual({ ok: false, error: MESSAGES.noRecords });
    expect(handed).toEqual([]);
  });
});

describe("csvChunks", () => {
  it("gives the rows Papa Parse gives for the whole text, wherever the pieces cut it (quotes, CRLF, a lone CR, a BOM, semicolons)", () => {
    // After 64KB of plain rows (the first parse waits for them), the cuts fall anywhere in the rest.
    const lead = (sep: string, eol: string) => Array.from({ length: 4000 }, (_, i) => `r${i}${sep}${i}${sep}x`).join(eol) + eol;
    const texts = [
      "\uFEFF" + lead(",", "\r\n") + '1,"two\r\nlines, and ""quotes""",3\r\n\r\n4,5,6\r\n"unclosed,7',
      lead(";", "\n") + "x;y\n1;2\n3;4\n",
      lead(",", "\r") + 'p,q\r1,"a\rb"\r2,3',
      "only,one,row",
    ];
    for (const text of texts) {
      const whole = Papa.parse<string[]>(text, { skipEmptyLines: false });
      const cut = Math.min(text.length, 70_000);
      for (let size = 1; size <= Math.min(60, text.length); size++) {
        const pieces = [text.slice(0, cut)];
        for (let i = cut; i < text.length; i += size) pieces.push(text.slice(i, i + size));
        const rows = [...csvChunks(pieces)].flatMap((c) => c.result.data);
        expect(rows, `${JSON.stringify(text)} in pieces of ${size}`).toEqual(whole.data);
      }
    }
  });

  it("reads an upload's bytes with characters cut between buffers, and its byte order mark, as the text", async () => {
    // Certificate numbers are letters, digits and "-"; the names carry the characters of 2, 3 and 4 bytes.
    const text =
      "\uFEFFcertificate_number,birthdate,first_name,last_name\r\nA-1,1980-01-01,Zoë,Ångström\r\nB2,1981-02-03,Émile 😀,Noël\r\n";
    const bytes = new TextEncoder().encode(text);
    const byText: MemberRecord[] = [];
    await readMemberCsv(text, TODAY, async (r) => void byText.push(...r));
    expect(byText.map((r) => r.lastName)).toEqual(["Ångström", "Noël"]);
    for (const size of [1, 2, 3, 5, 7]) {
      const buffers = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
      const byBytes: MemberRecord[] = [];
      const read = await readMemberCsv(buffers, TODAY, async (r) => void byBytes.push(...r), 4);
      expect(read).toMatchObject({ ok: true, headerCells: ["certificate_number", "birthdate", "first_name", "last_name"] });
      expect(byBytes, `buffers of ${size} bytes`).toEqual(byText);
    }
  });
});
