import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import { unclosedQuoteMessage } from "~/platform/csv";
import { csvPieces, parsePaymentsCsv, paymentDay, PAYMENTS_CSV_MESSAGES as P } from "./payments-csv";

const parse = (text: string) => parsePaymentsCsv(text, "2026-11-27");

describe("the payment portal's CSV export", () => {
  it("reads rows under headers named as the member import names them, in any order", () => {
    const got = parse(
      'Reference,Paid On,Certificate Number,AMOUNT,extra\r\nPP-1,03/07/2026,aha0000001,$19.95,x\r\nPP-2,2026-03-08, AHA0000002 ,"1,250.50",y\r\n',
    );
    expect(got).toEqual({
      ok: true,
      kind: "site",
      totalRows: 2,
      problems: [],
      notPaid: [],
      rows: [
        { line: 2, certificate: "AHA0000001", amountCents: 1995, paidOn: "2026-03-07", reference: "PP-1", method: "card" },
        { line: 3, certificate: "AHA0000002", amountCents: 125050, paidOn: "2026-03-08", reference: "PP-2", method: "card" },
      ],
    });
  });

  it("refuses a file without its columns or rows, as a whole", () => {
    expect(parse("")).toEqual({ ok: false, error: P.empty });
    expect(parse("certificate_number,amount,paid_on\nA,1,2026-01-01")).toEqual({
      ok: false,
      error: P.missingColumns(["reference"]),
      // The columns the file has, for staff to map.
      columns: ["certificate_number", "amount", "paid_on"],
    });
    expect(parse("certificate_number,amount,paid_on,reference\n\n")).toEqual({ ok: false, error: P.noRows });
  });

  it("refuses the whole file when a quoted field is not closed, naming the line where it opens (issue 39)", () => {
    const issue =
      "certificate_number,amount,paid_on,reference,memo\n" +
      'A1,19.95,2026-03-01,R1,"paid by check\n' +
      "A2,19.95,2026-03-01,R2,\n" +
      "A3,19.95,2026-03-01,R3,\n";
    for (const size of [1, 10, 40, 1000])
      expect(parsePaymentsCsv(issue, "2026-11-27", size)).toEqual({ ok: false, error: unclosedQuoteMessage(2) });
    // After a quoted field with line breaks, blank lines, CRLF; in the header; closed and followed by more text.
    const later =
      'certificate_number,amount,paid_on,reference,memo\r\nA1,1,2026-03-01,R1,"two\r\nlines"\r\n\r\nA2,1,2026-03-01,R2,"open\r\nA3,1,2026-03-01,R3,\r\n';
    for (const size of [1, 10, 1000])
      expect(parsePaymentsCsv(later, "2026-11-27", size)).toEqual({ ok: false, error: unclosedQuoteMessage(5) });
    expect(parse('certificate_number,amount,paid_on,reference,"memo\nA1,1,2026-03-01,R1,\n')).toEqual({
      ok: false,
      error: unclosedQuoteMessage(1),
    });
    expect(parse('certificate_number,amount,paid_on,reference,memo\nA1,1,2026-03-01,R1,"by" check\nA2,1,2026-03-01,R2,\n')).toEqual({
      ok: false,
      error: unclosedQuoteMessage(2),
    });
    // A quote inside a field that does not open with one is text.
    expect(parse('certificate_number,amount,paid_on,reference,memo\nA1,1,2026-03-01,R1,by "check\nA2,1,2026-03-01,R2,\n')).toMatchObject({
      ok: true,
      totalRows: 2,
    });
  });

  it("names each bad row's problem with its physical line", () => {
    const got = parse(
      [
        "certificate_number,amount,paid_on,reference,method",
        ",19.95,2026-01-01,R1,",
        "A1,19.999,2026-01-01,R2,",
        "A1,0.00,2026-01-01,R3,",
        "A1,19.95,2026-02-30,R4,",
        "A1,19.95,2026-11-28,R5,",
        "A1,19.95,2026-01-01,,",
        '"A1",19.95,2026-01-01,"R\nX",',
        "A1,19.95,2026-01-01,R8,bitcoin",
        "A1,19.95,2026-01-01,R9,check",
        "A1,19.95,2026-01-01,R9,",
        "A1,19.95,0001-01-01,R13,",
        "A1,19.95,12/31/1989,R14,",
        "A1,19.95,01/01/1990,R15,",
      ].join("\n"),
    );
    if (!got.ok) throw new Error(got.error);
    expect(got.problems).toEqual([
      { line: 2, message: P.certificate },
      { line: 3, message: P.amount },
      { line: 4, message: P.amount },
      { line: 5, message: P.paidOn },
      { line: 6, message: P.paidOnRange("2026-11-27") },
      { line: 7, message: P.reference },
      { line: 8, message: P.reference },
      { line: 10, message: P.method },
      { line: 12, message: P.repeated(11) },
      // A day from 1990 to the latest (issue 39: 0001-01-01 was taken).
      { line: 13, message: P.paidOnRange("2026-11-27") },
      { line: 14, message: P.paidOnRange("2026-11-27") },
    ]);
    expect(P.paidOnRange("2026-11-27")).toBe("paid_on must be a day from January 1, 1990 to November 27, 2026");
    expect(got.rows.map((r) => [r.line, r.method])).toEqual([
      [11, "check"],
      [15, "card"],
    ]);
    expect(got.totalRows).toBe(13);
  });

  it("reads days written either way, and only real ones", () => {
    expect(paymentDay("2/29/2028")).toBe("2028-02-29");
    expect(paymentDay("2/29/2027")).toBeNull();
    expect(paymentDay("2027-13-01")).toBeNull();
    expect(paymentDay("12/31/2026")).toBe("2026-12-31");
  });
});

