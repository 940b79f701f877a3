import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, startSiblingServer, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import { decodeBody, freePort, startSmtp } from "../../../../tests/support/smtp";
import { SUBMISSION_RATE_LIMIT, SUBMISSION_REJECTED } from "./service.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const contact = {
  name: "  Dana Reyes ",
  email: "dana@example.com",
  phone: "",
  subject: "warranty",
  message: "My water heater failed last night. Is it covered?",
};

const cpa = {
  first_name: "Lee",
  last_name: "Park",
  email: "lee@example.com",
  phone: "(203) 555-0199",
  firm_name: null,
  city: null,
  state: null,
  zip: null,
  notes: "Please send the 2024 premium statement.",
};

const material = {
  first_name: "Ana",
  last_name: "Lopez Garcia",
  email: "ana@example.com",
  phone: null,
  address1: "12 Elm Street",
  address2: "Apt 4",
  city: "Stamford",
  state: "CT",
  zip: "06905",
  materials_requested: "Maintenance checklist",
  notes: null,
};

describeEachDatabase("public forms API", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown) => server.request(path, { method: "POST", json });

  async function expectCreated(res: Response) {
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ success: true, ok: true, id: expect.any(Number), submission: { id: body.id } });
    return body.id as number;
  }

  describe("contact", () => {
    it("POST /api/forms stores a pending contact message, trimmed, blank phone as null", async () => {
      const id = await expectCreated(await post("/api/forms", contact));
      const row = (await server.services.submissions.repository.find("contact", id))!;
      expect(row).toMatchObject({
        name: "Dana Reyes",
        email: "dana@example.com",
        phone: null,
        subject: "warranty",
        message: contact.message,
        status: "pending",
      });
      expect(new Date(row.submitted_at).toISOString()).toBe(row.submitted_at);
      expect(row.updated_at).toBe(row.submitted_at);
    });

    it("POST /api/submit-contact-form is the same endpoint", async () => {
      const id = await expectCreated(await post("/api/submit-contact-form", { ...contact, subject: "feedback", phone: "203-555-0100" }));
      const row = await server.services.submissions.repository.find("contact", id);
      expect(row).toMatchObject({ subject: "feedback", phone: "203-555-0100", status: "pending" });
    });

    it("answers 400 with a message per field and stores nothing", async () => {
      const before = await server.services.submissions.repository.count("contact");
      const res = await post("/api/forms", { name: " ", email: "not-an-email", phone: "call me", subject: "sales", message: "" });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.error).toBe("Please enter your name");
      expect(body.details).toEqual({
        name: "Please enter your name",
        email: "Please enter a valid email address, like name@example.com",
        phone: "Please enter a valid phone number, like (555) 123-4567",
        subject: "Please choose a subject",
        message: "Please enter your message",
      });
      expect(await server.services.submissions.repository.count("contact")).toBe(before);
    });

    it("limits every field's length", async () => {
      const res = await post("/api/forms", { ...contact, name: "x".repeat(121), message: "y".repeat(5001) });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual({
        name: "Name must be at most 120 characters",
        message: "Message must be at most 5000 characters",
      });
    });

    it("answers 400, never 500, for a body that is not an object or not JSON", async () => {
      for (const body of [null, [], "text", 42]) {
        const res = await post("/api/forms", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const res = await server.request("/api/forms", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{oops" });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Request body is not valid JSON" });
    });

    it("refuses a filled bot trap with a 4xx and stores nothing", async () => {
      const before = await server.services.submissions.repository.count("contact");
      const res = await post("/api/forms", { ...contact, website: "http://spam.example" });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: SUBMISSION_REJECTED });
      expect(await server.services.submissions.repository.count("contact")).toBe(before);
    });
  });

  describe("request forms", () => {
    it("POST /api/submit-cpa-request stores the spec's fields", async () => {
      const id = await expectCreated(await post("/api/submit-cpa-request", cpa));
      const row = (await server.services.submissions.repository.find("cpa", id))!;
      expect(row).toMatchObject({ ...cpa, member_id: null, status: "pending" });
    });

    it("POST /api/submit-material-request stores the spec's fields", async () => {
      const id = await expectCreated(await post("/api/submit-material-request", { ...material, member_id: "AHA-1001" }));
      const row = (await server.services.submissions.repository.find("homeowner", id))!;
      expect(row).toMatchObject({ ...material, member_id: "AHA-1001", status: "pending" });
    });

    it("the alternative paths take fullName and memberId and split the name at the first space", async () => {
      const cpaId = await expectCreated(
        await post("/api/cpa-requests", {
          fullName: "  Mary  Ann Smith ",
          email: "mary@example.com",
          phone: "",
          memberId: "AHA123",
          notes: "For my accountant",
        }),
      );
      expect(await server.services.submissions.repository.find("cpa", cpaId)).toMatchObject({
        first_name: "Mary",
        last_name: "Ann Smith",
        email: "mary@example.com",
        phone: null,
        member_id: "AHA123",
        notes: "For my accountant",
        firm_name: null,
        status: "pending",
      });

      const homeId = await expectCreated(
        await post("/api/homeowner-material-requests", {
          fullName: "Cher",
          email: "cher@example.com",
          memberId: null,
          notes: null,
          materials_requested: "Hurricane preparation guide",
        }),
      );
      expect(await server.services.submissions.repository.find("homeowner", homeId)).toMatchObject({
        first_name: "Cher",
        last_name: null,
        member_id: null,
        materials_requested: "Hurricane preparation guide",
        address1: null,
        status: "pending",
      });
    });

    it("answers 400 with field errors on every request path", async () => {
      const cases: [string, unknown, Record<string, string>][] = [
        [
          "/api/submit-cpa-request",
          { ...cpa, first_name: "", email: "" },
          { first_name: "Please enter your first name", email: "Please enter your email address" },
        ],
        ["/api/submit-material-request", { ...material, zip: "123" }, { zip: "Please enter a valid ZIP code, like 06905 or 06905-1234" }],
        [
          "/api/cpa-requests",
          { email: "a@b.co", memberId: "AHA 1" },
          { fullName: "Please enter your full name", memberId: "Membership ID may contain only letters, numbers and dashes" },
        ],
        [
          "/api/homeowner-material-requests",
          { fullName: "Al", email: "a@b.co", materials_requested: "m".repeat(2001) },
          { materials_requested: "Materials requested must be at most 2000 characters" },
        ],
      ];
      for (const [path, body, details] of cases) {
        const res = await post(path, body);
        expect(res.status, path).toBe(400);
        expect((await res.json()).details, path).toEqual(details);
      }
      expect(await server.services.submissions.repository.count("cpa")).toBe(2);
      expect(await server.services.submissions.repository.count("homeowner")).toBe(2);
    });

    it("refuses a filled bot trap on every request path", async () => {
      for (const [path, body] of [
        ["/api/submit-cpa-request", cpa],
        ["/api/submit-material-request", material],
        ["/api/cpa-requests", { fullName: "Bot", email: "bot@example.com" }],
        ["/api/homeowner-material-requests", { fullName: "Bot", email: "bot@example.com" }],
      ] as const) {
        const res = await post(path, { ...body, website: "x" });
        expect(res.status, path).toBe(400);
      }
      expect(await server.services.submissions.repository.count("cpa")).toBe(2);
      expect(await server.services.submissions.repository.count("homeowner")).toBe(2);
    });

    it("has no GET that stores anything", async () => {
      const res = await server.request("/api/submit-cpa-request?first_name=A&email=a@b.co");
      expect(res.status).toBe(404);
    });
  });
});

