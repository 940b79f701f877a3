import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../tests/support/test-app";
import type { CardAnswer, MembershipAnswer, VerifyAnswer } from "./contract";
import { addDays, firstOfNextMonth } from "./coverage";
import { coverageProof, proofDate } from "./proof";
import { qrCodeSvg } from "./proof-card.server";
import { VERIFY_MESSAGES } from "./verify.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("membership: proof of coverage", (dialect) => {
  let server: TestServer;
  let staff: { cookie: string };
  let superAdmin: { cookie: string };
  beforeAll(async () => {
    server = await startTestServer(dialect, { TRUST_PROXY: "1", PUBLIC_URL: "https://members.example.org/" });
    staff = await loginAs(server, "limited_admin", { username: "verify-staff" });
    superAdmin = await loginAs(server, "super_admin", { username: "verify-super" });
  });
  afterAll(() => server.close());

  /** A member with a plan and `amount` paid on January 16, 2026 (monthly, approved January 15). */
  async function member(amount: string, lastName = "Rivera") {
    const m = await loginAs(server, "member");
    await server.services.database.db
      .updateTable("users")
      .set({ first_name: "Dana", last_name: lastName })
      .where("id", "=", m.userId)
      .execute();
    const base = `/api/admin/members/${m.userId}/membership`;
    await server.request(`${base}/plan`, { method: "PUT", cookie: staff.cookie, json: { billing: "monthly", approvedOn: "2026-01-15" } });
    await server.request(`${base}/payments`, {
      method: "POST",
      cookie: staff.cookie,
      json: { amount, paidOn: "2026-01-16", method: "card", reference: null },
    });
    const card = (await (await server.request("/api/account/membership/card", { cookie: m.cookie })).json()) as CardAnswer;
    return { ...m, base, card };
  }
  // Each test comes from an address of its own (the limit counts per address).
  let address = 0;
  const verify = async (token: string, ip = `10.0.0.${++address}`) => {
    const res = await server.request(`/api/verify/${token}`, { headers: { "X-Forwarded-For": ip } });
    return { status: res.status, text: await res.text() };
  };

  it("a covered member's card shows covered, the first name, last initial and covered-through date, and nothing else", async () => {
    const m = await member("2394.00"); // ten years
    expect(m.card.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(m.card.verifyPath).toBe(`/verify/${m.card.token}`);
    // The QR code opens the site's public address, drawn on the server as SVG.
    expect(m.card.verifyUrl).toBe(`https://members.example.org/verify/${m.card.token}`);
    expect(m.card.qrSvg).toBe(await qrCodeSvg(m.card.verifyUrl));
    const { status, text } = await verify(m.card.token);
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({
      success: true,
      covered: true,
      status: "covered",
      firstName: "Dana",
      lastInitial: "R",
      coInsured: null,
      coveredThrough: "2036-01-31",
      startsOn: null,
      checkedOn: server.services.coverage.today(),
    } satisfies VerifyAnswer);
    expect(text).not.toContain("Rivera");
    // The same card again: the token is stable until replaced.
    expect((await (await server.request("/api/account/membership/card", { cookie: m.cookie })).json()).token).toBe(m.card.token);
  });

  it("a lapsed member is not covered; a cancelled one is not covered and the old card stops verifying", async () => {
    const lapsed = await member("19.95", "Okafor");
    expect(JSON.parse((await verify(lapsed.card.token)).text)).toMatchObject({
      covered: false,
      lastInitial: "O",
      coveredThrough: "2026-02-28",
    });

    const cancelled = await member("2394.00", "Brown");
    await server.request(`${cancelled.base}/cancel`, {
      method: "POST",
      cookie: superAdmin.cookie,
      json: { cancelledOn: "2026-06-10", reason: "Moved" },
    });
    expect(await verify(cancelled.card.token)).toMatchObject({ status: 404 });
    const fresh = (await (await server.request("/api/account/membership/card", { cookie: cancelled.cookie })).json()) as CardAnswer;
    expect(fresh.token).not.toBe(cancelled.card.token);
    expect(JSON.parse((await verify(fresh.token)).text)).toMatchObject({ covered: false, coveredThrough: "2026-06-09" });
  });

  const answerOf = async (token: string) => JSON.parse((await verify(token)).text) as VerifyAnswer;
  /** What the member's own card says of the dates (the same rule, from the member's own view). */
  const cardDate = async (m: { cookie: string }) => {
    const view = (await (await server.request("/api/account/membership", { cookie: m.cookie })).json()) as MembershipAnswer;
    return proofDate(coverageProof(view.coverage, view.events, true));
  };

  it("paid but not begun: not covered yet, and the day it starts, never a covered-through date", async () => {
    const today = server.services.coverage.today();
    const m = await loginAs(server, "member");
    const base = `/api/admin/members/${m.userId}/membership`;
    await server.request(`${base}/plan`, { method: "PUT", cookie: staff.cookie, json: { billing: "monthly", approvedOn: today } });
    await server.request(`${base}/payments`, {
      method: "POST",
      cookie: staff.cookie,
      json: { amount: "19.95", paidOn: today, method: "card", reference: null },
    });
    const card = (await (await server.request("/api/account/membership/card", { cookie: m.cookie })).json()) as CardAnswer;
    const answer = await answerOf(card.token);
    expect(answer).toMatchObject({
      covered: false,
      status: "starts",
      coveredThrough: null,
      startsOn: firstOfNextMonth(today),
      checkedOn: today,
    });
    expect(proofDate(answer)).toEqual(await cardDate(m));
  });

  it("cancelled: the card and the check give the same end date, the day before the cancellation", async () => {
    const m = await member("2394.00", "Brown"); // paid through January 31, 2036
    const cancelledOn = server.services.coverage.today();
    await server.request(`${m.base}/cancel`, { method: "POST", cookie: superAdmin.cookie, json: { cancelledOn, reason: "Moved" } });
    const card = (await (await server.request("/api/account/membership/card", { cookie: m.cookie })).json()) as CardAnswer;
    const answer = await answerOf(card.token);
    expect(answer).toMatchObject({ covered: false, status: "ended", coveredThrough: addDays(cancelledOn, -1) });
    expect(await cardDate(m)).toEqual({ label: "Coverage ended", value: proofDate(answer).value });
  });

  it("a deactivated member's card is not covered and gives no date", async () => {
    const m = await member("2394.00");
    const res = await server.request(`/api/admin/members/${m.userId}`, {
      method: "PATCH",
      cookie: staff.cookie,
      json: { is_active: false },
    });
    expect(res.status).toBe(200);
    expect(await answerOf(m.card.token)).toMatchObject({ covered: false, status: "none", coveredThrough: null, startsOn: null });
  });

  it("a household: the co-insured's first name and last initial, and nothing else of them", async () => {
    const m = await member("2394.00");
    const put = await server.request(`${m.base}/co-insured`, {
      method: "PUT",
      cookie: staff.cookie,
      json: {
        firstName: "Sam",
        lastName: "Quintero",
        birthdate: "1984-07-09",
        gender: "Male",
        email: "sam.q@example.com",
        phone: "5551234567",
      },
    });
    expect(put.status).toBe(200);
    const { text } = await verify(m.card.token);
    expect(JSON.parse(text)).toMatchObject({
      covered: true,
      firstName: "Dana",
      lastInitial: "R",
      coInsured: { firstName: "Sam", lastInitial: "Q" },
    });
    for (const secret of ["Quintero", "1984", "sam.q", "555", "Male", "Rivera"]) expect(text).not.toContain(secret);
    await server.request(`${m.base}/co-insured`, { method: "DELETE", cookie: staff.cookie });
    expect((await answerOf(m.card.token)).coInsured).toBeNull();
  });

  it("a member's new card replaces the old; a guessed token is a 404", async () => {
    const m = await member("2394.00");
    const renewed = (await (
      await server.request("/api/account/membership/card", { method: "POST", cookie: m.cookie })
    ).json()) as CardAnswer;
    expect(renewed.token).not.toBe(m.card.token);
    expect(renewed.verifyUrl).toBe(`https://members.example.org/verify/${renewed.token}`);
    expect(renewed.qrSvg).toBe(await qrCodeSvg(renewed.verifyUrl));
    expect(await verify(m.card.token)).toMatchObject({ status: 404 });
    expect((await verify(renewed.token)).status).toBe(200);
    const guessed = await verify("A".repeat(43));
    expect(guessed.status).toBe(404);
    expect(JSON.parse(guessed.text).error).toBe(VERIFY_MESSAGES.notFound);
    expect((await verify("not-a-token")).status).toBe(404);
  });

  it("limits look-ups per address: the 31st in ten minutes is a 429 with Retry-After", async () => {
    const ip = "10.9.9.9";
    const answers = await Promise.all(Array.from({ length: 35 }, () => verify("B".repeat(43), ip)));
    expect(answers.filter((a) => a.status === 404)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
    const res = await server.request(`/api/verify/${"B".repeat(43)}`, { headers: { "X-Forwarded-For": ip } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await res.json()).error).toBe(VERIFY_MESSAGES.tooMany);
  });
});
