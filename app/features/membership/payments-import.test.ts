import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/platform/schema";
import { unclosedQuoteMessage } from "~/platform/csv";
import { MEMBERSHIP_MESSAGES as M, type PaymentsImportAnswer } from "./contract";
import { addMonthsKeepingMonthEnd, formatLongDay, latestPaidThrough } from "./coverage";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { PAYMENTS_CSV_MESSAGES as P } from "./payments-csv";
import { LISTED_ROWS, PaymentsImportService, PAYMENTS_IMPORT_MESSAGES as I } from "./payments-import.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("membership: payments import", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  const certificates: string[] = [];
  const ids: number[] = [];
  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = await loginAs(server, "limited_admin", { username: "payments-staff" });
    for (let i = 0; i < 3; i++) {
      const certificate = `PAY${String(i).padStart(4, "0")}`;
      const { userId } = await loginAs(server, "member", { certificate });
      certificates.push(certificate);
      ids.push(userId);
    }
    // The first two have plans; the third none.
    for (const id of ids.slice(0, 2))
      await server.request(`/api/admin/members/${id}/membership/plan`, {
        method: "PUT",
        cookie: staff.cookie,
        json: { billing: "monthly", approvedOn: "2026-01-15" },
      });
  });
  afterAll(() => server.close());

  const send = async (csv: string, apply: boolean) => {
    const res = await server.request("/api/admin/membership/payments/import", {
      method: "POST",
      cookie: staff.cookie,
      json: { csv, apply },
    });
    return { status: res.status, body: (await res.json()) as PaymentsImportAnswer & { error?: string; details?: { problems: unknown } } };
  };
  const ledger = async () =>
    (
      await server.services.database.db
        .selectFrom("membership_payments")
        .select(["user_id", "reference", "amount_cents"])
        .orderBy("id")
        .execute()
    ).map((r) => [Number(r.user_id), r.reference, Number(r.amount_cents)]);

  it("previews, records all at once, and records nothing new from the same file twice", async () => {
    const csv = `certificate_number,amount,paid_on,reference\n${certificates[0]},19.95,2026-01-16,A-1\n${certificates[1]},19.95,01/20/2026,A-2\n${certificates[0].toLowerCase()},39.90,2026-02-16,A-3\n`;
    const preview = await send(csv, false);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      applied: false,
      message: "Ready to record 3 payments ($79.80) for 2 members.",
      report: { toRecord: 3, skipped: 0, problems: 0 },
    });
    // The preview lists the rows it matched, each with its member, for staff to check.
    expect(preview.body.report.matchedRows).toEqual([
      { line: 2, certificate: certificates[0], name: "Pat", amountCents: 1995, paidOn: "2026-01-16", reference: "A-1" },
      { line: 3, certificate: certificates[1], name: "Pat", amountCents: 1995, paidOn: "2026-01-20", reference: "A-2" },
      { line: 4, certificate: certificates[0], name: "Pat", amountCents: 3990, paidOn: "2026-02-16", reference: "A-3" },
    ]);
    expect(await ledger()).toEqual([]);

    const applied = await send(csv, true);
    expect(applied.status).toBe(201);
    expect(applied.body.message).toBe("Recorded 3 payments ($79.80) for 2 members.");
    expect(await ledger()).toEqual([
      [ids[0], "A-1", 1995],
      [ids[1], "A-2", 1995],
      [ids[0], "A-3", 3990],
    ]);
    const member = (await (await server.request(`/api/admin/members/${ids[0]}/membership`, { cookie: staff.cookie })).json()) as {
      coverage: { paidThrough: string };
    };
    expect(member.coverage.paidThrough).toBe("2026-04-30");

    const again = await send(csv, true);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ message: I.nothingNew, report: { toRecord: 0, skipped: 3 } });
    expect(again.body.report.skippedRows).toEqual([
      { line: 2, reference: "A-1" },
      { line: 3, reference: "A-2" },
      { line: 4, reference: "A-3" },
    ]);
    // A file that adds one row to it records just that one.
    const more = await send(`${csv}${certificates[1]},19.95,2026-02-20,A-4\n`, true);
    expect(more.body.message).toBe("Recorded 1 payment ($19.95) for 1 member. 3 already recorded are skipped.");
    expect((await ledger()).length).toBe(4);

    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select(["row_count"])
      .where("action", "=", "membership.payments_import")
      .execute();
    expect(audit.map((a) => Number(a.row_count))).toEqual([3, 1]);
  });

  it("a reference already recorded for another member's payment is a conflict, not a re-import to skip (issue 39 §5.7)", async () => {
    const before = await ledger();
    // were recorded above for the first and second member.
    const csv = `${HEADER}\n${certificates[0]},19.95,2026-01-16,A-1\n${certificates[0]},19.95,2026-01-20,A-2\n${certificates[1]},19.95,2026-07-01,X-NEW\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({
      toRecord: 1,
      skipped: 1,
      skippedRows: [{ line: 2, reference: "A-1" }],
      problems: 1,
      problemRows: [{ line: 3, message: P.referenceOfAnother(certificates[1]), certificate: certificates[0] }],
    });
    expect(P.referenceOfAnother(certificates[1])).toBe(
      `reference is already recorded for another member's payment (certificate number ${certificates[1]}): check the file and that payment`,
    );
    const applied = await send(csv, true);
    expect(applied.status).toBe(400);
    expect(applied.body.error).toBe(I.hasProblems(1));
    expect(await ledger()).toEqual(before);
  });

  it("one bad row, an unknown certificate or a member without a plan imports nothing, and says which lines", async () => {
    const before = await ledger();
    const csv = `certificate_number,amount,paid_on,reference\n${certificates[0]},19.95,2026-03-16,B-1\nNOBODY,19.95,2026-03-16,B-2\n${certificates[2]},19.95,2026-03-16,B-3\n${certificates[1]},abc,2026-03-16,B-4\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({
      toRecord: 1,
      problems: 3,
      problemRows: [
        { line: 3, message: P.unknownCertificate, certificate: "NOBODY" },
        { line: 4, message: P.noPlan, certificate: certificates[2] },
        { line: 5, message: P.amount },
      ],
    });
    // A preview records nothing anyway: it says what stops the file, not that nothing was recorded.
    expect(preview.body.message).toBe(I.previewProblems(3));
    expect(preview.body.message).toBe("3 rows have problems: nothing can be recorded from this file until they are corrected.");
    const applied = await send(csv, true);
    expect(applied.status).toBe(400);
    expect(applied.body.error).toBe(I.hasProblems(3));
    expect(await ledger()).toEqual(before);
    expect((await send("just,a,file\n1,2,3", true)).body.error).toBe(
      P.missingColumns(["certificate_number", "amount", "paid_on", "reference"]),
    );
  });

  it("a quoted field left open in an ignored column refuses the whole file, naming its line, and records nothing (issue 39)", async () => {
    const before = await ledger();
    // The issue's file: the memo of line 2 opens a quote that nothing closes, so lines 3 and 4
    // would be read into that one cell.
    const csv =
      "certificate_number,amount,paid_on,reference,memo\n" +
      `${certificates[0]},19.95,2026-06-01,Q-1,"paid by check\n` +
      `${certificates[1]},19.95,2026-06-01,Q-2,\n` +
      `${certificates[0]},19.95,2026-06-02,Q-3,\n`;
    const preview = await send(csv, false);
    expect(preview.status).toBe(400);
    expect(preview.body.error).toBe(unclosedQuoteMessage(2));
    expect(preview.body.error).toMatch(/^Line 2: a quoted field is not closed/);
    const applied = await send(csv, true);
    expect(applied.status).toBe(400);
    expect(applied.body.error).toBe(unclosedQuoteMessage(2));
    expect(await ledger()).toEqual(before);
  });

  it("refuses the row that would pay a member's coverage more than 10 years ahead, counting the file's earlier rows (issue 39)", async () => {
    const { userId } = await loginAs(server, "member", { certificate: "PAYFAR1" });
    await server.request(`/api/admin/members/${userId}/membership/plan`, {
      method: "PUT",
      cookie: staff.cookie,
      json: { billing: "monthly", approvedOn: "2026-01-15" },
    });
    const before = await ledger();
    const latest = latestPaidThrough(server.services.coverage.today());
    // The issue's case: 21 payments of $100,000. The first already passes the limit.
    const big = Array.from({ length: 21 }, (_, i) => `PAYFAR1,100000.00,2026-06-01,FAR-${i}`).join("\n");
    const issue = await send(`${HEADER}\n${big}\n`, false);
    expect(issue.status).toBe(200);
    expect(issue.body.report.problemRows).toEqual([
      {
        line: 2,
        message: M.prepaidTooFar(formatLongDay(latest), formatLongDay(addMonthsKeepingMonthEnd("2026-06-30", 5012))),
      },
    ]);
    expect((await send(`${HEADER}\n${big}\n`, true)).status).toBe(400);

    // Paid June 1: covered from July 1. Up to the limit in two rows, then a month more in the third.
    let periods = 0;
    while (addMonthsKeepingMonthEnd("2026-06-30", periods + 1) <= latest) periods++;
    const rows = [
      `PAYFAR1,${(((periods - 1) * 1995) / 100).toFixed(2)},2026-06-01,NEAR-1`,
      `${certificates[1]},19.95,2026-06-01,NEAR-OTHER`,
      "PAYFAR1,19.95,2026-06-02,NEAR-2",
      "PAYFAR1,19.95,2026-06-03,NEAR-3",
    ];
    const near = await send(`${HEADER}\n${rows.join("\n")}\n`, false);
    expect(near.body.report).toMatchObject({ problems: 1, toRecord: 4 - 1 });
    expect(near.body.report.problemRows).toEqual([
      {
        line: 5,
        message: M.prepaidTooFar(formatLongDay(latest), formatLongDay(addMonthsKeepingMonthEnd("2026-06-30", periods + 1))),
      },
    ]);
    const applied = await send(`${HEADER}\n${rows.join("\n")}\n`, true);
    expect(applied.status).toBe(400);
    expect(await ledger()).toEqual(before);
    // Without the row that passes it, the file is recorded: paid through the last day it may be.
    const upTo = await send(`${HEADER}\n${rows.slice(0, 3).join("\n")}\n`, true);
    expect(upTo.status).toBe(201);
    const member = (await (await server.request(`/api/admin/members/${userId}/membership`, { cookie: staff.cookie })).json()) as {
      coverage: { paidThrough: string };
    };
    expect(member.coverage.paidThrough).toBe(addMonthsKeepingMonthEnd("2026-06-30", periods));
    expect(member.coverage.paidThrough <= latest).toBe(true);
  });

  it("two staff applying the same file at once record each payment once", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${certificates[i % 2]},1.00,2026-04-01,C-${i}`).join("\n");
    const csv = `certificate_number,amount,paid_on,reference\n${rows}\n`;
    const results = await Promise.all([send(csv, true), send(csv, true), send(csv, true)]);
    expect(results.every((r) => r.status < 500)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expect([I.nothingNew, I.raced]).toContain(r.body.message ?? r.body.error);
    const refs = (await ledger()).map((r) => r[1]).filter((r) => String(r).startsWith("C-"));
    expect(refs).toHaveLength(300);
    expect(new Set(refs).size).toBe(300);
  });

  const HEADER = "certificate_number,amount,paid_on,reference";
  /** More rows than SQLite's statements take (5,000) and than one piece of the file holds. */
  const LARGE = 12_000;
  /** A cent each: 6,000 payments of a period each would pay coverage centuries ahead. */
  const large = (prefix: string) => Array.from({ length: LARGE }, (_, i) => `${certificates[i % 2]},0.01,2026-05-01,${prefix}-${i}`);

  it("applies a large file all at once, and the same file again records nothing new", async () => {
    const before = (await ledger()).length;
    const csv = `${HEADER}\n${large("L").join("\n")}\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({ totalRows: LARGE, toRecord: LARGE, skipped: 0, problems: 0, members: 2 });
    expect((await ledger()).length).toBe(before);

    const applied = await send(csv, true);
    expect(applied.status).toBe(201);
    expect(applied.body.report).toMatchObject({ toRecord: LARGE, totalCents: LARGE });
    const after = await ledger();
    expect(after.length).toBe(before + LARGE);
    expect(after.at(-1)).toEqual([ids[(LARGE - 1) % 2], `L-${LARGE - 1}`, 1]);

    const again = await send(csv, true);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ message: I.nothingNew, report: { toRecord: 0, skipped: LARGE } });
    expect(again.body.report.skippedRows).toHaveLength(LISTED_ROWS);
    expect(again.body.report.skippedRows.at(-1)).toEqual({ line: LISTED_ROWS + 1, reference: `L-${LISTED_ROWS - 1}` });
    expect((await ledger()).length).toBe(before + LARGE);
    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select("row_count")
      .where("action", "=", "membership.payments_import")
      .where("row_count", "=", LARGE)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("one bad row at the end of a large file, or a reference the file repeats, imports nothing", async () => {
    const before = await ledger();
    const rows = large("E");
    const csv = `${HEADER}\n${rows.join("\n")}\n${certificates[0]},19.95,2026-05-01,E-5\nNOBODY,19.95,2026-05-01,E-last\n`;
    const preview = await send(csv, false);
    expect(preview.body.report).toMatchObject({
      totalRows: LARGE + 2,
      toRecord: LARGE,
      problems: 2,
      problemRows: [
        { line: LARGE + 2, message: P.repeated(7) },
        { line: LARGE + 3, message: P.unknownCertificate },
      ],
    });
    const applied = await send(csv, true);
    expect(applied.status).toBe(400);
    expect(applied.body.error).toBe(I.hasProblems(2));
    expect(await ledger()).toEqual(before);
  });

  describe("a file written in several statements", () => {
    /** The service on the test's database, seven rows a statement, with `meanwhile` run just before it writes. */
    const importer = (meanwhile: () => Promise<unknown>) => {
      const db = server.services.database.db;
      const racing = new Proxy(db, {
        get(target, prop) {
          if (prop === "transaction")
            return () => ({
              execute: async (work: (trx: Kysely<Database>) => Promise<unknown>) => {
                await meanwhile();
                return target.transaction().execute(work);
              },
            });
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return new PaymentsImportService(racing, dialect, server.services.audit, "America/New_York", () => new Date(), 7);
    };
    const file = (prefix: string, last: string) =>
      `${HEADER}\n${Array.from({ length: 29 }, (_, i) => `${certificates[0]},19.95,2026-06-01,${prefix}-${i}`).join("\n")}\n${last},19.95,2026-06-01,${prefix}-29\n`;
    const actor = () => ({ id: staff.userId });

    it("records every chunk when nothing changed in between", async () => {
      const before = (await ledger()).length;
      const report = await importer(async () => {}).apply(actor(), file("S", certificates[1]));
      expect(report.toRecord).toBe(30);
      const after = await ledger();
      expect(after.length).toBe(before + 30);
      expect(after.slice(-30).map((r) => r[1])).toEqual(Array.from({ length: 30 }, (_, i) => `S-${i}`));
    });

    it("undoes every chunk when a reference in the last one was recorded since the check", async () => {
      const before = await ledger();
      const apply = importer(() =>
        server.services.database.db
          .insertInto("membership_payments")
          .values({
            user_id: ids[1],
            amount_cents: 1995,
            paid_on: "2026-06-01",
            method: "card",
            reference: "T-29",
            recorded_at: new Date().toISOString(),
          })
          .execute(),
      ).apply(actor(), file("T", certificates[1]));
      await expect(apply).rejects.toMatchObject({ kind: "conflict", message: I.raced });
      const after = await ledger();
      expect(after.length).toBe(before.length + 1);
      expect(after.filter((r) => String(r[1]).startsWith("T-"))).toEqual([[ids[1], "T-29", 1995]]);
    });

    it("undoes every chunk when a member in the last one was deleted since the check", async () => {
      const doomed = await loginAs(server, "member", { certificate: "PAYGONE" });
      await server.request(`/api/admin/members/${doomed.userId}/membership/plan`, {
        method: "PUT",
        cookie: staff.cookie,
        json: { billing: "monthly", approvedOn: "2026-01-15" },
      });
      const before = await ledger();
      const apply = importer(() => server.services.database.db.deleteFrom("users").where("id", "=", doomed.userId).execute()).apply(
        actor(),
        file("U", "PAYGONE"),
      );
      await expect(apply).rejects.toMatchObject({ kind: "conflict", message: I.raced });
      expect(await ledger()).toEqual(before);
    });
  });
});