describeEachDatabase("public forms rate limit", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it(`accepts ${SUBMISSION_RATE_LIMIT.max} submissions per form family in the window, then answers 429`, async () => {
    const post = (path: string, json: unknown) => server.request(path, { method: "POST", json });
    for (let i = 0; i < SUBMISSION_RATE_LIMIT.max; i++) {
      const path = i % 2 ? "/api/forms" : "/api/submit-contact-form";
      expect((await post(path, { ...contact, message: `message ${i}` })).status).toBe(201);
    }
    // Invalid input is answered 400 as before and does not use the allowance.
    expect((await post("/api/forms", { ...contact, email: "" })).status).toBe(400);

    const refused = await post("/api/forms", contact);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/^You have sent several forms in a short time\. Please wait \d+ minutes? and try again/);
    expect(await server.services.submissions.repository.count("contact")).toBe(SUBMISSION_RATE_LIMIT.max);

    // The request forms are a separate family, shared by CPA and material requests and their aliases.
    const paths = ["/api/submit-cpa-request", "/api/submit-material-request", "/api/cpa-requests", "/api/homeowner-material-requests"];
    for (let i = 0; i < SUBMISSION_RATE_LIMIT.max; i++) {
      const path = paths[i % paths.length];
      const body = path.startsWith("/api/submit")
        ? path.includes("cpa")
          ? cpa
          : material
        : { fullName: "Pat Doe", email: "pat@example.com" };
      expect((await post(path, body)).status, `${path} #${i}`).toBe(201);
    }
    for (const path of paths)
      expect((await post(path, { fullName: "Pat Doe", first_name: "Pat", email: "pat@example.com" })).status, path).toBe(429);
  });
});

