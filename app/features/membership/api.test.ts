import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { ACCOUNT_MESSAGES } from "~/features/account/contract";
import { MEMBERSHIP_MESSAGES as M, type MembershipAnswer } from "./contract";
import { CoverageService } from "./service.server";

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
    expect(r.body.payments[1].refundedBy).toBe(r.body.payments[2].id);
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
    expect(await pay({ paidOn: "2026-02-30" })).toMatchObject({ status: 400, body: { error: M.day("Paid on") } });
    expect(await pay({ paidOn: "2999-01-01" })).toMatchObject({ status: 400, body: { error: M.future("Paid on") } });
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
    expect(partial.body.coverage).toMatchObject({ label: "Awaiting first payment", creditCents: 1495 });
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
    // A reason is optional, and kept with the reinstatement when given.
    r = await call(`${base(id)}/reinstate`, "POST", superAdmin.cookie, { reinstatedOn: "2026-04-01", reason: "Paid again in full" });
    expect(r.body.events.at(-1)).toMatchObject({ kind: "reinstated", on: "2026-04-01", reason: "Paid again in full" });
    expect(r.body.coverage).toMatchObject({ label: "Awaiting first payment", nextDue: { on: "2026-04-01", amountCents: 1995 } });
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
