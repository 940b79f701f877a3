import { describe, expect, it } from "vitest";
import { unclosedQuoteMessage } from "~/platform/csv";
import { checkCsv } from "./csv-file";

describe("checkCsv (User Upload's check in the browser)", () => {
  it("refuses a file with a quoted field left open in the import's words, naming the line where it opens (issue 39)", () => {
    const text = '\uFEFFcertificate_number,birthdate,notes\r\n\r\nA,1980-01-01,"two\r\nlines"\r\nB,1980-01-01,"open\r\nC,1980-01-01,\r\n';
    expect(checkCsv(text)).toEqual({ ok: false, error: unclosedQuoteMessage(5) });
  });

  it("counts the rows of a well-formed file", () => {
    expect(checkCsv('certificate_number,birthdate\nA,1980-01-01\n"B",1980-01-02\n')).toMatchObject({ ok: true, records: 2 });
  });
});