describe("reading a large file a piece at a time", () => {
  const whole = (text: string) => Papa.parse<string[]>(text, { skipEmptyLines: false }).data;
  const inPieces = (text: string, size: number) => [...csvPieces(text, size)].flatMap((p) => p.rows);
  /** The first row, counted over the whole file, that a piece says is not closed (-1: none). */
  const unclosedInPieces = (text: string, size: number) => {
    let before = 0;
    for (const p of csvPieces(text, size)) {
      if (p.unclosed >= 0) return before + p.unclosed;
      before += p.rows.length;
    }
    return -1;
  };
  const unclosedInWhole = (text: string) => {
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: false })
      .errors.filter((e) => e.type === "Quotes")
      .map((e) => e.row!);
    return rows.length ? Math.min(...rows) : -1;
  };

  it("reads the rows Papa reads from the whole text, wherever the pieces end", () => {
    const texts = [
      'a,b\r\n1,"x\r\ny"\r\n\r\n3,4\r\n5,6',
      'a,b\n"q ""quoted"" , and\nmore",2\n\n\n"",""\n',
      "a;b\r\n1;2\r\n",
      'x"y,z\n1,"2\n3"\n4,5\n"6',
      'a,b\n"open,1\n2,3\n4,5',
      'a,"b"c,d\n"e\nf",g\n',
      "\n\na\n",
    ];
    for (const text of texts) for (let size = 1; size <= text.length + 1; size++) expect(inPieces(text, size)).toEqual(whole(text));
  });

  it("matches Papa on many random texts of quotes, commas and line breaks", () => {
    // A fixed sequence (linear congruential), so a failure repeats.
    let seed = 31;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ["a", "b", ",", '"', '"', "\n", "\r\n", "\r", " ", ";"];
    for (let n = 0; n < 400; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
      for (const size of [1, 2, 3, 5, 8, 13]) {
        expect(inPieces(text, size), JSON.stringify(text)).toEqual(whole(text));
        expect(unclosedInPieces(text, size), JSON.stringify(text)).toBe(unclosedInWhole(text));
      }
    }
  });

  it("keeps the pieces small when cells hold quoted line breaks", () => {
    const text = Array.from({ length: 50 }, (_, i) => `${i},"a\nb ""c"""`).join("\n");
    expect([...csvPieces(text, 1)].map((p) => p.rows.length)).toEqual(Array(50).fill(1));
  });

  it("gives each row its physical line across pieces", () => {
    const rows = Array.from({ length: 30 }, (_, i) => (i === 10 ? `A${i},19.95,2026-01-01,"R\n${i}"` : `A${i},19.95,2026-01-01,R${i}`));
    const text = `certificate_number,amount,paid_on,reference\n${rows.join("\n")}\n\nA99,abc,2026-01-01,R99\n`;
    const got = parsePaymentsCsv(text, "2026-11-27");
    if (!got.ok) throw new Error(got.error);
    for (const size of [1, 7, 40, 100]) expect(parsePaymentsCsv(text, "2026-11-27", size)).toEqual(got);
    expect(got.rows).toHaveLength(29);
    expect(got.rows.at(-1)).toMatchObject({ line: 32, reference: "R29" });
    expect(got.problems).toEqual([
      { line: 12, message: P.reference },
      { line: 34, message: P.amount },
    ]);
  });
});
