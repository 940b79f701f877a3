import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { ACCOUNT_MESSAGES } from "~/features/account/contract";
import { MEMBERSHIP_MESSAGES as M, type MembershipAnswer } from "./contract";
import { CoverageService } from "./service.server";
import { addDays, addMonthsKeepingMonthEnd, formatLongDay, latestPaidThrough } from "./coverage";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("membership: plans, payments, refunds, cancellation", (dialect) => {
  let server: TestServer;
  let limited: { cookie: string; userId: number };
  let superAdmin: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    limited = await loginAs(server, "limited_admin", { username: "plans-limited" });
    superAdmin = await loginAs(server, "super_admin", { username: "plans-super" });
  });
  afterAll(() => server.close());

  const call = async (path: string, method: string, cookie: string, json?: unknown) => {
    const res = await server.request(path, { method, cookie, ...(json === undefined ? {} : { json }) });
    return { status: res.status, body: (await res.json()) as MembershipAnswer & { error?: string; details?: Record<string, string> } };
  };
  const base = (id: number) => `/api/admin/members/${id}/membership`;
  const plan = {
    billing: "monthly",
    coverageAmount: "250000",
    beneficiaryName: "Alex Reyes",
    beneficiaryRelationship: "child",
    approvedOn: "2026-01-15",
  };
  const newMember = async () => (await loginAs(server, "member")).userId;

  it("follows a member from approval through payments and a refund, every step in the audit log", async () => {
    const id = await newMember();
    let r = await call(base(id), "GET", limited.cookie);
    expect(r.status).toBe(200);
    expect(r.body.coverage.label).toBe("No plan on record");

    r = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "19.95",
      paidOn: "2026-01-16",
      method: "card",
      reference: null,
    });
    expect(r).toMatchObject({ status: 400, body: { error: M.noPlan } });

    r = await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    expect(r.status).toBe(200);
    expect(r.body.plan).toMatchObject({ billing: "monthly", coverageCents: 25_000_000, approvedOn: "2026-01-15" });
    expect(r.body.coverage).toMatchObject({ label: "Awaiting first payment", nextDue: { on: "2026-01-15", amountCents: 1995 } });

    // Paid on the 16th: effective February 1, paid through February 28 (long past: lapsed).
    r = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "$19.95",
      paidOn: "2026-01-16",
      method: "card",
      reference: "PP-1001",
    });
    expect(r.status).toBe(201);
    expect(r.body.coverage).toMatchObject({ effectiveOn: "2026-02-01", paidThrough: "2026-02-28" });
    // Ten years ahead: covered for years whatever day the suite runs.
    r = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "2394.00",
      paidOn: "2026-01-20",
      method: "check",
      reference: "CHK-77",
    });
    expect(r.status).toBe(201);
    expect(r.body.coverage).toMatchObject({ label: "Covered", paidThrough: "2036-02-29", creditCents: 0 });
    expect(r.body.payments.map((p) => [p.amountCents, p.method, p.reference])).toEqual([
      [1995, "card", "PP-1001"],
      [239400, "check", "CHK-77"],
    ]);

    // The check bounced: refunded whole, never edited; the history keeps both rows.
    const check = r.body.payments[1];
    r = await call(`/api/admin/membership/payments/${check.id}/refund`, "POST", limited.cookie, {
      amount: "",
      refundedOn: "2026-01-25",
      reason: "Check returned unpaid",
    });
    expect(r.status).toBe(201);
    expect(r.body.payments.map((p) => [p.amountCents, p.refundOf])).toEqual([
      [1995, null],
      [239400, null],
      [-239400, check.id],
    ]);
    expect(r.body.payments[1]).toMatchObject({ refundedCents: 239400, carriedOutCents: 0, carriedWith: null });
    expect(r.body.payments[2]).toMatchObject({ refundOf: check.id, refundedCents: 0 });
    expect(r.body.coverage.paidThrough).toBe("2026-02-28");

    const audit = await server.request("/api/admin/audit?pageSize=100", { cookie: superAdmin.cookie });
    const entries = ((await audit.json()) as { entries: Array<{ action: string; target_id: number | null }> }).entries.filter(
      (e) => e.target_id === id,
    );
    expect(entries.map((e) => e.action).reverse()).toEqual([
      "membership.plan",
      "membership.payment",
      "membership.payment",
      "membership.refund",
    ]);
  });

  it("refuses what would spoil the ledger, with a message for each", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    const pay = (json: Record<string, unknown>) =>
      call(`${base(id)}/payments`, "POST", limited.cookie, {
        amount: "19.95",
        paidOn: "2026-02-01",
        method: "card",
        reference: null,
        ...json,
      });
    expect(await pay({ amount: "12.345" })).toMatchObject({ status: 400, body: { error: M.amount } });
    expect(await pay({ amount: "0" })).toMatchObject({ status: 400, body: { error: M.amountRange } });
    expect(await pay({ amount: "100000.01" })).toMatchObject({ status: 400, body: { error: M.amountRange } });
    // Dollars, only too many: the range, not the format (issue 39 §5.9).
    for (const amount of ["99999999999", "$99,999,999,999.99", "1000000000"])
      expect(await pay({ amount }), amount).toMatchObject({
        status: 400,
        body: { error: M.amountRange, details: { amount: M.amountRange } },
      });
    expect(await pay({ amount: "99999999999.999" })).toMatchObject({ status: 400, body: { error: M.amount } });
    expect(await pay({ paidOn: "2026-02-30" })).toMatchObject({ status: 400, body: { error: M.day("Paid on") } });
    // A day from 1990 to tomorrow, on the association's calendar (issue 39: 0001-01-01 was taken).
    const today = server.services.coverage.today();
    const paidOnRange = `Paid on must be a day from January 1, 1990 to ${formatLongDay(addDays(today, 1))}`;
    for (const paidOn of ["2999-01-01", "0001-01-01", "1989-12-31", addDays(today, 2)])
      expect(await pay({ paidOn }), paidOn).toMatchObject({ status: 400, body: { error: paidOnRange, details: { paidOn: paidOnRange } } });
    // A plan approved from 1990 to a year ahead (issue 39: 2999-01-01 was taken).
    const approvedOnRange = `Approved on must be a day from January 1, 1990 to ${formatLongDay(addMonthsKeepingMonthEnd(today, 12))}`;
    for (const approvedOn of ["2999-01-01", "0001-01-01", "1989-12-31", addDays(addMonthsKeepingMonthEnd(today, 12), 1)])
      expect(await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn }), approvedOn).toMatchObject({
        status: 400,
        body: { error: approvedOnRange, details: { approvedOn: approvedOnRange } },
      });
    expect(
      (await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn: addMonthsKeepingMonthEnd(today, 12) })).status,
    ).toBe(200);
    expect((await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn: "1990-01-01" })).status).toBe(200);
    expect(
      await call(`/api/admin/members/${id}/membership/cancel`, "POST", superAdmin.cookie, { cancelledOn: "0001-01-01", reason: "x" }),
    ).toMatchObject({ status: 400, body: { error: "Cancelled on must be a day from January 1, 1990 on" } });
    // The service holds the same ranges for any caller.
    await expect(
      server.services.coverage.recordPayment({ id: limited.userId }, id, {
        amount: 1995,
        paidOn: "0001-01-01",
        method: "card",
        reference: null,
      }),
    ).rejects.toThrow(paidOnRange);
    expect(await pay({ method: "bitcoin" })).toMatchObject({ status: 400, body: { error: M.method } });
    expect(await pay({ reference: "a\nb" })).toMatchObject({ status: 400, body: { error: M.reference } });
    expect(await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, billing: "weekly" })).toMatchObject({
      status: 400,
      body: { error: M.billing },
    });
    // Up to $10,000,000 of coverage, kept whole on both databases; a cent more is refused, not a 500.
    expect(await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, coverageAmount: "10,000,000.01" })).toMatchObject({
      status: 400,
      body: { error: M.coverage },
    });
    expect(await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, coverageAmount: "10000000" })).toMatchObject({
      status: 200,
      body: { plan: { coverageCents: 1_000_000_000 } },
    });
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);

    const first = await pay({ reference: "DUP-1" });
    expect(first.status).toBe(201);
    // The refusal names its field, so the form shows it by the Reference.
    expect(await pay({ reference: "DUP-1" })).toMatchObject({
      status: 409,
      body: { error: M.referenceTaken, details: { reference: M.referenceTaken } },
    });
    // The refused payment took nothing with it (PostgreSQL's aborted transaction rolled back whole).
    const paymentId = first.body.payments[0].id;
    const refund = (json: Record<string, unknown>, id = paymentId) =>
      call(`/api/admin/membership/payments/${id}/refund`, "POST", limited.cookie, {
        amount: "",
        refundedOn: "2026-02-02",
        reason: "Duplicate",
        ...json,
      });
    expect(await refund({ amount: "20.00" })).toMatchObject({ status: 400, body: { error: M.refundTooMuch } });
    expect(await refund({ reason: "" })).toMatchObject({ status: 400, body: { error: M.reason } });
    expect(await refund({ refundedOn: "2026-01-31" })).toMatchObject({
      status: 400,
      body: { error: M.refundBeforePayment, details: { refundedOn: M.refundBeforePayment } },
    });
    const partial = await refund({ amount: "5.00" });
    expect(partial.status).toBe(201);
    // Less than a month left: no coverage, but a member who paid is not awaiting a first payment (issue 48).
    expect(partial.body.coverage).toMatchObject({ label: "Lapsed", paidThrough: null, creditCents: 1495 });
    // What is left of it, and no more, can be refunded too.
    expect(await refund({ amount: "14.96" })).toMatchObject({
      status: 400,
      body: { error: M.refundMoreThanLeft("$14.95"), details: { amount: M.refundMoreThanLeft("$14.95") } },
    });
    expect((await refund({})).body.payments.map((p) => p.amountCents)).toEqual([1995, -500, -1495]);
    expect(await refund({})).toMatchObject({ status: 409, body: { error: M.alreadyRefunded } });
    expect(await refund({}, partial.body.payments[1].id)).toMatchObject({ status: 400, body: { error: M.refundOfRefund } });
    expect(await refund({}, 999_999)).toMatchObject({ status: 404, body: { error: M.paymentNotFound } });

    expect(await call(`${base(999_999)}/plan`, "PUT", limited.cookie, plan)).toMatchObject({
      status: 404,
      body: { error: M.memberNotFound },
    });
    // A staff account is no member.
    expect(await call(base(limited.userId), "GET", superAdmin.cookie)).toMatchObject({ status: 404 });
  });

  it("pays coverage at most 10 years ahead: the payment that would pass it is refused, saying so; 21 of $100,000 never run the dates past 9999 (issue 39)", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    const pay = (amount: string, reference: string | null = null) =>
      call(`${base(id)}/payments`, "POST", limited.cookie, { amount, paidOn: "2026-02-01", method: "check", reference });
    const today = server.services.coverage.today();
    const latest = latestPaidThrough(today);
    expect(latest).toBe(addMonthsKeepingMonthEnd(today, 120));
    // Paid on February 1 after approval on January 15: covered from March 1, a month a period.
    let periods = 0;
    while (addMonthsKeepingMonthEnd("2026-02-28", periods + 1) <= latest) periods++;
    const through = addMonthsKeepingMonthEnd("2026-02-28", periods);

    // The case: 21 payments of $100,000 on a monthly plan. Each is refused; nothing is recorded.
    for (let i = 0; i < 21; i++) {
      const refused = await pay("100000", `BIG-${i}`);
      const message = M.prepaidTooFar(formatLongDay(latest), formatLongDay(addMonthsKeepingMonthEnd("2026-02-28", 5012)));
      expect(refused).toMatchObject({ status: 400, body: { error: message, details: { amount: message } } });
      expect(message).toMatch(
        /^Coverage can be paid at most 10 years ahead, through [A-Z][a-z]+ \d{1,2}, \d{4}: this payment would pay it through /,
      );
    }
    // Up to the limit is taken, in one payment; a cent of a period more is not.
    const atLimit = await pay(((periods * 1995) / 100).toFixed(2));
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.coverage).toMatchObject({ paidThrough: through, label: "Covered" });
    const over = await pay("19.95");
    const overMessage = M.prepaidTooFar(formatLongDay(latest), formatLongDay(addMonthsKeepingMonthEnd(through, 1)));
    expect(over).toMatchObject({ status: 400, body: { error: overMessage } });
    // Credit short of a period moves no date: it is taken.
    expect((await pay("19.94")).status).toBe(201);
    const view = await call(base(id), "GET", limited.cookie);
    expect(view.body.coverage).toMatchObject({ paidThrough: through, creditCents: 1994, label: "Covered" });
    expect(view.body.payments).toHaveLength(2);
  });

  it("concurrent refunds of one payment and payments of one reference: one each succeeds, none fails badly", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    const payments = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(`${base(id)}/payments`, "POST", limited.cookie, { amount: "19.95", paidOn: "2026-02-01", method: "ach", reference: "RACE-1" }),
      ),
    );
    expect(payments.map((p) => p.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const paymentId = payments.find((p) => p.status === 201)!.body.payments[0].id;
    const refunds = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(`/api/admin/membership/payments/${paymentId}/refund`, "POST", limited.cookie, { refundedOn: "2026-02-02", reason: "Race" }),
      ),
    );
    expect(refunds.map((p) => p.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const view = await call(base(id), "GET", limited.cookie);
    expect(view.body.payments.map((p) => p.amountCents)).toEqual([1995, -1995]);
  });

  it("a payment is refunded in parts: each shown against it, the rest refundable, the coverage counting the net", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn: "2026-02-10" });
    const paid = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "239.40",
      paidOn: "2026-02-12",
      method: "card",
      reference: "PART-1",
    });
    const paymentId = paid.body.payments[0].id;
    expect(paid.body.coverage).toMatchObject({ effectiveOn: "2026-03-01", paidThrough: "2027-02-28" });
    const refund = (amount: string, refundedOn = "2026-02-20") =>
      call(`/api/admin/membership/payments/${paymentId}/refund`, "POST", limited.cookie, { amount, refundedOn, reason: "Part" });

    let r = await refund("19.95");
    expect(r.status).toBe(201);
    expect(r.body.payments[0]).toMatchObject({ amountCents: 23940, refundedCents: 1995 });
    // Eleven months paid: through January 31, 2027.
    expect(r.body.coverage).toMatchObject({ paidCents: 21945, paidThrough: "2027-01-31" });
    r = await refund("100.00", "2026-03-05");
    expect(r.body.payments.map((p) => [p.amountCents, p.refundOf])).toEqual([
      [23940, null],
      [-1995, paymentId],
      [-10000, paymentId],
    ]);
    expect(r.body.payments[0].refundedCents).toBe(11995);
    expect(r.body.coverage).toMatchObject({ paidCents: 11945, paidThrough: "2026-07-31", creditCents: 1970 });
    expect(await refund("119.46")).toMatchObject({ status: 400, body: { error: M.refundMoreThanLeft("$119.45") } });
    expect((await refund("119.45")).body.payments[0].refundedCents).toBe(23940);
    expect(await refund("0.01")).toMatchObject({ status: 409, body: { error: M.alreadyRefunded } });

    // Each refund is in the audit log with what it left.
    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "membership.refund")
      .where("target_id", "=", id)
      .orderBy("id")
      .execute();
    expect(audit.map((a) => JSON.parse(a.details!) as { amountCents: number; leftCents: number })).toEqual([
      expect.objectContaining({ paymentId, amountCents: 1995, leftCents: 21945 }),
      expect.objectContaining({ paymentId, amountCents: 10000, leftCents: 11945 }),
      expect.objectContaining({ paymentId, amountCents: 11945, leftCents: 0 }),
    ]);
  });

  it("concurrent partial refunds of one payment never add up to more than it", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    const paid = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "239.40",
      paidOn: "2026-02-12",
      method: "card",
      reference: null,
    });
    const paymentId = paid.body.payments[0].id;
    // Eight staff refund $50.00 each at once: four fit in $239.40.
    const refunds = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(`/api/admin/membership/payments/${paymentId}/refund`, "POST", limited.cookie, {
          amount: "50.00",
          refundedOn: "2026-02-13",
          reason: "Race",
        }),
      ),
    );
    expect(refunds.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 400, 400, 400, 400]);
    expect(refunds.filter((r) => r.status === 400).map((r) => r.body.error)).toEqual(Array(4).fill(M.refundMoreThanLeft("$39.40")));
    const view = await call(base(id), "GET", limited.cookie);
    expect(view.body.payments.map((p) => p.amountCents)).toEqual([23940, -5000, -5000, -5000, -5000]);
    expect(view.body.payments[0].refundedCents).toBe(20000);
  });

  it("only a super_admin cancels and reinstates; a reinstated term starts by the same rule", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "2394.00",
      paidOn: "2026-01-16",
      method: "card",
      reference: null,
    });
    const cancel = { cancelledOn: "2026-03-10", reason: "Moved away" };
    expect((await call(`${base(id)}/cancel`, "POST", limited.cookie, cancel)).status).toBe(403);
    let r = await call(`${base(id)}/cancel`, "POST", superAdmin.cookie, cancel);
    expect(r.status).toBe(200);
    expect(r.body.coverage).toMatchObject({ label: "Cancelled", nextDue: null });
    expect(await call(`${base(id)}/cancel`, "POST", superAdmin.cookie, cancel)).toMatchObject({
      status: 409,
      body: { error: M.alreadyCancelled },
    });

    expect((await call(`${base(id)}/reinstate`, "POST", limited.cookie, { reinstatedOn: "2026-04-01" })).status).toBe(403);
    expect(await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-03-01" })).toMatchObject({
      status: 400,
      body: { error: M.beforeCancellation },
    });
    expect(
      await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-04-01", reason: "two\nlines" }),
    ).toMatchObject({ status: 400, body: { details: { reason: M.text("Reason", 500) } } });
    // $2,394.00 paid; February and March began before the cancellation: $2,354.10 is left, and
    // staff say what becomes of it.
    const unchosen = M.earlierPayments("$2,354.10");
    expect(await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-04-01" })).toMatchObject({
      status: 400,
      body: { error: unchosen, details: { earlierPayments: unchosen } },
    });
    expect(
      await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-04-01", earlierPayments: "keep" }),
    ).toMatchObject({ status: 400, body: { details: { earlierPayments: "Choose carry or refund" } } });
    // A reason is optional, and kept with the reinstatement when given.
    r = await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, {
      reinstatedOn: "2026-04-01",
      reason: "Paid again in full",
      earlierPayments: "refund",
    });
    expect(r.body.events.at(-1)).toMatchObject({ kind: "reinstated", on: "2026-04-01", reason: "Paid again in full" });
    expect(r.body.coverage).toMatchObject({ label: "Awaiting first payment", nextDue: { on: "2026-04-01", amountCents: 1995 } });
    // Refunded from the earlier payment, which keeps the two months it gave.
    expect(r.body.payments.map((p) => [p.amountCents, p.paidOn, p.refundOf, p.carriedWith])).toEqual([
      [239400, "2026-01-16", null, null],
      [-235410, "2026-04-01", r.body.payments[0].id, null],
    ]);
    expect(r.body.coverage.earlierTerms).toEqual([
      { effectiveOn: "2026-02-01", paidThrough: "2026-03-31", graceEndsOn: "2026-04-30", cancelledOn: "2026-03-10" },
    ]);
    expect(await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-04-01" })).toMatchObject({
      status: 409,
      body: { error: M.notCancelled },
    });
    r = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "19.95",
      paidOn: "2026-04-02",
      method: "card",
      reference: null,
    });
    expect(r.body.coverage).toMatchObject({ effectiveOn: "2026-05-01", paidThrough: "2026-05-31" });
    expect(r.body.events.map((e) => e.kind)).toEqual(["cancelled", "reinstated"]);
  });

  it("cancelled and reinstated the same day: the money left is carried into the new term, by the same rule, and audited", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn: "2026-02-10" });
    const paid = await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "239.40",
      paidOn: "2026-02-12",
      method: "card",
      reference: "CARRY-1",
    });
    const paymentId = paid.body.payments[0].id;
    await call(`/api/admin/membership/payments/${paymentId}/refund`, "POST", limited.cookie, {
      amount: "19.95",
      refundedOn: "2026-02-20",
      reason: "Goodwill",
    });
    await call(`${base(id)}/cancel`, "POST", superAdmin.cookie, { cancelledOn: "2026-06-10", reason: "By mistake" });
    // $219.45 net; March to June began before the cancellation: $139.65 is left.
    expect(await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-06-10" })).toMatchObject({
      status: 400,
      body: { details: { earlierPayments: M.earlierPayments("$139.65") } },
    });
    const r = await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-06-10", earlierPayments: "carry" });
    expect(r.status).toBe(200);
    const event = r.body.events.at(-1)!;
    expect(event).toMatchObject({ kind: "reinstated", on: "2026-06-10" });
    expect(r.body.payments.map((p) => [p.amountCents, p.paidOn, p.refundOf, p.carriedWith])).toEqual([
      [23940, "2026-02-12", null, null],
      [-1995, "2026-02-20", paymentId, null],
      [-13965, "2026-06-10", paymentId, event.id],
      [13965, "2026-06-10", null, event.id],
    ]);
    expect(r.body.payments[0]).toMatchObject({ refundedCents: 1995, carriedOutCents: 13965 });
    // Seven months from July 1: the rule, from the reinstatement day (covered today, in November).
    expect(r.body.coverage).toMatchObject({
      label: "Covered",
      effectiveOn: "2026-07-01",
      paidThrough: "2027-01-31",
      paidCents: 13965,
      reinstatedOn: "2026-06-10",
      earlierTerms: [{ effectiveOn: "2026-03-01", paidThrough: "2026-06-30", graceEndsOn: "2026-07-30", cancelledOn: "2026-06-10" }],
    });
    // What the earlier term used stays refundable from the payment; the carried money is refunded from the new term's entry.
    expect(
      await call(`/api/admin/membership/payments/${paymentId}/refund`, "POST", limited.cookie, {
        amount: "79.81",
        refundedOn: "2026-06-11",
        reason: "x",
      }),
    ).toMatchObject({ status: 400, body: { error: M.refundMoreThanLeft("$79.80") } });
    const audit = await server.services.database.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "membership.reinstate")
      .where("target_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toEqual({
      reinstatedOn: "2026-06-10",
      earlierPayments: "carry",
      amountCents: 13965,
      fromPayments: [paymentId],
    });
  });

  it("a member reads their own membership, without staff's notes; others' and staff's are not theirs", async () => {
    const member = await loginAs(server, "member");
    const other = await loginAs(server, "member");
    await call(`${base(member.userId)}/plan`, "PUT", limited.cookie, plan);
    const paid = await call(`${base(member.userId)}/payments`, "POST", limited.cookie, {
      amount: "19.95",
      paidOn: "2026-01-16",
      method: "card",
      reference: "MINE-1",
    });
    await call(`/api/admin/membership/payments/${paid.body.payments[0].id}/refund`, "POST", limited.cookie, {
      amount: "1.00",
      refundedOn: "2026-01-17",
      reason: "Internal: goodwill for a rude call",
    });
    await call(`${base(member.userId)}/cancel`, "POST", superAdmin.cookie, {
      cancelledOn: "2026-02-10",
      reason: "Internal: fraud suspicion",
    });

    const mine = await server.request("/api/account/membership", { cookie: member.cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toContain("no-store");
    const text = await mine.text();
    expect(text).not.toContain("Internal");
    expect(text).not.toContain("Alex Reyes");
    const body = JSON.parse(text) as MembershipAnswer;
    expect(body.memberId).toBe(member.userId);
    expect(body.coverage.label).toBe("Cancelled");
    expect(body.payments.map((p) => p.amountCents)).toEqual([1995, -100]);

    const theirs = (await (await server.request("/api/account/membership", { cookie: other.cookie })).json()) as MembershipAnswer;
    expect(theirs).toMatchObject({ memberId: other.userId, plan: null, payments: [] });
    const asStaff = await server.request("/api/account/membership", { cookie: limited.cookie });
    expect(asStaff.status).toBe(403);
    expect(((await asStaff.json()) as { error: string }).error).toBe(ACCOUNT_MESSAGES.membersOnly);
    expect((await server.request("/api/account/membership")).status).toBe(401);
  });

  it("a deleted member takes their plan and ledger with them", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, plan);
    await call(`${base(id)}/payments`, "POST", limited.cookie, {
      amount: "19.95",
      paidOn: "2026-01-16",
      method: "card",
      reference: "GONE-1",
    });
    expect((await server.request(`/api/admin/members/${id}`, { method: "DELETE", cookie: limited.cookie })).status).toBe(200);
    const { db } = server.services.database;
    expect(await db.selectFrom("membership_payments").select("id").where("user_id", "=", id).execute()).toEqual([]);
    expect(await db.selectFrom("membership_plans").select("user_id").where("user_id", "=", id).execute()).toEqual([]);
  });

  it("reckons today on the association's calendar, not the server's", async () => {
    const id = await newMember();
    await call(`${base(id)}/plan`, "PUT", limited.cookie, { ...plan, approvedOn: "2026-11-20" });
    await call(`${base(id)}/payments`, "POST", limited.cookie, { amount: "19.95", paidOn: "2026-11-20", method: "card", reference: null });
    const { db, dialect: d } = server.services.database;
    // 03:00 UTC on December 1 is still November 30 in New York: the coverage has not begun.
    const at = (iso: string, zone = "America/New_York") => new CoverageService(db, d, server.services.audit, zone, () => new Date(iso));
    expect((await at("2026-12-01T03:00:00Z").view(id)).coverage.label).toBe("Starts December 1, 2026");
    expect((await at("2026-12-01T03:00:00Z", "UTC").view(id)).coverage.label).toBe("Covered");
    expect((await at("2026-12-01T05:00:00Z").view(id)).coverage.label).toBe("Covered");
    expect((await at("2027-01-01T04:59:00Z").view(id)).coverage.label).toBe("Covered");
    expect((await at("2027-01-01T05:00:00Z").view(id)).coverage.label).toBe("Past due");
  });
});