describeEachDatabase("public forms rate limit under a concurrent burst", (dialect) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // Two instances on one database, behind a proxy so the test chooses the client address.
    a = await startTestServer(dialect, { TRUST_PROXY: "1" });
    b = await startSiblingServer(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it(`stores exactly ${SUBMISSION_RATE_LIMIT.max} of 40 concurrent posts from one address, across instances, and answers the rest 429`, async () => {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await (i % 2 ? b : a).request(i % 3 ? "/api/forms" : "/api/submit-contact-form", {
          method: "POST",
          json: { ...contact, message: `burst ${i}` },
          headers: { "X-Forwarded-For": "198.51.100.7" },
        });
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(SUBMISSION_RATE_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SUBMISSION_RATE_LIMIT.max);
    expect(await a.services.submissions.repository.count("contact")).toBe(SUBMISSION_RATE_LIMIT.max);
    // Another address is not affected.
    const other = await a.request("/api/forms", { method: "POST", json: contact, headers: { "X-Forwarded-For": "198.51.100.8" } });
    expect(other.status).toBe(201);
  });
});

describeEachDatabase("staff notification", (dialect) => {
  describe("with a working mail server", () => {
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let server: TestServer;
    beforeAll(async () => {
      smtp = await startSmtp();
      server = await startTestServer(dialect, {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        NOTIFY_EMAIL: "staff@aha.example",
        MAIL_FROM: "AHA Website <website@aha.example>",
      });
    });
    afterAll(async () => {
      await server.close();
      await smtp.close();
    });

    it("sends one e-mail to staff per new contact message, with its content", async () => {
      const res = await server.request("/api/forms", { method: "POST", json: { ...contact, subject: "billing" } });
      const { id } = await res.json();
      await server.services.submissions.notifier.settled();
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0];
      expect(mail.to).toEqual(["staff@aha.example"]);
      const text = decodeBody(mail.raw);
      expect(text).toContain("Subject: New contact message from Dana Reyes");
      expect(text).toContain("Reply-To: dana@example.com");
      expect(text).toContain("From: AHA Website <website@aha.example>");
      expect(text).toContain(`Reference: contact_${id}`);
      expect(text).toContain("Subject: Billing Inquiry");
      expect(text).toContain(contact.message);
    });

    it("sends one e-mail per request form too", async () => {
      smtp.received.length = 0;
      const res = await server.request("/api/cpa-requests", {
        method: "POST",
        json: { fullName: "Lee Park", email: "lee@example.com", memberId: "AHA77", notes: "Statement for 2024 please" },
      });
      const { id } = await res.json();
      await server.services.submissions.notifier.settled();
      expect(smtp.received).toHaveLength(1);
      const text = decodeBody(smtp.received[0].raw);
      expect(text).toContain("Subject: New CPA request from Lee Park");
      expect(text).toContain(`Reference: cpa_${id}`);
      expect(text).toContain("Membership ID: AHA77");
      expect(text).toContain("Statement for 2024 please");
    });

    it("shows staff the mailing address of a material request", async () => {
      smtp.received.length = 0;
      const res = await server.request("/api/homeowner-material-requests", {
        method: "POST",
        json: {
          fullName: "Ana Lopez",
          email: "ana@example.com",
          materials_requested: "Coverage brochure",
          address1: "12 Elm Street",
          address2: "Apt 4",
          city: "Stamford",
          state: "ct",
          zip: "069051234",
        },
      });
      expect(res.status).toBe(201);
      await server.services.submissions.notifier.settled();
      expect(smtp.received).toHaveLength(1);
      const text = decodeBody(smtp.received[0].raw);
      expect(text).toContain("Address: 12 Elm Street, Apt 4, Stamford CT 06905-1234");
      expect(text).toContain("Coverage brochure");
    });

    it("sends nothing for a refused submission", async () => {
      smtp.received.length = 0;
      expect((await server.request("/api/forms", { method: "POST", json: { ...contact, email: "" } })).status).toBe(400);
      expect((await server.request("/api/forms", { method: "POST", json: { ...contact, website: "x" } })).status).toBe(400);
      await server.services.submissions.notifier.settled();
      expect(smtp.received).toHaveLength(0);
    });
  });

  describe("with the mail server down", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, NOTIFY_EMAIL: "staff@aha.example" });
    });
    afterAll(() => server.close());

    it("still stores the submission and answers 201", async () => {
      const res = await server.request("/api/submit-material-request", { method: "POST", json: material });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      await server.services.submissions.notifier.settled();
      expect(await server.services.submissions.repository.find("homeowner", id)).toMatchObject({
        email: "ana@example.com",
        status: "pending",
      });
    });
  });

  describe("without SMTP_URL", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { NOTIFY_EMAIL: "staff@aha.example" });
    });
    afterAll(() => server.close());

    it("does not try to send", async () => {
      expect(server.services.submissions.notifier.enabled).toBe(false);
      expect((await server.request("/api/forms", { method: "POST", json: contact })).status).toBe(201);
    });
  });
});

