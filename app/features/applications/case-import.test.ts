import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "~/server/admin-cli.server";
import { unclosedQuoteMessage } from "~/platform/csv";
import { guardRows } from "../../../tests/support/row-guard";
import { createTestContext, describeEachDatabase, type TestContext } from "../../../tests/support/test-app";

describeEachDatabase("npm run admin -- import-cases", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  const writeCsv = (name: string, text: string) => {
    const file = path.join(ctx.dataDir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const run = (...argv: string[]) => runAdminCommand(argv, ctx.services);
  const cases = () => ctx.services.database.db.selectFrom("cases").selectAll().orderBy("case_number").execute();

  it("imports cases from a CSV with case_number and any lookup fields, normalized", async () => {
    const file = writeCsv(
      "cases.csv",
      "\uFEFFcase_number, firstName,lastName,coverage,email,phone,address1,city,state,zip,gender\n" +
        '1000001,Ana,Lopez,"$150,000",ana@example.com,2035550101,"1 Main St, Unit 2",Darien,ct,06820,female\n' +
        "1000002,Bo,,75000,,,,,,,\n" +
        "\n",
    );
    expect(await run("import-cases", file)).toEqual({ code: 0, out: "Imported 2 cases: 2 new, 0 updated." });
    expect(await cases()).toMatchObject([
      {
        case_number: "1000001",
        first_name: "Ana",
        last_name: "Lopez",
        coverage: "150000.00",
        email: "ana@example.com",
        phone: "(203) 555-0101",
        address1: "1 Main St, Unit 2",
        city: "Darien",
        state: "CT",
        zip: "06820",
        gender: "Female",
      },
      { case_number: "1000002", first_name: "Bo", last_name: null, coverage: "75000.00", email: null },
    ]);
  });

  it("updates a case number that is imported again, and adds the new ones", async () => {
    const file = writeCsv("again.csv", "case_number,applicantName,coverage\n1000002,Bo Chen,80000\n1000003,Cy Young,\n");
    expect(await run("import-cases", file)).toEqual({ code: 0, out: "Imported 2 cases: 1 new, 1 updated." });
    const rows = await cases();
    expect(rows.map((r) => r.case_number)).toEqual(["1000001", "1000002", "1000003"]);
    // The file is the truth for its cases: columns it leaves out are cleared.
    expect(rows[1]).toMatchObject({ applicant_name: "Bo Chen", coverage: "80000.00", first_name: null });
    expect(rows[1].updated_at >= rows[1].created_at).toBe(true);
  });

  it("imports nothing when any row is wrong, and says which lines", async () => {
    const before = await cases();
    const file = writeCsv(
      "bad.csv",
      "case_number,email,state,gender,coverage\n2000001,ok@example.com,CT,Male,100\n12a4,x@example.com,,,\n2000002,nope,Conn,robot,-5\n2000001,,,,\n",
    );
    const res = await run("import-cases", file);
    expect(res.code).toBe(1);
    expect(res.out).toBe(
      [
        "Nothing was imported. Fix these problems and run the import again:",
        '  Line 3: case_number "12a4" must be 5 to 20 digits.',
        '  Line 4: coverage "-5" must be a dollar amount like 250000 or $250,000.00.',
        '  Line 4: email "nope" must be an email address.',
        '  Line 4: state "Conn" must be 2 letters like CT.',
        '  Line 4: gender "robot" must be Female, Male, Other or Prefer not to say.',
        "  Line 5: case_number 2000001 is already on line 2.",
      ].join("\n"),
    );
    expect(await cases()).toEqual(before);
  });

  it("refuses a file without case_number, with unknown columns, ragged rows or no rows", async () => {
    expect((await run("import-cases", writeCsv("a.csv", "case,firstName\n12345,Ana\n"))).out).toMatch(
      /^Nothing was imported[\s\S]*must have a case_number column \(found: case, firstName\)/,
    );
    expect((await run("import-cases", writeCsv("b.csv", "case_number,ssn\n12345,123-45-6789\n"))).out).toMatch(
      /Unknown column: ssn\. Allowed: case_number, firstName, lastName, applicantName, coverage, email, phone, address1, city, state, zip, gender\./,
    );
    expect((await run("import-cases", writeCsv("c.csv", "case_number,firstName\n12345,Ana,extra\n"))).out).toMatch(
      /Line 2: Too many fields/,
    );
    expect((await run("import-cases", writeCsv("d.csv", "case_number,firstName\n"))).out).toMatch(/The file has no case rows\./);
    expect((await cases()).map((r) => r.case_number)).not.toContain("12345");
  });

  it("refuses a file with a quoted field left open, naming its line (issue 39)", async () => {
    const file = writeCsv("open.csv", 'case_number,firstName\n3000001,"Ana\n\n3000002,Bo\n');
    expect(await run("import-cases", file)).toEqual({
      code: 1,
      out: `Nothing was imported. Fix these problems and run the import again:\n  ${unclosedQuoteMessage(2)}`,
    });
    expect((await cases()).map((r) => r.case_number)).not.toContain("3000002");
  });

  it("explains a missing file or argument", async () => {
    expect(await run("import-cases", path.join(ctx.dataDir, "missing.csv"))).toMatchObject({
      code: 2,
      out: expect.stringMatching(/^Cannot read .*missing\.csv: ENOENT$/),
    });
    expect((await run("import-cases")).out).toMatch(/^import-cases takes one CSV file/);
    expect((await run("add-member", "stray")).code).toBe(2);
  });

  it("changes only the cases its file names, and adds the new ones", async () => {
    expect(
      await run(
        "import-cases",
        writeCsv("base.csv", "case_number,applicantName,coverage\n3000001,Ann Keep,1000\n3000002,Bo Change,2000\n3000003,Cy Keep,3000\n"),
      ),
    ).toMatchObject({ code: 0 });
    const before = await cases();
    const changedId = before.find((r) => r.case_number === "3000002")!.id;
    const guard = await guardRows(ctx.services.database.db, ["cases", "users", "applications"]);
    const file = writeCsv("partial.csv", "case_number,applicantName,coverage\n3000002,Bo Changed,2500\n3000004,Di New,4000\n");
    expect(await run("import-cases", file)).toEqual({ code: 0, out: "Imported 2 cases: 1 new, 1 updated." });
    const changes = await guard.expectChanges({
      cases: { added: 1, changed: [changedId], columns: ["applicant_name", "coverage", "updated_at"] },
    });
    expect(changes.cases.added[0]).toMatchObject({ case_number: "3000004", applicant_name: "Di New", coverage: "4000.00" });
  });
});
