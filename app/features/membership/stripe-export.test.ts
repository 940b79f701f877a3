import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  isStripeExport,
  obviousMapping,
  parsePaymentsCsv,
  PAYMENTS_CSV_MESSAGES as P,
  stripeDay,
  STRIPE_EXPORT_MESSAGES as S,
} from "./payments-csv";

/** Files shaped as Stripe's payments export writes them (Payments, Export: its column names, UTC times, dollars, metadata columns). */
const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/stripe/${name}`, import.meta.url), "utf8");
const parse = (text: string) => parsePaymentsCsv(text, "2026-11-28", undefined, { timeZone: "America/New_York" });

describe("Stripe's payments export, as downloaded", () => {
  it("is told from the site's own columns by its header row", () => {
    expect(isStripeExport(fixture("unified_payments.csv").split("\n")[0].split(","))).toBe(true);
    expect(isStripeExport(fixture("payments_created_utc.csv").split("\n")[0].split(","))).toBe(true);
    expect(isStripeExport(["certificate_number", "amount", "paid_on", "reference"])).toBe(false);
    expect(isStripeExport(["id", "Amount", "Currency"])).toBe(false);
  });

  it("reads the unified export: payment intent as reference, the member by metadata, refunds, rows that took no money skipped", () => {
    const got = parse(fixture("unified_payments.csv"));
    expect(got).toMatchObject({ ok: true, kind: "stripe", totalRows: 6, problems: [] });
    if (!got.ok) return;
    expect(got.rows).toEqual([
      {
        line: 2,
        certificate: "STR0001",
        amountCents: 1995,
        paidOn: "2026-03-07",
        reference: "pi_3QxA1b2C3d4E5f6G0z9y8x7w",
        method: "card",
        otherReferences: ["ch_3QxA1b2C3d4E5f6G0a1b2c3d"],
        refundCents: 0,
      },
      {
        // 02:30 UTC on March 8 is March 7 in New York: the association's day, as the webhook dates it.
        line: 3,
        certificate: "",
        memberReference: "pref_Two2Two2Two2Two2Tw",
        amountCents: 1995,
        paidOn: "2026-03-07",
        reference: "pi_3QxB1b2C3d4E5f6G1z9y8x7w",
        method: "card",
        otherReferences: ["ch_3QxB1b2C3d4E5f6G1a1b2c3d"],
        refundCents: 0,
      },
      expect.objectContaining({ line: 4, amountCents: 3990, refundCents: 1995, refundedOn: "2026-04-07" }),
      expect.objectContaining({ line: 5, certificate: "STR0002", amountCents: 1995, refundCents: 1995, refundedOn: "2026-04-09" }),
      expect.objectContaining({
        line: 7,
        certificate: "",
        reference: "pi_3QxF1b2C3d4E5f6G5z9y8x7w",
        otherReferences: ["ch_3QxF1b2C3d4E5f6G5a1b2c3d", "in_1QxF1b2C3d4E5f6G5i6j7k8l"],
      }),
    ]);
    expect(got.notPaid).toEqual([{ line: 6, reference: "pi_3QxE1b2C3d4E5f6G4z9y8x7w", reason: S.notCaptured }]);
  });

  it("reads the older export (Created (UTC), no seconds, Membership ID metadata), failed rows skipped", () => {
    const got = parse(fixture("payments_created_utc.csv"));
    expect(got).toMatchObject({ ok: true, kind: "stripe", totalRows: 3, problems: [] });
    if (!got.ok) return;
    expect(got.rows.map((r) => [r.line, r.certificate, r.amountCents, r.paidOn, r.reference, r.refundCents])).toEqual([
      // 23:30 UTC on December 31 is still that day in New York.
      [2, "AHA0000001", 9900, "2025-12-31", "pi_1Pa1b2C3d4E5f6G7h8i9j0k1", 0],
      // No payment intent: the charge's id is the reference.
      [4, "AHA0000002", 9900, "2026-02-02", "ch_1Pc1b2C3d4E5f6G7h8i9j0k1", 2500],
    ]);
    expect(got.notPaid).toEqual([{ line: 3, reference: "pi_1Pb1b2C3d4E5f6G7h8i9j0k1", reason: S.notCaptured }]);
  });

  it("makes problems of other currencies and statuses it does not know; the member is left to the import to find", () => {
    const got = parse(fixture("unified_payments_problems.csv"));
    expect(got).toMatchObject({ ok: true, kind: "stripe", totalRows: 4 });
    if (!got.ok) return;
    expect(got.problems).toEqual([{ line: 2, message: S.currency("eur") }]);
    expect(got.rows.map((r) => [r.line, r.certificate, r.memberReference ?? null])).toEqual([
      [3, "STR9999", null],
      [4, "", null],
      [5, "", "pref_NoSuchReference0"],
    ]);
    const header = fixture("unified_payments.csv").split("\n")[0];
    const row = (status: string, amount = "19.95", refunded = "0.00", created = "2026-03-07 14:05:33") =>
      `ch_1,${created},${amount},${refunded},usd,true,${amount},${refunded},usd,,,0.88,false,Live,card,${status},,0.00,,,,,,,,STR0001,`;
    const one = (line: string) => parse(`${header}\n${line}\n`);
    expect(one(row("Disputed"))).toMatchObject({ problems: [{ line: 2, message: S.status("Disputed") }] });
    expect(one(row("Canceled"))).toMatchObject({ notPaid: [{ line: 2, reference: "ch_1", reason: S.notPaid("Canceled") }] });
    expect(one(row("Paid", "0.00"))).toMatchObject({ problems: [{ line: 2, message: S.amount }] });
    expect(one(row("Paid", "19.95", "20.00"))).toMatchObject({ problems: [{ line: 2, message: S.refunded }] });
    expect(one(row("Paid", "19.95", "0.00", "03/07/2026"))).toMatchObject({ problems: [{ line: 2, message: S.created }] });
    expect(one(row("Paid", "19.95", "0.00", "2026-12-25 10:00:00"))).toMatchObject({
      problems: [{ line: 2, message: S.createdRange("2026-11-28") }],
    });
    expect(parse(`${header}\n${row("Paid")}\n${row("Paid")}\n`)).toMatchObject({ problems: [{ line: 3, message: P.repeated(2) }] });
  });

  it("stores references only as Stripe writes its ids: a spreadsheet formula or other text in an id column is a problem naming its line", () => {
    const header = fixture("unified_payments.csv").split("\n")[0];
    // id, Invoice ID and PaymentIntent ID are the 1st, 23rd and 25th columns.
    const row = (id: string, invoice: string, paymentIntent: string) =>
      `${id},2026-03-07 14:05:33,19.95,0.00,usd,true,19.95,0.00,usd,,,0.88,false,Live,card,Paid,,0.00,,,,,${invoice},,${paymentIntent},STR0001,`;
    const one = (line: string) => parse(`${header}\n${row("ch_Good1", "", "pi_Good1")}\n${line}\n`);
    expect(one(row("\"=cmd|' /C calc'!A0\"", "", ""))).toMatchObject({ problems: [{ line: 3, message: S.providerId("id") }] });
    expect(one(row("ch_Good2", "", '=HYPERLINK("http://x")'))).toMatchObject({
      problems: [{ line: 3, message: S.providerId("PaymentIntent ID") }],
    });
    expect(one(row("ch_Good2", "+in_1", "pi_Good2"))).toMatchObject({ problems: [{ line: 3, message: S.providerId("Invoice ID") }] });
    for (const bad of ["@SUM(1)", "-pi_1", "pi_", "pi_a b", "ch_1;", "txn_1", "PI_1", `pi_${"a".repeat(98)}`])
      expect(one(row(bad, "", "")), bad).toMatchObject({ problems: [{ line: 3, message: S.providerId("id") }] });
    // As Stripe writes them: read, each kept as the reference or one of the others.
    const good = one(row("py_3QxA1b2C3d4E5f6G", "in_1QxF1b2C3d4E5f6G", "pi_3QxA1b2C3d4E5f6G"));
    expect(good).toMatchObject({ ok: true, problems: [] });
    if (good.ok)
      expect(good.rows[1]).toMatchObject({
        line: 3,
        reference: "pi_3QxA1b2C3d4E5f6G",
        otherReferences: ["py_3QxA1b2C3d4E5f6G", "in_1QxF1b2C3d4E5f6G"],
      });
  });

  it("dates a UTC time in the association's time zone", () => {
    expect(stripeDay("2026-03-08 02:30:00", "America/New_York")).toBe("2026-03-07");
    expect(stripeDay("2026-03-08 02:30", "UTC")).toBe("2026-03-08");
    expect(stripeDay("2026-03-08T12:00:00Z", "America/New_York")).toBe("2026-03-08");
    expect(stripeDay("2026-02-30 10:00:00", "UTC")).toBeNull();
    expect(stripeDay("2026-03-08 25:00:00", "UTC")).toBeNull();
    expect(stripeDay("March 8, 2026", "UTC")).toBeNull();
  });
});

describe("other portals' files, mapped by staff", () => {
  const file = "Member No,Txn,Date,Paid\nAHA0000001,T-1,2026-03-07,19.95\n";
  it("asks for a mapping, naming the file's columns", () => {
    expect(parse(file)).toEqual({
      ok: false,
      error: P.missingColumns(["certificate_number", "amount", "paid_on", "reference"]),
      columns: ["Member No", "Txn", "Date", "Paid"],
    });
  });
  it("preselects the obvious columns: a field's or its label's name, case and punctuation aside; none when two could be it", () => {
    expect(obviousMapping(["Member No", "Txn", "Date", "Paid"])).toEqual({
      certificate_number: "",
      amount: "",
      paid_on: "",
      reference: "",
    });
    expect(obviousMapping(["CertificateNumber", "AMOUNT ($)", "Paid-On:", "Ref", "Memo"])).toEqual({
      certificate_number: "CertificateNumber",
      amount: "AMOUNT ($)",
      paid_on: "Paid-On:",
      reference: "",
    });
    expect(obviousMapping(["certificate.number", "Reference #", "Amount", "amount"])).toEqual({
      certificate_number: "certificate.number",
      amount: "",
      paid_on: "",
      reference: "Reference #",
    });
  });

  it("reads the columns staff chose", () => {
    const mapping = { certificate_number: "Member No", amount: "Paid", paid_on: "Date", reference: "Txn" };
    expect(parsePaymentsCsv(file, "2026-11-28", undefined, { mapping })).toEqual({
      ok: true,
      kind: "mapped",
      totalRows: 1,
      problems: [],
      notPaid: [],
      rows: [{ line: 2, certificate: "AHA0000001", amountCents: 1995, paidOn: "2026-03-07", reference: "T-1", method: "card" }],
    });
    expect(parsePaymentsCsv(file, "2026-11-28", undefined, { mapping: { ...mapping, amount: "Total" } })).toMatchObject({
      ok: false,
      error: P.mappedColumnMissing("Amount", "Total"),
    });
    expect(parsePaymentsCsv(file, "2026-11-28", undefined, { mapping: { ...mapping, amount: "Txn" } })).toMatchObject({
      ok: false,
      error: P.mappingRepeated,
    });
  });
});