describeEachDatabase("the mailing address of a material request", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());
  const post = (path: string, json: unknown) => server.request(path, { method: "POST", json });
  const stored = async (res: Response) => {
    expect(res.status).toBe(201);
    const { id } = await res.json();
    return server.services.submissions.repository.find("homeowner", id);
  };

  it("is optional, stored when given (state upper-cased, 9-digit ZIP with its dash) on both paths", async () => {
    expect(await stored(await post("/api/submit-material-request", { first_name: "Ana", email: "ana@example.com" }))).toMatchObject({
      address1: null,
      address2: null,
      city: null,
      state: null,
      zip: null,
    });
    expect(await stored(await post("/api/submit-material-request", { ...material, state: "ny", zip: "100011234" }))).toMatchObject({
      address1: "12 Elm Street",
      address2: "Apt 4",
      city: "Stamford",
      state: "NY",
      zip: "10001-1234",
    });
    const form = { fullName: "Cher", email: "cher@example.com", address1: " 1 Main St ", city: "Hartford", state: "CT", zip: "06103-0001" };
    expect(await stored(await post("/api/homeowner-material-requests", form))).toMatchObject({
      address1: "1 Main St",
      address2: null,
      city: "Hartford",
      state: "CT",
      zip: "06103-0001",
    });
  });

  it("refuses a state that is not 2 letters and a ZIP that is not 5 or 9 digits", async () => {
    const before = await server.services.submissions.repository.count("homeowner");
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      ["/api/submit-material-request", { ...material, state: "Connecticut" }, { state: "Please enter the 2-letter state code, like CT" }],
      ["/api/submit-material-request", { ...material, state: "C1" }, { state: "Please enter the 2-letter state code, like CT" }],
      ["/api/submit-material-request", { ...material, zip: "1234567" }, { zip: "Please enter a valid ZIP code, like 06905 or 06905-1234" }],
      [
        "/api/homeowner-material-requests",
        { fullName: "Al", email: "a@b.co", state: "c", zip: "06905-12" },
        {
          state: "Please enter the 2-letter state code, like CT",
          zip: "Please enter a valid ZIP code, like 06905 or 06905-1234",
        },
      ],
      [
        "/api/homeowner-material-requests",
        { fullName: "Al", email: "a@b.co", address1: "x".repeat(201) },
        { address1: "Address line 1 must be at most 200 characters" },
      ],
    ];
    for (const [path, body, details] of cases) {
      const res = await post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).details, JSON.stringify(body)).toEqual(details);
    }
    expect(await server.services.submissions.repository.count("homeowner")).toBe(before);
  });
});
