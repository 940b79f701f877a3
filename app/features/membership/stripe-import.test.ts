import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { ONLINE_METHOD, type PaymentInput, type PaymentsImportAnswer } from "./contract";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { PAYMENTS_CSV_MESSAGES as P, STRIPE_EXPORT_MESSAGES as S } from "./payments-csv";
import { PAYMENTS_IMPORT_MESSAGES as I } from "./payments-import.server";
import { ONLINE_ACTOR } from "./service.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** Files shaped as Stripe's payments export writes them (tests/fixtures/stripe). */
const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/stripe/${name}`, import.meta.url), "utf8");

describeEachDatabase("membership: payments import of Stripe's export and of mapped columns", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = await loginAs(server, "limited_admin", { username: "stripe-import-staff" });
    for (const certificate of ["STR0001", "STR0002", "STR0003", "MAP0001"]) {
      ids[certificate] = (await loginAs(server, "member", { certificate })).userId;
      await server.request(`/api/admin/members/${ids[certificate]}/membership/plan`, {
        method: "PUT",
        cookie: staff.cookie,
        json: { billing: "monthly", approvedOn: "2026-01-15" },
      });
    }
    const now = new Date().toISOString();
    // STR0002's payment reference: what the online payment carries (and, set by staff, the metadata).
    await server.services.database.db
      .insertInto("membership_online")
      .values({ user_id: ids.STR0002, payment_reference: "pref_Two2Two2Two2Two2Tw", created_at: now, updated_at: now })
      .execute();
    // STR0003 paid online: the webhook recorded it under the payment intent.
    await server.services.coverage.recordPayment(ONLINE_ACTOR, ids.STR0003, {
      amount: 1995,
      paidOn: "2026-05-01",
      method: ONLINE_METHOD as PaymentInput["method"],
      reference: "pi_3QxF1b2C3d4E5f6G5z9y8x7w",
    });
  });
  afterAll(() => server.close());

  const send = async (csv: string, apply: boolean, mapping?: Record<string, string>) => {
    const res = await server.request("/api/admin/membership/payments/import", {
      method: "POST",
      cookie: staff.cookie,
      json: { csv, apply, ...(mapping ? { mapping } : {}) },
    });
    return {
      status: res.status,
      body: (await res.json()) as PaymentsImportAnswer & { error?: string; details?: { problems?: unknown; columns?: string[] } },
    };
  };
  const ledgerOf = async (certificate: string) =>
    (
      await server.services.database.db
        .selectFrom("membership_payments")
        .select(["amount_cents", "paid_on", "method", "reference", "refund_of", "note"])
        .where("user_id", "=", ids[certificate])
        .orderBy("id")
        .execute()
    ).map((r) => [Number(r.amount_cents), r.paid_on, r.method, r.reference, r.refund_of === null ? null : "refund", r.note]);

  it("reads Stripe's export: members by Membership ID or payment reference, refunds against their payment, failed rows and online payments skipped", async () => {
    const csv = fixture("unified_payments.csv");
    const preview = await send(csv, false);
    expect(preview.status).toBe(200);
    expect(preview.body.report).toMatchObject({
      format: { kind: "stripe", mapping: null, saved: false },
      totalRows: 6,
      toRecord: 4,
      totalCents: 1995 + 1995 + 3990 + 1995,
      skipped: 1,
      skippedRows: [{ line: 7, reference: "pi_3QxF1b2C3d4E5f6G5z9y8x7w" }],
      notPaid: 1,
      notPaidRows: [{ line: 6, reference: "pi_3QxE1b2C3d4E5f6G4z9y8x7w", reason: S.notCaptured }],
      refunds: 2,
      refundCents: 1995 * 2,
      problems: 0,
    });
    expect(preview.body.report.matchedRows.map((r) => [r.line, r.certificate, r.reference, r.refundCents ?? 0])).toEqual([
      [2, "STR0001", "pi_3QxA1b2C3d4E5f6G0z9y8x7w", 0],
      [3, "STR0002", "pi_3QxB1b2C3d4E5f6G1z9y8x7w", 0],
      [4, "STR0001", "pi_3QxC1b2C3d4E5f6G2z9y8x7w", 1995],
      [5, "STR0002", "pi_3QxD1b2C3d4E5f6G3z9y8x7w", 1995],
    ]);
    expect(preview.body.message).toBe(
      "Ready to record 4 payments ($99.75) for 2 members and 2 refunds ($39.90). 1 already recorded is skipped. 1 row that took no money is skipped.",
    );
    expect(await ledgerOf("STR0001")).toEqual([]);

    const applied = await send(csv, true);
    expect(applied.status).toBe(201);
    expect(await ledgerOf("STR0001")).toEqual([
      [1995, "2026-03-07", "card", "pi_3QxA1b2C3d4E5f6G0z9y8x7w", null, null],
      [3990, "2026-04-07", "card", "pi_3QxC1b2C3d4E5f6G2z9y8x7w", null, null],
      [-1995, "2026-04-07", "card", null, "refund", I.refundNote],
    ]);
    expect(await ledgerOf("STR0002")).toEqual([
      [1995, "2026-03-07", "card", "pi_3QxB1b2C3d4E5f6G1z9y8x7w", null, null],
      [1995, "2026-04-09", "card", "pi_3QxD1b2C3d4E5f6G3z9y8x7w", null, null],
      [-1995, "2026-04-09", "card", null, "refund", I.refundNote],
    ]);
    // The online payment stays as the webhook recorded it.
    expect(await ledgerOf("STR0003")).toEqual([[1995, "2026-05-01", ONLINE_METHOD, "pi_3QxF1b2C3d4E5f6G5z9y8x7w", null, null]]);

    // The same export again records nothing new (refunds included).
    const again = await send(csv, true);
    expect(again.status).toBe(200);
    expect(again.body.report).toMatchObject({ toRecord: 0, skipped: 5, refunds: 0, notPaid: 1 });
    expect(again.body.message).toBe(`${I.nothingNew} 1 row that took no money is skipped.`);
    expect((await ledgerOf("STR0001")).length).toBe(3);
  });

  it("records a refund the export shows for a payment recorded online, once", async () => {
    const header = fixture("unified_payments.csv").split("\n")[0];
    // The online payment, refunded in Stripe's dashboard since.
    const csv = `${header}\nch_3QxF1b2C3d4E5f6G5a1b2c3d,2026-05-01 12:00:00,19.95,19.95,usd,true,19.95,19.95,usd,,Subscription update,0.88,false,Live,card,Refunded,Payment complete.,0.00,,cus_RcB1c2D3e4F5g6,,pat.three@example.com,,,pi_3QxF1b2C3d4E5f6G5z9y8x7w,,\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({ toRecord: 0, skipped: 1, refunds: 1, refundCents: 1995, problems: 0 });
    expect(preview.body.message).toBe("Ready to record 1 refund ($19.95). 1 already recorded is skipped.");
    expect((await send(csv, true)).status).toBe(201);
    expect((await ledgerOf("STR0003")).at(-1)).toEqual([-1995, "2026-05-01", ONLINE_METHOD, null, "refund", I.refundNote]);
    const again = await send(csv, true);
    expect(again.body.report).toMatchObject({ refunds: 0, skipped: 1 });
    expect((await ledgerOf("STR0003")).length).toBe(2);
  });

  it("skips a payment the webhook recorded under its invoice, found by the charge id its event kept", async () => {
    const view = await server.services.coverage.recordPayment(ONLINE_ACTOR, ids.STR0003, {
      amount: 1995,
      paidOn: "2026-06-01",
      method: ONLINE_METHOD as PaymentInput["method"],
      reference: "in_1QxK1b2C3d4E5f6G0i6j7k8l",
    });
    const payment = view.payments.find((p) => p.reference === "in_1QxK1b2C3d4E5f6G0i6j7k8l")!;
    await server.services.database.db
      .insertInto("stripe_events")
      .values({
        id: "evt_1QxK1b2C3d4E5f6G0e1f2g3h",
        type: "invoice.paid",
        created: 1780300800,
        state: "applied",
        member_id: ids.STR0003,
        payment_id: payment.id,
        invoice_id: "in_1QxK1b2C3d4E5f6G0i6j7k8l",
        charge_id: "ch_3QxK1b2C3d4E5f6G0a1b2c3d",
        payload: "{}",
        received_at: new Date().toISOString(),
      })
      .execute();
    const header = fixture("unified_payments.csv").split("\n")[0];
    // Exported without its payment intent or invoice: only the charge id names it.
    const csv = `${header}\nch_3QxK1b2C3d4E5f6G0a1b2c3d,2026-06-01 12:00:00,19.95,0.00,usd,true,19.95,0.00,usd,,Subscription update,0.88,false,Live,card,Paid,Payment complete.,0.00,,cus_RcB1c2D3e4F5g6,,pat.three@example.com,,,,,\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({ toRecord: 0, skipped: 1, problems: 0 });
    expect(preview.body.report.skippedRows).toEqual([{ line: 2, reference: "ch_3QxK1b2C3d4E5f6G0a1b2c3d" }]);
  });

  it("lists as problems other currencies, unknown members and payments naming no member; records nothing", async () => {
    const before = await ledgerOf("STR0001");
    const preview = await send(fixture("unified_payments_problems.csv"), false);
    expect(preview.status).toBe(200);
    expect(preview.body.report.problemRows).toEqual([
      { line: 2, message: S.currency("eur") },
      { line: 3, message: P.unknownCertificate, certificate: "STR9999" },
      { line: 4, message: S.noMember },
      { line: 5, message: S.unknownReference },
    ]);
    const applied = await send(fixture("unified_payments_problems.csv"), true);
    expect(applied.status).toBe(400);
    expect(applied.body.error).toBe(I.hasProblems(4));
    expect(await ledgerOf("STR0001")).toEqual(before);
  });

  it("lets staff leave out rows that name no member (another currency, no metadata: not dues), listed with why; a row naming a member that is wrong still stops the file", async () => {
    const header = fixture("unified_payments.csv").split("\n")[0];
    const row = (id: string, currency: string, certificate = "", reference = "") =>
      `ch_${id},2026-05-06 12:00:00,25.00,0.00,${currency},true,25.00,0.00,usd,,,0.88,false,Live,card,Paid,,0.00,,,,,,,pi_${id},${certificate},${reference}`;
    const good = `ch_LeaveOutA,2026-05-06 12:00:00,19.95,0.00,usd,true,19.95,0.00,usd,,,0.88,false,Live,card,Paid,,0.00,,,,,,,pi_LeaveOutA,STR0001,`;
    const csv = [header, good, row("LeaveOutB", "eur"), row("LeaveOutC", "usd"), ""].join("\n");
    const before = await ledgerOf("STR0001");

    // Not left out: the file is refused for them, as before, and the preview says they may be.
    let preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({ toRecord: 1, problems: 2, mayLeaveOut: 2, leftOut: 0, leftOutRows: [] });
    expect(preview.body.report.problemRows).toEqual([
      { line: 3, message: S.currency("eur") },
      { line: 4, message: S.noMember },
    ]);
    const refused = await send(csv, true);
    expect(refused.status).toBe(400);
    expect(await ledgerOf("STR0001")).toEqual(before);

    // Left out: listed with their reasons, the rest recorded all or nothing.
    const leaveOut = (apply: boolean, text = csv) =>
      server.request("/api/admin/membership/payments/import", {
        method: "POST",
        cookie: staff.cookie,
        json: { csv: text, apply, leaveOutNotDues: true },
      });
    let res = await leaveOut(false);
    expect(res.status).toBe(200);
    preview = { status: res.status, body: (await res.json()) as PaymentsImportAnswer };
    expect(preview.body.report).toMatchObject({ toRecord: 1, problems: 0, mayLeaveOut: 0, leftOut: 2 });
    expect(preview.body.report.leftOutRows).toEqual([
      { line: 3, reference: "pi_LeaveOutB", reason: S.currency("eur") },
      { line: 4, reference: "pi_LeaveOutC", reason: S.noMember },
    ]);
    expect(preview.body.message).toBe("Ready to record 1 payment ($19.95) for 1 member. 2 rows that name no member are left out.");
    res = await leaveOut(true);
    expect(res.status).toBe(201);
    expect(await ledgerOf("STR0001")).toEqual([...before, [1995, "2026-05-06", "card", "pi_LeaveOutA", null, null]]);
    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "membership.payments_import")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toMatchObject({ leftOut: 2 });

    // A row that names a member and is wrong is no row to leave out: nothing is recorded.
    const named = [header, good.replaceAll("LeaveOutA", "LeaveOutD"), row("LeaveOutE", "eur", "STR0002"), row("LeaveOutF", "eur"), ""].join(
      "\n",
    );
    res = await leaveOut(false, named);
    const body = (await res.json()) as PaymentsImportAnswer;
    expect(body.report).toMatchObject({ problems: 1, leftOut: 1 });
    expect(body.report.problemRows).toEqual([{ line: 3, message: S.currency("eur") }]);
    res = await leaveOut(true, named);
    expect(res.status).toBe(400);
    expect(await ledgerOf("STR0001")).toEqual([...before, [1995, "2026-05-06", "card", "pi_LeaveOutA", null, null]]);
    expect(await ledgerOf("STR0002")).not.toContainEqual(expect.arrayContaining(["pi_LeaveOutE"]));
    // Nor is a row whose id is no Stripe id, member or not.
    const formula = [
      header,
      good.replaceAll("LeaveOutA", "LeaveOutG"),
      `"=cmd|' /C calc'!A0",2026-05-06 12:00:00,25.00,0.00,eur,true,25.00,0.00,usd,,,0.88,false,Live,card,Paid,,0.00,,,,,,,,,`,
      "",
    ].join("\n");
    res = await leaveOut(false, formula);
    expect(((await res.json()) as PaymentsImportAnswer).report).toMatchObject({ problems: 1, leftOut: 0 });
  });

  it("a Membership ID and a payment reference naming different members is a problem, never a guess", async () => {
    const header = fixture("unified_payments.csv").split("\n")[0];
    const csv = `${header}\nch_X,2026-05-06 12:00:00,19.95,0.00,usd,true,19.95,0.00,usd,,,0.88,false,Live,card,Paid,,0.00,,,,,,,pi_X,STR0001,pref_Two2Two2Two2Two2Tw\n`;
    expect((await send(csv, false)).body.report.problemRows).toEqual([
      { line: 2, message: S.twoMembers("STR0001"), certificate: "STR0001" },
    ]);
  });

  it("maps another portal's columns, keeps the mapping for the next file with that header, and audits its save", async () => {
    const file = (ref: string) => `Member No,Txn,Date,Paid,Memo\nMAP0001,${ref},2026-03-07,19.95,dues\n`;
    const asked = await send(file("M-1"), false);
    expect(asked.status).toBe(400);
    expect(asked.body.error).toBe(P.missingColumns(["certificate_number", "amount", "paid_on", "reference"]));
    expect(asked.body.details?.columns).toEqual(["Member No", "Txn", "Date", "Paid", "Memo"]);

    const mapping = { certificate_number: "Member No", amount: "Paid", paid_on: "Date", reference: "Txn" };
    const bad = await send(file("M-1"), false, { ...mapping, amount: "Total" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(P.mappedColumnMissing("Amount", "Total"));

    const mapped = await send(file("M-1"), false, mapping);
    expect(mapped.status).toBe(200);
    expect(mapped.body.report).toMatchObject({ format: { kind: "mapped", mapping, saved: true }, toRecord: 1 });
    const audits = await server.services.database.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("action", "=", "membership.payments_mapping")
      .execute();
    expect(audits.map((a) => [a.action, Number(a.actor_id)])).toEqual([["membership.payments_mapping", staff.userId]]);

    // The next file with the same header is read with it, untold.
    const next = await send(file("M-2"), true);
    expect(next.status).toBe(201);
    expect(next.body.report.format).toEqual({
      kind: "mapped",
      mapping,
      saved: true,
      columns: ["Member No", "Txn", "Date", "Paid", "Memo"],
    });
    expect(await ledgerOf("MAP0001")).toEqual([[1995, "2026-03-07", "card", "M-2", null, null]]);
    // Choosing the same mapping again is no new save.
    await send(file("M-3"), false, mapping);
    expect(
      (await server.services.database.db.selectFrom("audit_log").select("id").where("action", "=", "membership.payments_mapping").execute())
        .length,
    ).toBe(1);
  });
});
