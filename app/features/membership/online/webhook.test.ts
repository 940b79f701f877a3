import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import {
  charge,
  checkoutSession,
  event,
  invoice,
  newId,
  signed,
  signedText,
  STRIPE_TEST_ENV,
  subscription,
  TEST_WEBHOOK_SECRET,
} from "../../../../tests/support/stripe-events";
import { ONLINE_MESSAGES as O, type OnlineAccountAnswer, type UnmatchedPaymentsAnswer } from "./contract";
import { FAILED_WITHOUT_REASON } from "./events";
import { MEMBERSHIP_MESSAGES } from "../contract";
import { addDays, formatLongDay, todayIn } from "../coverage";
import { ReminderOutbox } from "../reminder-outbox.server";
import { reminderMail } from "../reminders";
import { decodeBody, startSmtp } from "../../../../tests/support/smtp";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const WEBHOOK = "/api/payments/stripe/webhook";

describeEachDatabase("online payments: the provider's signed events", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string; userId: number };
  let superAdmin: { cookie: string; userId: number };
  beforeAll(async () => {
    server = await startTestServer(dialect, STRIPE_TEST_ENV);
    staff = await loginAs(server, "limited_admin");
    superAdmin = await loginAs(server, "super_admin");
  });
  afterAll(() => server.close());

  const post = (body: unknown, opts: { secret?: string; timestamp?: number; header?: string | null; payload?: string } = {}) => {
    const { payload, header } = signed(body, opts);
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const sig = opts.header === undefined ? header : opts.header;
    if (sig !== null) headers["Stripe-Signature"] = sig;
    return server.request(WEBHOOK, { method: "POST", body: opts.payload ?? payload, headers });
  };
  const deliver = async (body: unknown) => {
    const res = await post(body);
    expect(res.status).toBe(200);
    return (await res.json()) as { received: true; state: string; duplicate: boolean };
  };
  /** A member with a plan approved today and their payment reference. */
  const member = async (billing: "monthly" | "annual" = "monthly") => {
    const { userId, cookie } = await loginAs(server, "member");
    await server.services.coverage.setPlan({ id: staff.userId }, userId, {
      billing,
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: server.services.coverage.today(),
    });
    return { userId, cookie, reference: await server.services.online.paymentReference(userId) };
  };
  const ledger = (userId: number) => server.services.coverage.view(userId);
  const stored = (id: string) =>
    server.services.database.db.selectFrom("stripe_events").selectAll().where("id", "=", id).executeTakeFirst();
  const eventCount = async () =>
    Number(
      (
        await server.services.database.db
          .selectFrom("stripe_events")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("signatures", () => {
    it("refuses a missing, wrong, stale or tampered signature with 400, storing nothing", async () => {
      const m = await member();
      const body = event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995 }));
      const before = await eventCount();
      const cases = [
        { header: null },
        { secret: "whsec_someoneelse0000000000000000" },
        { timestamp: Math.floor(Date.now() / 1000) - 301 },
        { payload: JSON.stringify({ ...body, id: "evt_forged" }) },
        { header: "t=1,v1=deadbeef" },
      ];
      for (const c of cases) {
        const res = await post(body, c);
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { error: string };
        expect([O.noSignature, O.badSignature]).toContain(answer.error);
      }
      expect(await eventCount()).toBe(before);
      expect((await ledger(m.userId)).payments).toEqual([]);
      // The library's own tolerance: a signature made 4 minutes ago still verifies.
      expect((await post(body, { timestamp: Math.floor(Date.now() / 1000) - 240 })).status).toBe(200);
    });

    it("refuses a correctly signed body that is no event (null, 0, [], a string, no id or type) with 400 'Not an event', storing nothing", async () => {
      const before = await eventCount();
      for (const body of [
        null,
        0,
        [],
        "evt_1",
        true,
        {},
        { id: "evt_x" },
        { type: "charge.refunded" },
        { id: "", type: "x" },
        [event("x", {})],
      ]) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, error: O.notAnEvent });
      }
      expect(await eventCount()).toBe(before);
    });

    it("refuses a correctly signed body that is not JSON with 400 and its own message, not as a signature failure", async () => {
      const before = await eventCount();
      for (const payload of ["not json", "{", '{"id":"evt_1",', "\u00ff"]) {
        const { header } = signedText(payload);
        const res = await server.request(WEBHOOK, {
          method: "POST",
          body: payload,
          headers: { "Content-Type": "application/json", "Stripe-Signature": header },
        });
        expect(res.status, payload).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, error: O.notJson });
      }
      expect(await eventCount()).toBe(before);
    });

    it("acknowledges an event type the site does not act on, and ignores it", async () => {
      const body = event("customer.created", { id: newId("cus"), object: "customer" });
      expect(await deliver(body)).toMatchObject({ state: "ignored", duplicate: false });
      expect(await deliver(body)).toMatchObject({ state: "ignored", duplicate: true });
    });
  });

  describe("payments", () => {
    it("checkout.session.completed (payment mode) records the payment like any other, by its payment intent", async () => {
      const m = await member("annual");
      const session = checkoutSession({ clientReference: m.reference, amount: 9900 });
      const body = event("checkout.session.completed", session);
      expect(await deliver(body)).toMatchObject({ state: "applied", duplicate: false });
      const view = await ledger(m.userId);
      expect(view.payments.map((p) => [p.amountCents, p.method, p.reference])).toEqual([[9900, "online", session.payment_intent]]);
      expect(view.coverage.state.kind).toBe("starts");
      expect(await stored(body.id)).toMatchObject({ state: "applied", member_id: m.userId, payment_intent: session.payment_intent });
      // The payments import of the provider's file skips it by its reference.
      const csv = `certificate_number,amount,paid_on,reference\n${await certificateOf(m.userId)},99.00,${server.services.coverage.today()},${session.payment_intent}\n`;
      const preview = await server.services.paymentsImport.preview(csv);
      expect(preview).toMatchObject({ toRecord: 0, skipped: 1 });
    });

    it("checkout.session.completed (subscription mode) keeps the ids, turns autopay on, and its first invoice is not counted twice", async () => {
      const m = await member("monthly");
      const sub = newId("sub");
      const session = checkoutSession({ clientReference: m.reference, amount: 1995, mode: "subscription", subscription: sub });
      await deliver(event("checkout.session.completed", session));
      const first = invoice({ id: session.invoice!, amount: 1995, subscription: sub, billingReason: "subscription_create" });
      expect(await deliver(event("invoice.paid", first))).toMatchObject({ state: "applied" });
      let view = await ledger(m.userId);
      expect(view.payments.map((p) => [p.amountCents, p.reference])).toEqual([[1995, session.invoice]]);
      const online = await server.services.database.db
        .selectFrom("membership_online")
        .selectAll()
        .where("user_id", "=", m.userId)
        .executeTakeFirstOrThrow();
      expect(online).toMatchObject({ subscription_id: sub, customer_id: session.customer, autopay: "on", autopay_billing: "monthly" });

      // A renewal: invoice.paid names the subscription; recorded by its payment intent, the next charge shown.
      const periodEnd = Math.floor(Date.now() / 1000) + 40 * 86_400;
      const renewal = invoice({ amount: 1995, subscription: sub, periodEnd });
      await deliver(event("invoice.paid", renewal));
      view = await ledger(m.userId);
      expect(view.payments.map((p) => [p.amountCents, p.reference])).toEqual([
        [1995, session.invoice],
        [1995, renewal.payments.data[0].payment.payment_intent],
      ]);
      const account = await accountOnline(m.cookie);
      expect(account.autopay).toEqual({
        state: "on",
        billing: "monthly",
        nextChargeOn: todayIn(server.config.TIME_ZONE, new Date(periodEnd * 1000)),
        reason: null,
      });
      expect(account.customerPortalUrl).toBe(STRIPE_TEST_ENV.STRIPE_CUSTOMER_PORTAL_URL);
    });

    it("records one payment when the same event arrives 20 times at once, and answers 200 to each", async () => {
      const m = await member();
      const body = event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995 }));
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(body)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const bodies = (await Promise.all(answers.map((a) => a.json()))) as Array<{ duplicate: boolean }>;
      expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
      expect((await ledger(m.userId)).payments).toHaveLength(1);
      const receipts = await server.services.database.db
        .selectFrom("audit_log")
        .select("id")
        .where("action", "=", "membership.payment")
        .where("target_id", "=", m.userId)
        .execute();
      expect(receipts).toHaveLength(1);
    });

    it("records one payment when the same event reaches two instances 10 times each at once", async () => {
      const sibling = await startSiblingServer(server);
      try {
        const m = await member();
        const { payload, header } = signed(
          event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995 })),
        );
        const send = (s: TestServer) =>
          s.request(WEBHOOK, {
            method: "POST",
            body: payload,
            headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
          });
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? sibling : server)));
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
        expect((await ledger(m.userId)).payments).toHaveLength(1);
      } finally {
        await sibling.close();
      }
    });

    it("a checkout that paid nothing (a free trial) turns autopay on and records nothing", async () => {
      const m = await member();
      const body = event(
        "checkout.session.completed",
        checkoutSession({ clientReference: m.reference, amount: 0, mode: "subscription", subscription: newId("sub") }),
      );
      expect(await deliver(body)).toMatchObject({ state: "ignored" });
      expect(await stored(body.id)).toMatchObject({ reason: O.nothingPaid, member_id: m.userId });
      expect((await ledger(m.userId)).payments).toEqual([]);
      expect((await accountOnline(m.cookie)).autopay.state).toBe("on");
    });

    it("two different events for one payment (a redelivery under a new id) record it once", async () => {
      const m = await member();
      const session = checkoutSession({ clientReference: m.reference, amount: 1995 });
      await deliver(event("checkout.session.completed", session));
      expect(await deliver(event("checkout.session.async_payment_succeeded", session))).toMatchObject({ state: "applied" });
      expect((await ledger(m.userId)).payments).toHaveLength(1);
    });
  });

  describe("refunds", () => {
    it("records a partial refund, then the rest, against the payment it pays back: each delivery's outcome and the ledger after it", async () => {
      const m = await member();
      const session = checkoutSession({ clientReference: m.reference, amount: 3990 });
      await deliver(event("checkout.session.completed", session));
      const ch = newId("ch");
      const refunds = async () => (await ledger(m.userId)).payments.filter((p) => p.refundOf !== null).map((p) => p.amountCents);
      const partial = event("charge.refunded", charge({ id: ch, paymentIntent: session.payment_intent!, amount: 3990, refunded: 1995 }));
      expect(await deliver(partial)).toMatchObject({ state: "applied", duplicate: false });
      expect(await stored(partial.id)).toMatchObject({ state: "applied", reason: null, member_id: m.userId });
      expect(await refunds()).toEqual([-1995]);
      // The rest: the provider's running total is 39.90, of which 19.95 is new.
      const rest = event("charge.refunded", charge({ id: ch, paymentIntent: session.payment_intent!, amount: 3990, refunded: 3990 }));
      expect(await deliver(rest)).toMatchObject({ state: "applied", duplicate: false });
      expect(await stored(rest.id)).toMatchObject({ state: "applied", reason: null, member_id: m.userId });
      expect(await refunds()).toEqual([-1995, -1995]);
      expect((await ledger(m.userId)).payments[0].refundedCents).toBe(3990);
      // An older running total arriving late adds nothing.
      const stale = event("charge.refunded", charge({ id: ch, paymentIntent: session.payment_intent!, amount: 3990, refunded: 1995 }));
      expect(await deliver(stale)).toMatchObject({ state: "applied", duplicate: false });
      expect(await stored(stale.id)).toMatchObject({ state: "applied", reason: O.refundAlreadyRecorded });
      const view = await ledger(m.userId);
      expect(view.payments.map((p) => [p.amountCents, p.refundOf === null ? null : "refund"])).toEqual([
        [3990, null],
        [-1995, "refund"],
        [-1995, "refund"],
      ]);
      expect(view.payments[0].refundedCents).toBe(3990);
    });

    it("sends a refund in another currency than its payment's to Unmatched payments, taking nothing off the payment", async () => {
      const m = await member();
      const session = checkoutSession({ clientReference: m.reference, amount: 1995 });
      await deliver(event("checkout.session.completed", session));
      const euro = event(
        "charge.refunded",
        charge({ paymentIntent: session.payment_intent!, amount: 1000, refunded: 1000, currency: "eur" }),
      );
      expect(await deliver(euro)).toMatchObject({ state: "unmatched", duplicate: false });
      expect(await stored(euro.id)).toMatchObject({
        state: "unmatched",
        reason: O.refundNotUsd("eur"),
        member_id: m.userId,
        currency: "eur",
      });
      expect((await ledger(m.userId)).payments.map((p) => p.amountCents)).toEqual([1995]);
      expect((await unmatchedList(staff.cookie)).events.find((e) => e.id === euro.id)).toMatchObject({
        state: "unmatched",
        amountCents: 1000,
        currency: "eur",
        assignable: false,
      });
      // One whose payment has not arrived does not wait for it either.
      const early = event("charge.refunded", charge({ paymentIntent: newId("pi"), amount: 1000, refunded: 1000, currency: "eur" }));
      expect(await deliver(early)).toMatchObject({ state: "unmatched" });
      expect(await stored(early.id)).toMatchObject({ reason: O.refundNotUsd("eur"), waits_for: null });
    });

    it("sends a refund whose running total is below zero (or missing) to Unmatched payments, not applied", async () => {
      const m = await member();
      const session = checkoutSession({ clientReference: m.reference, amount: 1995 });
      await deliver(event("checkout.session.completed", session));
      const negative = event("charge.refunded", charge({ paymentIntent: session.payment_intent!, amount: 1995, refunded: -500 }));
      expect(await deliver(negative)).toMatchObject({ state: "unmatched" });
      expect(await stored(negative.id)).toMatchObject({ state: "unmatched", reason: O.refundTotalInvalid, member_id: m.userId });
      const missing = charge({ paymentIntent: session.payment_intent!, amount: 1995, refunded: 0 }) as Record<string, unknown>;
      delete missing.amount_refunded;
      const none = event("charge.refunded", missing);
      expect(await deliver(none)).toMatchObject({ state: "unmatched" });
      expect(await stored(none.id)).toMatchObject({ reason: O.refundTotalInvalid });
      expect((await ledger(m.userId)).payments.map((p) => p.amountCents)).toEqual([1995]);
    });

    it("refunds a subscription's first payment (recorded from its checkout) by the payment intent its invoice names", async () => {
      const m = await member();
      const sub = newId("sub");
      const session = checkoutSession({ clientReference: m.reference, amount: 1995, mode: "subscription", subscription: sub });
      await deliver(event("checkout.session.completed", session));
      const pi = newId("pi");
      // The refund first, then the invoice that names its payment intent: applied when the invoice arrives.
      const refund = event("charge.refunded", charge({ paymentIntent: pi, amount: 1995, refunded: 1995 }));
      expect(await deliver(refund)).toMatchObject({ state: "pending" });
      await deliver(
        event(
          "invoice.paid",
          invoice({ id: session.invoice!, amount: 1995, subscription: sub, paymentIntent: pi, billingReason: "subscription_create" }),
        ),
      );
      expect(await stored(refund.id)).toMatchObject({ state: "applied" });
      expect((await ledger(m.userId)).payments.map((p) => [p.amountCents, p.reference])).toEqual([
        [1995, session.invoice],
        [-1995, null],
      ]);
    });

    it("keeps a refund that arrives before its payment, and applies it when the payment comes", async () => {
      const m = await member();
      const pi = newId("pi");
      const refund = event("charge.refunded", charge({ paymentIntent: pi, amount: 1995, refunded: 1995 }));
      expect(await deliver(refund)).toMatchObject({ state: "pending" });
      expect(await stored(refund.id)).toMatchObject({ state: "pending", waits_for: pi, reason: O.waitingForPayment });
      await deliver(
        event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995, paymentIntent: pi })),
      );
      expect(await stored(refund.id)).toMatchObject({ state: "applied", member_id: m.userId });
      expect((await ledger(m.userId)).payments.map((p) => p.amountCents)).toEqual([1995, -1995]);
    });
  });

  describe("out of order, and what does not match", () => {
    it("keeps a renewal for a subscription not yet known, and applies it when its checkout arrives", async () => {
      const m = await member();
      const sub = newId("sub");
      const renewal = event("invoice.paid", invoice({ amount: 1995, subscription: sub }));
      expect(await deliver(renewal)).toMatchObject({ state: "pending" });
      const list = await unmatchedList(staff.cookie);
      expect(list.events.find((e) => e.id === renewal.id)).toMatchObject({ state: "pending", reason: O.waitingForCheckout });
      await deliver(
        event(
          "checkout.session.completed",
          checkoutSession({ clientReference: m.reference, amount: 1995, mode: "subscription", subscription: sub }),
        ),
      );
      expect(await stored(renewal.id)).toMatchObject({ state: "applied", member_id: m.userId });
      expect((await ledger(m.userId)).payments).toHaveLength(2);
    });

    it("sends a renewal whose member was deleted since the checkout to Unmatched payments", async () => {
      const m = await member();
      const sub = newId("sub");
      await deliver(
        event(
          "checkout.session.completed",
          checkoutSession({ clientReference: m.reference, amount: 1995, mode: "subscription", subscription: sub }),
        ),
      );
      await server.services.memberAdmin.deleteMember({ id: superAdmin.userId, role: "super_admin" } as never, m.userId);
      const renewal = event("invoice.paid", invoice({ amount: 1995, subscription: sub }));
      expect(await deliver(renewal)).toMatchObject({ state: "unmatched" });
      expect(await stored(renewal.id)).toMatchObject({ reason: O.memberGone });
    });

    it.each([
      ["1.5 periods", { amount: 2992 }, O.notWholePeriods(2992, "monthly")],
      ["not USD", { amount: 1995, currency: "eur" }, O.notUsd("eur")],
      ["an unknown reference", { amount: 1995, clientReference: "pay_nobodyhasthis" }, O.unknownReference],
      ["no reference", { amount: 1995, clientReference: null }, O.noReference],
    ])(
      "sends %s to Unmatched payments, recording nothing",
      async (_name, o: { amount: number; currency?: string; clientReference?: string | null }, reason) => {
        const m = await member();
        const body = event(
          "checkout.session.completed",
          checkoutSession({
            clientReference: "clientReference" in o ? o.clientReference! : m.reference,
            amount: o.amount,
            currency: o.currency,
          }),
        );
        expect(await deliver(body)).toMatchObject({ state: "unmatched" });
        expect(await stored(body.id)).toMatchObject({ state: "unmatched", reason });
        expect((await ledger(m.userId)).payments).toEqual([]);
      },
    );

    it("a checkout whose client_reference_id is a member's certificate number (not their payment reference) records nothing and is listed as unmatched", async () => {
      const m = await member();
      const certificate = await certificateOf(m.userId);
      const body = event("checkout.session.completed", checkoutSession({ clientReference: certificate, amount: 1995 }));
      expect(await deliver(body)).toMatchObject({ state: "unmatched", duplicate: false });
      expect(await stored(body.id)).toMatchObject({ state: "unmatched", reason: O.unknownReference, member_id: null });
      expect((await ledger(m.userId)).payments).toEqual([]);
      expect((await unmatchedList(staff.cookie)).events.find((e) => e.id === body.id)).toMatchObject({
        state: "unmatched",
        reason: O.unknownReference,
        member: null,
        assignable: true,
      });
    });

    it("lets super_admin assign an unmatched payment to a member (audited) or mark one handled; other staff only read", async () => {
      const m = await member();
      const body = event("checkout.session.completed", checkoutSession({ clientReference: "pay_typo", amount: 1995 }));
      await deliver(body);
      const euro = event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995, currency: "eur" }));
      await deliver(euro);
      const list = await unmatchedList(staff.cookie);
      expect(list.unmatched).toBeGreaterThanOrEqual(2);
      expect(list.events.find((e) => e.id === body.id)).toMatchObject({ state: "unmatched", amountCents: 1995, assignable: true });
      expect(list.events.find((e) => e.id === euro.id)).toMatchObject({ assignable: false });

      const assign = (cookie: string, id: string, json: unknown) =>
        server.request(`/api/admin/membership/unmatched-payments/${id}/assign`, { method: "POST", cookie, json });
      expect((await assign(staff.cookie, body.id, { certificateNumber: "X" })).status).toBe(403);
      let res = await assign(superAdmin.cookie, body.id, { certificateNumber: "NOPE-1" });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: O.noSuchMember });
      res = await assign(superAdmin.cookie, euro.id, { certificateNumber: await certificateOf(m.userId) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: O.assignNotUsd });
      res = await assign(superAdmin.cookie, body.id, { certificateNumber: await certificateOf(m.userId) });
      expect(res.status).toBe(200);
      expect((await ledger(m.userId)).payments.map((p) => [p.amountCents, p.method])).toEqual([[1995, "online"]]);
      expect(await stored(body.id)).toMatchObject({ state: "applied", member_id: m.userId, handled_by: superAdmin.userId });
      expect((await assign(superAdmin.cookie, body.id, { certificateNumber: await certificateOf(m.userId) })).status).toBe(409);

      const handled = (cookie: string, id: string, json: unknown) =>
        server.request(`/api/admin/membership/unmatched-payments/${id}/handled`, { method: "POST", cookie, json });
      expect((await handled(staff.cookie, euro.id, { note: "Refunded in the dashboard" })).status).toBe(403);
      expect((await handled(superAdmin.cookie, euro.id, { note: "" })).status).toBe(400);
      expect((await handled(superAdmin.cookie, euro.id, { note: "Refunded in the dashboard" })).status).toBe(200);
      expect(await stored(euro.id)).toMatchObject({ state: "handled", handled_note: "Refunded in the dashboard" });
      const audit = await server.services.database.db
        .selectFrom("audit_log")
        .select(["action", "actor_id"])
        .where("action", "in", ["membership.online_assign", "membership.online_handled"])
        .where("actor_id", "=", superAdmin.userId)
        .execute();
      expect(audit.map((a) => a.action).sort()).toEqual(["membership.online_assign", "membership.online_handled"]);
      // A member cannot read the list.
      expect((await server.request("/api/admin/membership/unmatched-payments", { cookie: m.cookie })).status).toBe(403);
    });

    it("refuses a malformed event id or body on the staff endpoints with 400", async () => {
      const res = await server.request(`/api/admin/membership/unmatched-payments/${encodeURIComponent("x;drop")}/handled`, {
        method: "POST",
        cookie: superAdmin.cookie,
        json: { note: "x" },
      });
      expect(res.status).toBe(400);
    });

    it("a member without a plan: unmatched with the ledger's reason", async () => {
      const { userId } = await loginAs(server, "member");
      const reference = await server.services.online.paymentReference(userId);
      const body = event("checkout.session.completed", checkoutSession({ clientReference: reference, amount: 1995 }));
      await deliver(body);
      expect(await stored(body.id)).toMatchObject({ state: "unmatched", reason: MEMBERSHIP_MESSAGES.noPlan, member_id: userId });
    });
  });

  describe("members", () => {
    it("a member's Make a Payment opens their plan's link with their payment reference and address; anyone else gets the hand-off", async () => {
      const m = await member("annual");
      await server.services.database.db.updateTable("users").set({ email: "pat+dues@example.com" }).where("id", "=", m.userId).execute();
      let res = await server.request("/api/account/membership/pay", { cookie: m.cookie, redirect: "manual" });
      expect(res.status).toBe(302);
      const to = new URL(res.headers.get("location")!);
      expect(`${to.origin}${to.pathname}`).toBe(STRIPE_TEST_ENV.STRIPE_LINK_ANNUAL);
      expect(to.searchParams.get("client_reference_id")).toBe(m.reference);
      expect(to.searchParams.get("prefilled_email")).toBe("pat+dues@example.com");
      // The reference is random and opaque: neither the certificate number nor the id.
      expect(m.reference).toMatch(/^pay_[A-Za-z0-9_-]{20}$/);
      expect(m.reference).not.toContain(await certificateOf(m.userId));
      expect(await server.services.online.paymentReference(m.userId)).toBe(m.reference);

      for (const cookie of [undefined, staff.cookie]) {
        res = await server.request("/api/account/membership/pay", { cookie, redirect: "manual" });
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe("/make-payment");
      }
      const noPlan = await loginAs(server, "member");
      res = await server.request("/api/account/membership/pay", { cookie: noPlan.cookie, redirect: "manual" });
      expect(res.headers.get("location")).toBe("/make-payment");
    });

    it("says whether the member's online payment has been recorded (the page returned to waits for it)", async () => {
      const m = await member();
      expect((await accountOnline(m.cookie)).recordedRecently).toBe(false);
      await deliver(event("checkout.session.completed", checkoutSession({ clientReference: m.reference, amount: 1995 })));
      expect((await accountOnline(m.cookie)).recordedRecently).toBe(true);
    });
  });

  describe("autopay", () => {
    it("shows autopay failing with the reason, on again when the subscription recovers, off when it is deleted; the membership is not cancelled", async () => {
      const m = await member();
      const sub = newId("sub");
      const t0 = Math.floor(Date.now() / 1000);
      await deliver(
        event(
          "checkout.session.completed",
          checkoutSession({ clientReference: m.reference, amount: 1995, mode: "subscription", subscription: sub }),
          { created: t0 },
        ),
      );
      const failed = invoice({
        amount: 1995,
        subscription: sub,
        status: "open",
        failure: "Your card has insufficient funds.",
        nextAttempt: t0 + 3 * 86_400,
      });
      await deliver(event("invoice.payment_failed", failed, { created: t0 + 1 }));
      expect((await accountOnline(m.cookie)).autopay).toMatchObject({ state: "failing", reason: "Your card has insufficient funds." });

      const bare = invoice({ amount: 1995, subscription: sub, status: "open" });
      await deliver(event("invoice.payment_failed", bare, { created: t0 + 2 }));
      expect((await accountOnline(m.cookie)).autopay).toMatchObject({ state: "failing", reason: FAILED_WITHOUT_REASON });

      const end = t0 + 30 * 86_400;
      await deliver(event("customer.subscription.updated", subscription({ id: sub, periodEnd: end }), { created: t0 + 3 }));
      expect((await accountOnline(m.cookie)).autopay).toEqual({
        state: "on",
        billing: "monthly",
        nextChargeOn: todayIn(server.config.TIME_ZONE, new Date(end * 1000)),
        reason: null,
      });
      // An older update arriving late changes nothing.
      await deliver(event("customer.subscription.updated", subscription({ id: sub, status: "past_due" }), { created: t0 + 2 }));
      expect((await accountOnline(m.cookie)).autopay.state).toBe("on");

      await deliver(event("customer.subscription.deleted", subscription({ id: sub, status: "canceled" }), { created: t0 + 4 }));
      expect((await accountOnline(m.cookie)).autopay).toMatchObject({ state: "off", nextChargeOn: null });
      const view = await ledger(m.userId);
      expect(view.events).toEqual([]);
      expect(view.coverage.state.kind).not.toBe("cancelled");
    });
  });

  const certificateOf = async (userId: number) =>
    (await server.services.database.db.selectFrom("users").select("certificate_number").where("id", "=", userId).executeTakeFirstOrThrow())
      .certificate_number!;
  const accountOnline = async (cookie: string) => {
    const res = await server.request("/api/account/membership/online", { cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as OnlineAccountAnswer;
  };
  const unmatchedList = async (cookie: string) => {
    const res = await server.request("/api/admin/membership/unmatched-payments", { cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as UnmatchedPaymentsAnswer;
  };
});

describe("online payments off", () => {
  it("answers 404 at the webhook and stores nothing when no secret is configured", async () => {
    const server = await startTestServer("sqlite");
    try {
      const { payload, header } = signed(event("checkout.session.completed", checkoutSession({ clientReference: "x", amount: 1995 })), {
        secret: TEST_WEBHOOK_SECRET,
      });
      const res = await server.request(WEBHOOK, { method: "POST", body: payload, headers: { "Stripe-Signature": header } });
      expect(res.status).toBe(404);
      const pay = await server.request("/api/account/membership/pay", {
        cookie: (await loginAs(server, "member")).cookie,
        redirect: "manual",
      });
      expect(pay.headers.get("location")).toBe("/make-payment");
    } finally {
      await server.close();
    }
  });
});

describeEachDatabase("online payments: the receipt", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(
      dialect,
      { ...STRIPE_TEST_ENV, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_URL: "https://aha.example" },
      { reminders: { settings: { ratePerSecond: 1000 } } },
    );
  });
  afterAll(async () => {
    await server.services.reminders.stop();
    await server.close();
    await smtp.close();
  });

  it("sends one 'Payment received' mail per online payment, however often its event arrives", async () => {
    const staff = await loginAs(server, "limited_admin");
    const { userId } = await loginAs(server, "member", { certificate: "AHA0424242" });
    await server.services.database.db.updateTable("users").set({ email: "receipt@example.com" }).where("id", "=", userId).execute();
    await server.services.coverage.setPlan({ id: staff.userId }, userId, {
      billing: "annual",
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: server.services.coverage.today(),
    });
    const reference = await server.services.online.paymentReference(userId);
    const body = event("checkout.session.completed", checkoutSession({ clientReference: reference, amount: 9900 }));
    const { payload, header } = signed(body);
    const send = () =>
      server.request(WEBHOOK, {
        method: "POST",
        body: payload,
        headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
      });
    expect((await Promise.all(Array.from({ length: 5 }, send))).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await server.services.reminders.sendWaiting();
    await server.services.reminders.sendWaiting();
    const mails = smtp.received.filter((m) => m.to[0] === "receipt@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0].raw).toContain("Subject: Payment received");
    const text = decodeBody(mails[0].raw);
    const view = await server.services.coverage.view(userId);
    expect(text).toContain(`We received your payment of $99.00 on ${formatLongDay(view.payments[0].paidOn)}. Thank you.`);
    expect(text).toContain(`Your membership is paid through ${formatLongDay(view.coverage.paidThrough!)}.`);
    expect(text).toContain("Membership ID: AHA0424242");
  });

  it("a reminder's link is the member's Make a Payment, and the past-due reminder says autopay failed and why", async () => {
    const staff = await loginAs(server, "limited_admin");
    const { userId } = await loginAs(server, "member");
    await server.services.database.db.updateTable("users").set({ email: "reminded@example.com" }).where("id", "=", userId).execute();
    // Approved five days ago, nothing paid: the first-payment reminder is owed today.
    await server.services.coverage.setPlan({ id: staff.userId }, userId, {
      billing: "monthly",
      coverageAmount: null,
      beneficiaryName: null,
      beneficiaryRelationship: null,
      approvedOn: addDays(server.services.coverage.today(), -5),
    });
    await server.services.reminders.planToday();
    await server.services.reminders.sendWaiting();
    const mail = smtp.received.find((m) => m.to[0] === "reminded@example.com");
    expect(decodeBody(mail!.raw)).toContain("You can pay online at https://aha.example/api/account/membership/pay");

    // Autopay failing, as the provider's event said: the outbox reads it with the member.
    const reference = await server.services.online.paymentReference(userId);
    const sub = newId("sub");
    const deliver = async (body: unknown) => {
      const { payload, header } = signed(body);
      const res = await server.request(WEBHOOK, { method: "POST", body: payload, headers: { "Stripe-Signature": header } });
      expect(res.status).toBe(200);
    };
    await deliver(
      event(
        "checkout.session.completed",
        checkoutSession({ clientReference: reference, amount: 1995, mode: "subscription", subscription: sub }),
      ),
    );
    await deliver(
      event("invoice.payment_failed", invoice({ amount: 1995, subscription: sub, status: "open", failure: "Your card was declined." })),
    );
    const members = await new ReminderOutbox(server.services.database.db, server.services.database.dialect).membersById([userId]);
    expect(members.get(userId)?.autopayFailure).toBe("Your card was declined.");
    const view = await server.services.coverage.view(userId);
    const text = reminderMail(
      "past-due",
      { ...view.coverage, paidThrough: "2026-10-31", graceEndsOn: "2026-11-30" },
      {
        firstName: "Pat",
        certificateNumber: "AHA1",
        orgName: "AHA",
        phone: "1",
        email: "a@b.c",
        paymentUrl: "https://x",
        autopayFailure: "Your card was declined.",
      },
    ).text;
    expect(text).toContain(
      "Your automatic payment did not go through: Your card was declined. Please update your card or pay another way.",
    );
  });
});

describeEachDatabase("online payments: /metrics", (dialect) => {
  it("counts events by type and outcome, signature failures, unmatched payments and the last event's time", async () => {
    const token = "metrics-token-0123456789";
    const server = await startTestServer(dialect, { ...STRIPE_TEST_ENV, METRICS_TOKEN: token });
    try {
      const send = (body: unknown, opts: { secret?: string } = {}) => {
        const { payload, header } = signed(body, opts);
        return server.request(WEBHOOK, { method: "POST", body: payload, headers: { "Stripe-Signature": header } });
      };
      const created = Math.floor(Date.now() / 1000) - 10;
      const unmatched = event("checkout.session.completed", checkoutSession({ clientReference: "pay_nobody", amount: 1995 }), { created });
      expect((await send(unmatched)).status).toBe(200);
      expect((await send(unmatched)).status).toBe(200);
      expect((await send(event("customer.created", { id: "cus_1", object: "customer" }))).status).toBe(200);
      expect((await send(unmatched, { secret: "whsec_wrong000000000000" })).status).toBe(400);
      // Signed, and no event: counted apart from the signatures.
      expect((await send(null)).status).toBe(400);
      expect((await send([])).status).toBe(400);
      const notJson = signedText("not json");
      expect(
        (await server.request(WEBHOOK, { method: "POST", body: "not json", headers: { "Stripe-Signature": notJson.header } })).status,
      ).toBe(400);
      const res = await server.request("/metrics", { headers: { Authorization: `Bearer ${token}` } });
      const text = await res.text();
      const value = (series: string) => {
        const line = text.split("\n").find((l) => l.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      expect(value('aha_stripe_events_total{type="checkout.session.completed",outcome="unmatched"}')).toBe(1);
      expect(value('aha_stripe_events_total{type="checkout.session.completed",outcome="duplicate"}')).toBe(1);
      expect(value('aha_stripe_events_total{type="other",outcome="ignored"}')).toBe(1);
      expect(value("aha_stripe_signature_failures_total")).toBe(1);
      expect(value('aha_stripe_webhook_refused_total{reason="not_json"}')).toBe(1);
      expect(value('aha_stripe_webhook_refused_total{reason="not_an_event"}')).toBe(2);
      expect(value('aha_stripe_unmatched_payments{state="unmatched"}')).toBe(1);
      expect(value('aha_stripe_unmatched_payments{state="pending"}')).toBe(0);
      expect(value("aha_stripe_last_event_timestamp_seconds")).toBeGreaterThanOrEqual(created);
    } finally {
      await server.close();
    }
  });
});
