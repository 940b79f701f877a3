import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "~/platform/logger.server";
import { RateLimits } from "~/platform/rate-limit.server";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../tests/support/test-app";
import { makePng, pngDataUrl } from "../../../tests/support/png";
import { findKindRow } from "~/features/submissions/store.server";
import { MESSAGES } from "./contract";
import { localIsoDate } from "~/domain/people";
import { APPLICATION_RATE_LIMIT, ApplicationsService, CASE_LOOKUP_RATE_LIMIT, CASE_LOOKUP_UNAVAILABLE } from "./service.server";
import { endsWithTheFile, LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const SIGNATURE = pngDataUrl();

/** A complete application as the page sends it (spec section 7). */
function validApplication(overrides: Record<string, unknown> = {}) {
  return {
    caseNumber: "1234567",
    amountOfCoverage: "$250,000.00",
    applicantName: "Dana Reyes",
    coApplicantName: "Sam Reyes",
    dob: "1980-04-12",
    coDob: "1982-09-30",
    gender: "Female",
    coGender: "Male",
    email: "dana@example.com",
    coEmail: "sam@example.com",
    phone: "2035550142",
    coPhone: "203-555-0143",
    todaysDate: localIsoDate(),
    address1: "12 Elm Street",
    address2: "Apt 4",
    city: "Stamford",
    state: "ct",
    zip: "06905",
    beneficiaryName: "Alex Reyes",
    beneficiaryRelationship: "child",
    beneficiaryPhone: "(203) 555-0144",
    beneficiaryEmail: "alex@example.com",
    paymentMonthlyBilling: false,
    paymentAutomaticChecking: true,
    paymentUseCreditCard: true,
    ccNumber: "",
    ccExp: "",
    ccNameOnCard: "Dana Reyes",
    ccCVV: "",
    ccCardholderSignature: "Dana Reyes",
    ccProcessDate: "2025-06-02",
    confirmAccuracy: true,
    applicantSignature: SIGNATURE,
    coApplicantSignature: SIGNATURE,
    achApplicantSignature: SIGNATURE,
    achCoApplicantSignature: SIGNATURE,
    submittedAt: "2025-06-01T12:00:00.000Z",
    ...overrides,
  };
}

/** The least an application needs: one payment option, no co-applicant. */
function minimalApplication(overrides: Record<string, unknown> = {}) {
  return {
    amountOfCoverage: "100000",
    applicantName: "Lee Park",
    dob: "1975-01-31",
    gender: "Prefer not to say",
    email: "lee@example.com",
    phone: "(203) 555-0100",
    todaysDate: localIsoDate(),
    paymentMonthlyBilling: true,
    confirmAccuracy: true,
    applicantSignature: SIGNATURE,
    ...overrides,
  };
}

describeEachDatabase("membership application API", (dialect) => {
  let server: TestServer;
  let member: { cookie: string; userId: number };
  beforeAll(async () => {
    // These tests post far more than one person would; the limit has its own test below.
    server = await startTestServer(dialect, {}, { applications: { applicationLimit: { max: 100_000, windowMs: 60_000 } } });
    member = await loginAs(server, "member");
  });
  afterAll(() => server.close());

  const post = (json: unknown, cookie: string | null = member.cookie, path = "/api/applications") =>
    server.request(path, { method: "POST", json, cookie: cookie ?? undefined });
  const db = () => server.services.database.db;

  async function expectRejected(res: Response, details: string[]) {
    const body = await res.json();
    expect({ status: res.status, details: body.details }).toEqual({ status: 400, details });
    expect(body.success).toBe(false);
    expect(body.error).toBe(details.join(" "));
    return body;
  }

  describe("signed-in users only", () => {
    it("answers 401 to a visitor without a session on both paths and stores nothing", async () => {
      const before = await server.services.applications.repository.count();
      for (const path of ["/api/applications", "/.netlify/functions/applications"]) {
        const res = await post(validApplication(), null, path);
        expect(res.status, path).toBe(401);
        expect(await res.json()).toEqual({ success: false, error: "Authentication required" });
      }
      const lookup = await server.request("/api/cases/12345");
      expect(lookup.status).toBe(401);
      expect(await server.services.applications.repository.count()).toBe(before);
    });

    it("answers 401 to a session cookie that is not a session", async () => {
      const res = await post(validApplication(), "aha_session=forged-token-value");
      expect(res.status).toBe(401);
    });
  });

  describe("storing", () => {
    it("stores every field and the four signatures as pending, with submitted_at and who sent it", async () => {
      const res = await post(validApplication());
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toEqual({ success: true, id: expect.any(Number), submittedAt: expect.any(String) });
      const row = (await findKindRow(db(), "applications", body.id))!;
      expect(row).toMatchObject({
        case_number: "1234567",
        amount_of_coverage: "250000.00",
        applicant_name: "Dana Reyes",
        co_applicant_name: "Sam Reyes",
        dob: "1980-04-12",
        co_dob: "1982-09-30",
        gender: "Female",
        co_gender: "Male",
        email: "dana@example.com",
        co_email: "sam@example.com",
        phone: "(203) 555-0142",
        co_phone: "(203) 555-0143",
        todays_date: localIsoDate(),
        address1: "12 Elm Street",
        address2: "Apt 4",
        city: "Stamford",
        state: "CT",
        zip: "06905",
        beneficiary_name: "Alex Reyes",
        beneficiary_relationship: "child",
        beneficiary_phone: "(203) 555-0144",
        beneficiary_email: "alex@example.com",
        payment_monthly_billing: 0,
        payment_automatic_checking: 1,
        payment_use_credit_card: 1,
        cc_name_on_card: "Dana Reyes",
        cc_cardholder_signature: "Dana Reyes",
        cc_process_date: "2025-06-02",
        confirm_accuracy: 1,
        applicant_signature: SIGNATURE,
        co_applicant_signature: SIGNATURE,
        ach_applicant_signature: SIGNATURE,
        ach_co_applicant_signature: SIGNATURE,
        submitted_by: member.userId,
        status: "pending",
      });
      expect(row.submitted_at).toBe(body.submittedAt);
      expect(new Date(row.submitted_at).toISOString()).toBe(row.submitted_at);
      expect(row.updated_at).toBe(row.submitted_at);
    });

    it("/.netlify/functions/applications is the same endpoint; blank optional fields are stored as null", async () => {
      const res = await post(
        minimalApplication({ coApplicantName: "  ", state: "", caseNumber: null }),
        member.cookie,
        "/.netlify/functions/applications",
      );
      expect(res.status).toBe(201);
      const row = await server.services.applications.repository.find((await res.json()).id);
      expect(row).toMatchObject({
        amount_of_coverage: "100000.00",
        co_applicant_name: null,
        state: null,
        case_number: null,
        co_applicant_signature: null,
        payment_monthly_billing: 1,
      });
    });

    it("never stores a card number, expiry or CVV, even when sent", async () => {
      const res = await post(minimalApplication({ ccNumber: "4111111111111111", ccExp: "12/29", ccCVV: "737" }));
      expect(res.status).toBe(201);
      const row = await server.services.applications.repository.find((await res.json()).id);
      expect(JSON.stringify(row)).not.toMatch(/4111111111111111|12\/29|737/);
    });

    it("accepts a posted form's spelling too (strings, 'on' for a ticked box)", async () => {
      const res = await post(minimalApplication({ paymentMonthlyBilling: "on", confirmAccuracy: "on", caseNumber: "12-345-67" }));
      expect(res.status).toBe(201);
      const row = await server.services.applications.repository.find((await res.json()).id);
      expect(row).toMatchObject({ payment_monthly_billing: 1, confirm_accuracy: 1, case_number: "1234567" });
    });
  });

  describe("validation (spec section 5)", () => {
    it("lists every problem of an empty application together, in the spec's order", async () => {
      await expectRejected(await post({}), [
        MESSAGES.amountOfCoverage,
        MESSAGES.applicantName,
        MESSAGES.dob,
        MESSAGES.gender,
        MESSAGES.email,
        MESSAGES.phone,
        MESSAGES.todaysDate,
        MESSAGES.paymentOptions,
        MESSAGES.applicantSignature,
        MESSAGES.confirmAccuracy,
      ]);
    });

    it("answers each always-required field with its own message, and maps it to the field", async () => {
      const cases: [string, string][] = [
        ["amountOfCoverage", "Amount of Coverage is required."],
        ["applicantName", "Applicant Name is required."],
        ["dob", "Applicant Date of Birth is required."],
        ["gender", "Applicant Gender is required."],
        ["email", "Applicant Email is required."],
        ["phone", "Applicant Phone is required."],
        ["todaysDate", "Today's Date is required."],
        ["applicantSignature", "Applicant signature is required."],
      ];
      for (const [field, message] of cases) {
        for (const blank of ["", "   ", null, undefined]) {
          const body = await expectRejected(await post(minimalApplication({ [field]: blank })), [message]);
          expect(body.fields).toEqual({ [field]: message });
        }
      }
      await expectRejected(await post(minimalApplication({ confirmAccuracy: false })), [
        "Please confirm that the information provided is true and correct.",
      ]);
      await expectRejected(await post(minimalApplication({ paymentMonthlyBilling: false })), [
        "Please select at least one Payment Option.",
      ]);
    });

    it("refuses a date of birth in the future or more than 120 years back, for both applicants, and stores nothing", async () => {
      const before = await server.services.applications.repository.count();
      const today = new Date().toISOString().slice(0, 10);
      const yearsBack = (n: number, days = 0) => {
        const d = new Date(`${Number(today.slice(0, 4)) - n}${today.slice(4)}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + days);
        return d.toISOString().slice(0, 10);
      };
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      for (const future of ["2099-01-01", tomorrow]) {
        await expectRejected(await post(minimalApplication({ dob: future })), ["Applicant Date of Birth cannot be in the future."]);
        await expectRejected(await post(minimalApplication({ coApplicantName: "Sam", coApplicantSignature: SIGNATURE, coDob: future })), [
          "Co-Applicant Date of Birth cannot be in the future.",
        ]);
      }
      for (const ancient of ["1900-01-01", yearsBack(120, -1)]) {
        await expectRejected(await post(minimalApplication({ dob: ancient })), [
          "Applicant Date of Birth must be within the last 120 years.",
        ]);
      }
      expect(await server.services.applications.repository.count()).toBe(before);
      expect((await post(minimalApplication({ dob: yearsBack(120) }))).status).toBe(201);
      expect((await post(minimalApplication({ dob: yearsBack(18) }))).status).toBe(201);
    });

    it("refuses invisible and direction-changing characters in one-line fields, with the field's message", async () => {
      const before = await server.services.applications.repository.count();
      for (const bad of [
        "Dana\u202eReyes",
        "Dana\u200bReyes",
        "Dana\u2028Reyes",
        "Da\ufeffna",
        "Dana\u2066Reyes\u2069",
        "Dana\u00adReyes",
      ]) {
        await expectRejected(await post(minimalApplication({ applicantName: bad })), [
          "Applicant Name contains characters that are not allowed.",
        ]);
        await expectRejected(await post(minimalApplication({ city: bad })), ["City contains characters that are not allowed."]);
      }
      expect(await server.services.applications.repository.count()).toBe(before);
    });

    it("asks for the co-applicant's signature only when a co-applicant is listed", async () => {
      await expectRejected(await post(minimalApplication({ coApplicantName: "Sam Reyes" })), [
        "Co-Applicant signature is required when a Co-Applicant is listed.",
      ]);
      expect((await post(minimalApplication({ coApplicantName: "Sam Reyes", coApplicantSignature: SIGNATURE }))).status).toBe(201);
    });

    it("asks for the ACH signatures only when Automatic Checking is selected (the co-applicant's only with a co-applicant)", async () => {
      const checking = { paymentMonthlyBilling: false, paymentAutomaticChecking: true };
      await expectRejected(await post(minimalApplication(checking)), [
        "Applicant ACH signature is required when Automatic Checking is selected.",
      ]);
      await expectRejected(await post(minimalApplication({ ...checking, coApplicantName: "Sam", coApplicantSignature: SIGNATURE })), [
        "Applicant ACH signature is required when Automatic Checking is selected.",
        "Co-Applicant ACH signature is required when a Co-Applicant is listed and Automatic Checking is selected.",
      ]);
      await expectRejected(
        await post(
          minimalApplication({ ...checking, coApplicantName: "Sam", coApplicantSignature: SIGNATURE, achApplicantSignature: SIGNATURE }),
        ),
        ["Co-Applicant ACH signature is required when a Co-Applicant is listed and Automatic Checking is selected."],
      );
      expect((await post(minimalApplication({ ...checking, achApplicantSignature: SIGNATURE }))).status).toBe(201);
      // Without Automatic Checking no ACH signature is asked for.
      expect((await post(minimalApplication({ coApplicantName: "Sam", coApplicantSignature: SIGNATURE }))).status).toBe(201);
    });

    it("asks for the name on the card only when Use Credit Card is selected; never for number, expiry or CVV", async () => {
      const card = { paymentMonthlyBilling: false, paymentUseCreditCard: true };
      const body = await expectRejected(await post(minimalApplication(card)), ["Name on Card is required when using Credit Card."]);
      expect(body.fields).toEqual({ ccNameOnCard: "Name on Card is required when using Credit Card." });
      expect((await post(minimalApplication({ ...card, ccNameOnCard: "Lee Park" }))).status).toBe(201);
      expect((await post(minimalApplication({ ccNameOnCard: "" }))).status).toBe(201);
    });

    it("checks what was typed: amount, dates, gender, emails, phones, state, ZIP, relationship", async () => {
      const res = await post(
        minimalApplication({
          amountOfCoverage: "lots",
          dob: "1980-02-30",
          gender: "X",
          email: "not-an-email",
          phone: "call me",
          state: "Conn",
          zip: "6905",
          beneficiaryRelationship: "cousin",
          coEmail: "sam@",
          ccProcessDate: "tomorrow",
        }),
      );
      const body = await expectRejected(res, [
        "Amount of Coverage must be a dollar amount, like $250,000.00.",
        "Applicant Date of Birth must be a real date.",
        "Applicant Gender must be one of: Female, Male, Other, Prefer not to say.",
        "Applicant Email must be a valid email address, like name@example.com.",
        "Applicant Phone must be a phone number, like (555) 123-4567.",
        "Co-Applicant Email must be a valid email address, like name@example.com.",
        "State must be 2 letters, like CT.",
        "ZIP Code must be 5 digits, or 5+4 like 06905-1234.",
        "Relationship must be one of: Spouse, Child, Parent, Sibling, Other.",
        "Process Date must be a real date.",
      ]);
      expect(Object.keys(body.fields)).toContain("beneficiaryRelationship");
    });

    it("limits lengths and refuses control characters and wrong types", async () => {
      await expectRejected(await post(minimalApplication({ applicantName: "x".repeat(121) })), [
        "Applicant Name must be at most 120 characters.",
      ]);
      await expectRejected(await post(minimalApplication({ city: "Stam\u0000ford" })), ["City contains characters that are not allowed."]);
      await expectRejected(await post(minimalApplication({ applicantName: 42 })), ["Applicant Name must be text."]);
      await expectRejected(await post(minimalApplication({ caseNumber: "1".repeat(21) })), ["Case Number must be at most 20 digits."]);
    });

    it("answers 400, never 500, to bodies that are not an application", async () => {
      for (const body of [null, [], "text", 42]) {
        const res = await post(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).success).toBe(false);
      }
      const res = await server.request("/api/applications", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{oops",
        cookie: member.cookie,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Request body is not valid JSON" });
    });
  });

  describe("signatures", () => {
    const png = makePng();
    const cases: [string, string][] = [
      ["hello", "Applicant signature is not a valid image."],
      ["data:image/png;base64,", "Applicant signature is not a valid image."],
      ["data:image/png;base64,@@@@", "Applicant signature is not a valid image."],
      ["data:image/png," + "abc", "Applicant signature is not a valid image."],
      ["data:image/jpeg;base64," + png.toString("base64"), "Applicant signature must be a PNG image."],
      ["data:image/png;base64," + Buffer.from("GIF89a" + "x".repeat(40)).toString("base64"), "Applicant signature must be a PNG image."],
      // PNG magic bytes, then something that is not an IHDR chunk.
      [
        "data:image/png;base64," + Buffer.concat([png.subarray(0, 12), Buffer.from("IDAT"), png.subarray(16)]).toString("base64"),
        "Applicant signature must be a PNG image.",
      ],
      // A zero-width image.
      [
        "data:image/png;base64," + Buffer.concat([png.subarray(0, 16), Buffer.alloc(4), png.subarray(20)]).toString("base64"),
        "Applicant signature must be a PNG image.",
      ],
      [pngDataUrl(makePng(40, 20, 500 * 1024 + 1)), "Applicant signature is too large (at most 500 KB)."],
      [123 as unknown as string, "Applicant signature is not a valid image."],
    ];

    it("accepts a real PNG up to 500 KB", async () => {
      expect((await post(minimalApplication({ applicantSignature: pngDataUrl(makePng(40, 20, 500 * 1024)) }))).status).toBe(201);
    });

    it("refuses anything that is not a PNG data URL of at most 500 KB, for each of the four signatures", async () => {
      for (const [value, message] of cases) {
        await expectRejected(await post(minimalApplication({ applicantSignature: value })), [message]);
      }
      const all = {
        coApplicantName: "Sam",
        paymentAutomaticChecking: true,
        applicantSignature: "nope",
        coApplicantSignature: "nope",
        achApplicantSignature: "nope",
        achCoApplicantSignature: "data:image/gif;base64,R0lGODlh",
      };
      await expectRejected(await post(minimalApplication(all)), [
        "Applicant ACH signature is not a valid image.",
        "Co-Applicant ACH signature must be a PNG image.",
        "Applicant signature is not a valid image.",
        "Co-Applicant signature is not a valid image.",
      ]);
    });
  });

  describe("body size", () => {
    it("takes an application with four large signatures (more than the 1 MB of other endpoints)", async () => {
      const big = pngDataUrl(makePng(400, 200, 480 * 1024));
      const res = await post(
        validApplication({ applicantSignature: big, coApplicantSignature: big, achApplicantSignature: big, achCoApplicantSignature: big }),
      );
      expect(res.status).toBe(201);
    });

    it("answers 413 to a body over 4 MB", async () => {
      const res = await post(validApplication({ address2: "x".repeat(4 * 1024 * 1024) }));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ success: false, error: "Request body is too large" });
    });

    it("does not read a visitor's large body at all (401 first)", async () => {
      const res = await post(validApplication({ address2: "x".repeat(5 * 1024 * 1024) }), null);
      expect(res.status).toBe(401);
    });
  });

  describe("rate limit", () => {
    it("refuses a user's posts past the limit with 429 and Retry-After; other users are not affected", async () => {
      // An instance on the same database with the real limit.
      const limited = await startSiblingServer(server);
      const post = (json: unknown, cookie: string) => limited.request("/api/applications", { method: "POST", json, cookie });
      try {
        const busy = await loginAs(server, "limited_admin");
        for (let i = 0; i < APPLICATION_RATE_LIMIT.max; i++) {
          const res = await post(i % 2 ? minimalApplication() : {}, busy.cookie);
          expect(res.status, `post ${i + 1}`).toBe(i % 2 ? 201 : 400);
        }
        const refused = await post(minimalApplication(), busy.cookie);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await refused.json()).error).toMatch(/^Too many applications in a short time\. Please wait \d+ minutes? and try again\.$/);
        const fresh = await loginAs(server, "member");
        expect((await post(minimalApplication(), fresh.cookie)).status).toBe(201);
      } finally {
        await limited.close();
      }
    });
  });
});

/** A stand-in for the outside case lookup endpoint: answers by the `case` parameter. */
async function startCaseSource() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const c = url.searchParams.get("case") ?? "";
    hits.push(`${url.pathname}?case=${c}`);
    const json = (body: unknown, status = 200) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    switch (c) {
      case "11111":
        return json({
          success: true,
          applicant: {
            firstName: "Ana",
            lastName: "Lopez",
            coverage: 150000,
            email: "ana@example.com",
            phone: "2035550101",
            address1: "1 Main St",
            city: "Darien",
            state: "ct",
            zip: 6820,
            gender: "female",
            ssn: "123-45-6789",
            notes: "internal",
          },
        });
      case "22222":
        return json({ ok: true, data: { applicantFirst: "Bo", applicantLast: "Chen", amountCoverage: "$75,000", address: "9 Oak Ave" } });
      case "33333":
        return json({ firstName: "Cy", applicantName: "Cy Young Jr.", gender: "M", email: "not-an-email" });
      case "44444":
        return res
          .writeHead(200, { "Content-Type": "application/javascript" })
          .end(`cb123({"success":true,"applicant":{"applicantName":"Di Fox"}});`);
      case "55555":
        return json({ success: false, error: "no such case" });
      case "56789":
        return json({ success: true, applicant: "Ed" });
      case "66666":
        return json({ error: "not found" }, 404);
      case "77777":
        return json({ error: "boom" }, 500);
      case "88888":
        return res.writeHead(200, { "Content-Type": "application/json" }).end(`{"firstName":"${"x".repeat(100 * 1024)}"}`);
      case "99999":
        return res.writeHead(302, { Location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/?case=11111` }).end();
      default:
        return res.writeHead(200, { "Content-Type": "text/html" }).end("<html>nothing</html>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`;
  return endsWithTheFile({ url, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

describeEachDatabase("case lookup API", (dialect) => {
  let source: Awaited<ReturnType<typeof startCaseSource>>;
  let server: TestServer;
  let member: { cookie: string; userId: number };
  beforeAll(async () => {
    source = await startCaseSource();
    server = await startTestServer(dialect, { CASE_LOOKUP_URL: source.url, CASE_LOOKUP_ALLOW_PRIVATE_HOSTS: "true" });
    member = await loginAs(server, "member");
    await server.services.applications.repository.upsertCases([
      {
        case_number: "1234567",
        first_name: "Kim",
        last_name: "Ode",
        coverage: "300000.00",
        email: "kim@example.com",
        phone: "(203) 555-0188",
        address1: "5 Pine Rd",
        city: "Stamford",
        state: "CT",
        zip: "06905",
        gender: "Other",
      },
      // The table wins over the outside source for the same case number.
      { case_number: "11111", applicant_name: "Table Person" },
    ]);
  });
  afterAll(async () => {
    await server.close();
    await source.close();
  });

  const lookup = (caseNumber: string, cookie = member.cookie) => server.request(`/api/cases/${caseNumber}`, { cookie });

  it("answers a case from the table with only the form's fields, never cached", async () => {
    const res = await lookup("1234567");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toEqual({
      success: true,
      applicant: {
        applicantName: "Kim Ode",
        coverage: "300000.00",
        email: "kim@example.com",
        phone: "(203) 555-0188",
        address1: "5 Pine Rd",
        city: "Stamford",
        state: "CT",
        zip: "06905",
        gender: "Other",
      },
    });
    const fromTable = await (await lookup("11111")).json();
    expect(fromTable).toEqual({ success: true, applicant: { applicantName: "Table Person" } });
  });

  it("asks the outside source for cases not in the table and accepts the spec's three answer shapes", async () => {
    // Shape 1 lives under 11111 in the source, which the table shadows; ask the source directly through a fresh case.
    const service = new ApplicationsService(
      server.services.database.db,
      server.services.database.dialect,
      { CASE_LOOKUP_URL: source.url, CASE_LOOKUP_ALLOW_PRIVATE_HOSTS: true },
      createLogger("silent"),
      new RateLimits(server.services.database),
    );
    try {
      await server.services.database.db.deleteFrom("cases").where("case_number", "=", "11111").execute();
      expect(await service.lookupCase("11111", member.userId)).toEqual({
        applicantName: "Ana Lopez",
        coverage: "150000.00",
        email: "ana@example.com",
        phone: "(203) 555-0101",
        address1: "1 Main St",
        city: "Darien",
        state: "CT",
        zip: "06820",
        gender: "Female",
      });
    } finally {
      service.close();
    }
    expect(await (await lookup("22222")).json()).toEqual({
      success: true,
      applicant: { applicantName: "Bo Chen", coverage: "75000.00", address1: "9 Oak Ave" },
    });
    // Fields that make no sense for the form (an invalid email) are left out.
    expect(await (await lookup("33333")).json()).toEqual({ success: true, applicant: { applicantName: "Cy Young Jr.", gender: "Male" } });
    // A JSONP-wrapped answer, as hosted script endpoints send.
    expect(await (await lookup("44444")).json()).toEqual({ success: true, applicant: { applicantName: "Di Fox" } });
    expect(source.hits).toContain("/lookup?case=22222");
  });

  it("answers 404 'Case not found' for anything else, including the source's own 404", async () => {
    for (const c of ["55555", "56789", "66666", "12121"]) {
      const res = await lookup(c);
      expect(res.status, c).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "Case not found" });
    }
  });

  it("answers 502 when the source fails, answers too much, or redirects to a private address", async () => {
    for (const c of ["77777", "88888"]) {
      const res = await lookup(c);
      expect(res.status, c).toBe(502);
      expect(await res.json()).toEqual({ success: false, error: CASE_LOOKUP_UNAVAILABLE });
    }
    // Only 127.0.0.1 (the source) may be reached; the redirect to 127.0.0.2 is refused before connecting.
    const service = new ApplicationsService(
      server.services.database.db,
      server.services.database.dialect,
      { CASE_LOOKUP_URL: source.url, CASE_LOOKUP_ALLOW_PRIVATE_HOSTS: false },
      createLogger("silent"),
      new RateLimits(server.services.database),
      {
        caseSource: {
          addressPolicy: (a) => (a === "127.0.0.1" ? { allowed: true } : { allowed: false, reason: "a private network address" }),
        },
      },
    );
    try {
      await expect(service.lookupCase("99999", member.userId)).rejects.toMatchObject({ kind: "unavailable" });
      expect(source.hits.filter((h) => h === "/?case=11111")).toEqual([]);
    } finally {
      service.close();
    }
  });

  it("never calls a source on a private address unless allowed", async () => {
    const before = source.hits.length;
    const service = new ApplicationsService(
      server.services.database.db,
      server.services.database.dialect,
      { CASE_LOOKUP_URL: source.url, CASE_LOOKUP_ALLOW_PRIVATE_HOSTS: false },
      createLogger("silent"),
      new RateLimits(server.services.database),
    );
    try {
      await expect(service.lookupCase("22222", member.userId)).rejects.toMatchObject({ kind: "unavailable" });
    } finally {
      service.close();
    }
    expect(source.hits.length).toBe(before);
  });

  it("answers 400 to a case number that is not 5 to 20 digits", async () => {
    for (const c of ["1234", "12a45", "123456789012345678901", "12345%0A", "%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95"]) {
      const res = await lookup(c);
      expect(res.status, c).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Case number must be 5 to 20 digits." });
    }
  });

  it("limits each user's lookups (429 with Retry-After); another user still gets answers", async () => {
    const other = await loginAs(server, "member");
    for (let i = 0; i < CASE_LOOKUP_RATE_LIMIT.max; i++) expect((await lookup("1234567", other.cookie)).status).toBe(200);
    const refused = await lookup("1234567", other.cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await lookup("1234567")).status).toBe(200);
  });
});

describe("case lookup without a source", () => {
  it("answers only from the table", async () => {
    const server = await startTestServer("sqlite");
    try {
      const { cookie } = await loginAs(server, "member");
      const res = await server.request("/api/cases/22222", { cookie });
      expect(res.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
