import Papa from "papaparse";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeEachDatabase, loginAs, startSiblingServer, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import { decodeBody, freePort, startSmtp } from "../../../../tests/support/smtp";
import {
  applicationRow,
  deleteSubmissions,
  insertApplication,
  signatureDataUrl,
  submissionIdentity,
} from "../../../../tests/support/submission-fixtures";
import type { AuditEntry } from "~/domain/audit";
import { guardRows } from "../../../../tests/support/row-guard";
import { REPLY_RATE_LIMIT } from "./service.server";
import {
  EXPORT_COLUMNS,
  MESSAGES,
  REPLY_MESSAGES,
  SOURCES,
  SUBMISSION_TABLES,
  type SubmissionDetail,
  type SubmissionSummary,
  type SubmissionsPage,
  type SubmissionTable,
} from "../contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

type Who = { cookie: string; userId: number };

describeEachDatabase("admin submissions API", (dialect) => {
  let server: TestServer;
  let member: Who;
  let limited: Who;
  let boss: Who;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    member = await loginAs(server, "member");
    limited = await loginAs(server, "limited_admin", { username: "limited-subs" });
    boss = await loginAs(server, "super_admin", { username: "boss-subs" });
  });
  afterAll(() => server.close());

  const req = (path: string, init: Parameters<TestServer["request"]>[1] = {}) => server.request(path, init);
  const body = async (res: Response) => (await res.json()) as Record<string, any>;
  const repo = () => server.services.submissions.repository;
  const db = () => server.services.database.db;
  const at = (day: number, hour = 12) => new Date(Date.UTC(2024, 0, day, hour)).toISOString();

  const list = async (query: string, cookie = limited.cookie) => {
    const res = await req(`/api/admin/submissions?${query}`, { cookie });
    expect(res.status, query).toBe(200);
    const page = (await res.json()) as SubmissionsPage;
    expect(page.success).toBe(true);
    return page;
  };
  const ids = (page: SubmissionsPage) => page.submissions.map((s) => s.id);

  async function auditEntries(action: string): Promise<AuditEntry[]> {
    const res = await req(`/api/admin/audit?pageSize=100&action=${action}`, { cookie: boss.cookie });
    expect(res.status).toBe(200);
    return (await body(res)).entries;
  }

  describe("who may call what", () => {
    const endpoints: Array<[string, string, unknown?]> = [
      ["GET", "/api/admin/submissions"],
      ["GET", "/api/admin/submissions/export"],
      ["GET", "/api/admin/submissions/contact_1"],
      ["GET", "/api/admin/forms"],
      ["GET", "/.netlify/functions/admin-forms"],
      ["PUT", "/api/admin/forms", { id: "contact_1", status: "approved" }],
      ["PUT", "/.netlify/functions/admin-forms", { id: "contact_1", status: "approved" }],
      ["DELETE", "/api/admin/forms", { idsByTable: { contact_messages: [1] } }],
      ["DELETE", "/.netlify/functions/admin-forms", { idsByTable: { contact_messages: [1] } }],
      ["POST", "/api/admin/submissions/contact_1/notes", { body: "A note" }],
      ["POST", "/api/admin/submissions/contact_1/reply", { subject: "Re", message: "Hello" }],
      ["PUT", "/api/admin/submissions/contact_1/assignee", { userId: null }],
    ];
    /**
     * The suite's server and one built inside the test: what the routers read when they are
     * built (paths, guards) is then part of what the test runs.
     */
    async function eachInstance(check: (call: typeof req) => Promise<void>) {
      const fresh = await startSiblingServer(server);
      try {
        for (const instance of [server, fresh]) await check((path, init = {}) => instance.request(path, init));
      } finally {
        await fresh.close();
      }
    }
    let contactId: number;
    beforeAll(async () => {
      contactId = (
        await repo().insert("contact", {
          name: "Guarded Person",
          email: "guard@example.com",
          phone: null,
          subject: "General",
          message: "Hello",
        })
      ).id;
      expect(contactId).toBe(1);
    });

    it("anonymous callers get 401 and members 403 from every endpoint, and nothing changes", async () => {
      await eachInstance(async (call) => {
        for (const [method, path, json] of endpoints) {
          const anon = await call(path, { method, json });
          expect(anon.status, `${method} ${path}`).toBe(401);
          expect((await body(anon)).success).toBe(false);
          const asMember = await call(path, { method, json, cookie: member.cookie });
          expect(asMember.status, `${method} ${path}`).toBe(403);
          expect(JSON.stringify(await body(asMember))).not.toContain("guard@example.com");
          expect(asMember.headers.get("cache-control")).toMatch(/no-store/);
        }
      });
      const row = await repo().find("contact", contactId);
      expect(row?.status).toBe("pending");
    });

    it("limited admins and super admins may use every endpoint", async () => {
      await eachInstance(async (call) => {
        for (const who of [limited, boss]) {
          for (const [method, path, json] of endpoints.filter(([m]) => m === "GET")) {
            const res = await call(path, { method, json, cookie: who.cookie });
            expect(res.status, `${method} ${path}`).toBe(200);
            expect(res.headers.get("cache-control")).toMatch(/no-store/);
          }
          const note = await call(`/api/admin/submissions/contact_${contactId}/notes`, {
            method: "POST",
            json: { body: "Seen" },
            cookie: who.cookie,
          });
          expect(note.status).toBe(201);
          const assign = await call(`/api/admin/submissions/contact_${contactId}/assignee`, {
            method: "PUT",
            json: { userId: who.userId },
            cookie: who.cookie,
          });
          expect(await body(assign)).toMatchObject({ success: true, assignedTo: { id: who.userId } });
        }
      });
      for (const who of [limited, boss]) {
        const put = await req("/api/admin/forms", {
          method: "PUT",
          json: { id: `contact_${contactId}`, status: "in-review" },
          cookie: who.cookie,
        });
        expect(put.status).toBe(200);
      }
      const del = await req("/.netlify/functions/admin-forms", {
        method: "DELETE",
        json: { idsByTable: { contact_messages: [contactId] } },
        cookie: limited.cookie,
      });
      expect(await body(del)).toEqual({ success: true, ok: true, deleted: 1 });
      expect(await repo().find("contact", contactId)).toBeUndefined();
    });

    it("refuses a state change from another site", async () => {
      const { id } = await repo().insert("contact", { name: "X", email: "x@example.com", phone: null, subject: "S", message: "M" });
      const res = await req("/api/admin/forms", {
        method: "DELETE",
        json: { idsByTable: { contact_messages: [id] } },
        cookie: boss.cookie,
        headers: { "Sec-Fetch-Site": "cross-site" },
      });
      expect(res.status).toBe(403);
      expect(await repo().find("contact", id)).toBeDefined();
      await deleteSubmissions(
        server.services.database,
        "contact_messages",
        (await db().selectFrom("contact_messages").select("id").execute()).map((r) => r.id),
      );
    });
  });

  describe("the unified list", () => {
    const expected: Record<string, string> = {};
    beforeAll(async () => {
      // 12 of each source, on interleaved days, so pages cross source boundaries.
      for (let i = 1; i <= 12; i++) {
        const c = await repo().insert(
          "contact",
          {
            name: `Contact Person ${i}`,
            email: `contact${i}@example.com`,
            phone: "555-0100",
            subject: "General Inquiry",
            message: `Question number ${i} about membership`,
          },
          at(i * 2, 10),
        );
        const p = await repo().insert(
          "cpa",
          {
            first_name: "Cpa",
            last_name: `Firm${i}`,
            email: `cpa${i}@example.com`,
            phone: null,
            firm_name: `Ledger & Co ${i}`,
            city: "Austin",
            state: "TX",
            zip: "73301",
            notes: null,
            member_id: null,
          },
          at(i * 2, 11),
        );
        const h = await repo().insert(
          "homeowner",
          {
            first_name: "Home",
            last_name: `Owner${i}`,
            email: `home${i}@example.com`,
            phone: "555-0200",
            address1: `${i} Maple Avenue`,
            address2: i === 3 ? "Apartment 4B" : null,
            city: "Denver",
            state: "CO",
            zip: "80202",
            materials_requested: "Brochures",
            notes: null,
            member_id: `MB-${i}`,
          },
          at(i * 2 + 1, 9),
        );
        const a = await insertApplication(server.services.database, {
          applicant_name: `Applicant Number${i}`,
          email: `applicant${i}@example.com`,
          case_number: String(900000 + i),
          amount_of_coverage: `${i}0000.00`,
          submitted_at: at(i * 2 + 1, 15),
          status: i % 2 ? "pending" : "approved",
        });
        expected[`contact_${c.id}`] = "contact";
        expected[`cpa_${p.id}`] = "cpa";
        expected[`homeowner_${h.id}`] = "homeowner";
        expected[`application_${a}`] = "application";
      }
      // Wildcards and odd cases for the search.
      await repo().insert(
        "contact",
        { name: "Percy 100%_Sure", email: "MiXeD.Case@Example.COM", phone: null, subject: "Billing", message: "A\\B path" },
        at(28),
      );
      await repo().insert(
        "contact",
        { name: "Percy 100xxSure", email: "other@example.com", phone: null, subject: "Billing", message: "plain" },
        at(28, 13),
      );
      // A stored date that is not a date: the screen shows 'Recent'.
      await repo().insert(
        "contact",
        { name: "Dateless", email: "dateless@example.com", phone: null, subject: "Other", message: "no date" },
        "not-a-date",
      );
    });

    it("pages the four sources together, newest first, with the unified fields", async () => {
      const first = await list("limit=10");
      expect(first.pagination).toEqual({ page: 1, limit: 10, total: 51, totalPages: 6 });
      expect(first.submissions).toHaveLength(10);
      // 'not-a-date' sorts after every ISO date, so it comes first when newest is first.
      expect(first.submissions[0]).toMatchObject({ applicantName: "Dateless", submissionDate: "not-a-date", status: "pending" });
      const app = first.submissions.find((s) => s.type === "membership-application")!;
      expect(app).toMatchObject({
        id: expect.stringMatching(/^application_\d+$/),
        table: "applications",
        type: "membership-application",
        formType: "Membership Application",
        applicantName: "Applicant Number12",
        applicantEmail: "applicant12@example.com",
        applicantPhone: "5551234567",
        coverageAmount: "120000.00",
        details: "Coverage: $120,000.00 | Case: 900012 | Co-Applicant: Casey Applicant | Beneficiary: Jordan Heir",
        status: "approved",
      });
      // No signature images in the list: pages stay small.
      expect(JSON.stringify(first)).not.toContain("data:image/png");

      const all: SubmissionSummary[] = [];
      for (let page = 1; page <= 6; page++) all.push(...(await list(`limit=10&page=${page}`)).submissions);
      expect(new Set(all.map((s) => s.id)).size).toBe(51);
      const dated = all.filter((s) => s.submissionDate !== "not-a-date").map((s) => s.submissionDate);
      expect(dated).toEqual([...dated].sort().reverse());

      const home = all.find((s) => s.applicantName === "Home Owner3")!;
      expect(home).toMatchObject({
        type: "form-request",
        formType: "Material Request",
        applicantPhone: "555-0200",
        details: "Materials: Brochures | Ship to: 3 Maple Avenue, Apartment 4B, Denver, CO, 80202 | Member ID: MB-3",
      });
      expect(home.coverageAmount).toBeUndefined();
      const cpa = all.find((s) => s.applicantName === "Cpa Firm5")!;
      expect(cpa).toMatchObject({
        id: expect.stringMatching(/^cpa_\d+$/),
        type: "form-request",
        formType: "CPA Request",
        details: "Firm: Ledger & Co 5 | Location: Austin, TX, 73301",
      });
      expect(cpa.applicantPhone).toBeUndefined();
      const contact = all.find((s) => s.applicantName === "Contact Person 1")!;
      expect(contact).toMatchObject({
        type: "contact-form",
        formType: "Contact Form",
        details: "General Inquiry: Question number 1 about membership",
      });
      for (const s of all) expect(expected[s.id] ?? s.id.split("_")[0]).toBe(s.id.split("_")[0]);

      const beyond = await list("limit=10&page=7");
      expect(beyond.submissions).toEqual([]);
      expect(beyond.pagination.total).toBe(51);
    });

    it("searches name, email and details case-insensitively, wildcards taken literally", async () => {
      expect(ids(await list("search=APPLICANT%20number7"))).toHaveLength(1);
      expect((await list("search=mixed.case@example.com")).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
      // Details: a material request's postal address, a CPA firm, an application's case number.
      expect((await list("search=maple%20avenue")).pagination.total).toBe(12);
      expect((await list("search=apartment%204b")).submissions.map((s) => s.applicantName)).toEqual(["Home Owner3"]);
      expect((await list("search=ledger%20%26%20co%2011")).submissions.map((s) => s.applicantName)).toEqual(["Cpa Firm11"]);
      expect((await list("search=900004")).submissions.map((s) => s.applicantName)).toEqual(["Applicant Number4"]);
      // The coverage as the list shows it ($120,000.00) or as typed.
      for (const amount of ["$120,000", "120000", "120,000.00"]) {
        expect(
          (await list(`search=${encodeURIComponent(amount)}`)).submissions.map((s) => s.applicantName),
          amount,
        ).toEqual(["Applicant Number12"]);
      }
      // % and _ match themselves only.
      expect((await list(`search=${encodeURIComponent("100%_")}`)).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
      expect((await list(`search=${encodeURIComponent("%")}`)).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
      expect((await list(`search=${encodeURIComponent("a\\b")}`)).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
      expect((await list("search=%20%20nobody-matches%20")).pagination).toEqual({ page: 1, limit: 25, total: 0, totalPages: 0 });
    });

    it("takes _ in a search as itself, not as any one character", async () => {
      expect((await list(`search=${encodeURIComponent("_")}`)).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
      // "100_" would match "100%" and "100x" if _ were a wildcard.
      expect((await list(`search=${encodeURIComponent("100_")}`)).pagination.total).toBe(0);
      expect((await list(`search=${encodeURIComponent("%_s")}`)).submissions.map((s) => s.applicantName)).toEqual(["Percy 100%_Sure"]);
    });

    it("filters by type and status, together with the search", async () => {
      expect((await list("type=contact-form")).pagination.total).toBe(15);
      const requests = await list("type=form-request&limit=100");
      expect(requests.pagination.total).toBe(24);
      expect(new Set(requests.submissions.map((s) => s.formType))).toEqual(new Set(["CPA Request", "Material Request"]));
      expect((await list("type=membership-application")).pagination.total).toBe(12);
      const approved = await list("status=approved&limit=100");
      expect(approved.pagination.total).toBe(6);
      expect(approved.submissions.every((s) => s.type === "membership-application" && s.status === "approved")).toBe(true);
      expect((await list("status=approved&type=contact-form")).pagination.total).toBe(0);
      expect(
        (await list("status=pending&type=membership-application&search=number1")).submissions.map((s) => s.applicantName).sort(),
      ).toEqual(["Applicant Number1", "Applicant Number11"]);
      expect((await list("status=in-review")).pagination.total).toBe(0);
    });

    it("sorts on the server by date, name, email, type and status", async () => {
      const oldest = await list("sort=date_asc&limit=10&type=form-request");
      expect(oldest.submissions.slice(0, 3).map((s) => s.applicantName)).toEqual(["Cpa Firm1", "Home Owner1", "Cpa Firm2"]);
      const byName = await list("sort=name_asc&type=membership-application&limit=10");
      expect(byName.submissions.slice(0, 3).map((s) => s.applicantName)).toEqual([
        "Applicant Number1",
        "Applicant Number10",
        "Applicant Number11",
      ]);
      const byNameDesc = await list("sort=name_desc&limit=10");
      expect(byNameDesc.submissions.slice(0, 2).map((s) => s.applicantName)).toEqual(["Percy 100xxSure", "Percy 100%_Sure"]);
      const byEmail = await list("sort=email_asc&limit=10");
      expect(byEmail.submissions.slice(0, 2).map((s) => s.applicantEmail)).toEqual(["applicant10@example.com", "applicant11@example.com"]);
      const byType = await list("sort=type_desc&limit=100");
      expect(byType.submissions.slice(0, 12).every((s) => s.type === "membership-application")).toBe(true);
      expect(byType.submissions.at(-1)!.type).toBe("contact-form");
      // Status in workflow order: pending before approved.
      const byStatus = await list("sort=status_desc&type=membership-application&limit=100");
      expect(byStatus.submissions.slice(0, 6).every((s) => s.status === "approved")).toBe(true);
      expect(byStatus.submissions.slice(6).every((s) => s.status === "pending")).toBe(true);
    });

    it("answers bad queries with 400 and a message", async () => {
      const cases: Array<[string, string]> = [
        ["limit=7", "Limit must be one of 10, 25, 50, 100"],
        ["limit=100000", "Limit must be one of 10, 25, 50, 100"],
        ["page=0", "Page must be a whole number of at least 1"],
        ["page=-1", "Page must be a whole number of at least 1"],
        ["page=1e3", "Page must be a whole number of at least 1"],
        ["sort=submitted_at;drop", "Unknown sort"],
        ["status=new", "Status must be all, pending, in-review, approved, rejected, completed"],
        ["type=other", "Type must be all, contact-form, form-request, membership-application"],
        [`search=${"x".repeat(101)}`, "Search must be at most 100 characters"],
        ["search=a%00b", MESSAGES.badCharacters],
        ["search=a&search=b", "Search must be text"],
      ];
      for (const [query, error] of cases) {
        const res = await req(`/api/admin/submissions?${query}`, { cookie: limited.cookie });
        expect(res.status, query).toBe(400);
        expect((await body(res)).error, query).toBe(error);
      }
    });

    it("exports the filtered list as CSV, formula cells neutralised, and audits it without the search text", async () => {
      await repo().insert(
        "contact",
        { name: '=HYPERLINK("http://evil")', email: "formula@example.com", phone: "+1 555 0100", subject: "@SUM(A1)", message: "-2+3" },
        at(29),
      );
      await repo().insert(
        "contact",
        { name: "\tTabbed", email: "formula@example.com", phone: "-5", subject: "\rCR", message: "x" },
        at(29, 14),
      );
      const res = await req("/api/admin/submissions/export?search=FORMULA@example.com&sort=date_asc", { cookie: limited.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="submissions-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const text = await res.text();
      const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data;
      expect(parsed[0]).toEqual([...EXPORT_COLUMNS]);
      expect(parsed).toHaveLength(3);
      const [first, second] = parsed.slice(1);
      expect(first[5]).toBe('\'=HYPERLINK("http://evil")');
      expect(first[7]).toBe("'+1 555 0100");
      expect(first[9]).toBe("'@SUM(A1): -2+3");
      expect(second[5]).toBe("'\tTabbed");
      expect(second[7]).toBe("'-5");
      expect(second[9]).toBe("'\rCR: x");
      expect(first.slice(1, 5)).toEqual(["contact-form", "Contact Form", at(29), "pending"]);
      // A contact message has no coverage: an empty cell.
      expect(first[8]).toBe("");

      const filtered = await req("/api/admin/submissions/export?type=membership-application&status=approved", { cookie: limited.cookie });
      const rows = Papa.parse<string[]>((await filtered.text()).trim()).data.slice(1);
      expect(rows).toHaveLength(6);
      expect(rows.every((r) => r[0].startsWith("application_") && r[4] === "approved")).toBe(true);

      expect((await req("/api/admin/submissions/export?limit=3", { cookie: limited.cookie })).status).toBe(400);

      const [entry] = await auditEntries("submissions.export");
      expect(entry).toMatchObject({
        actor_id: limited.userId,
        row_count: 6,
        details: { type: "membership-application", status: "approved", searched: false },
      });
      const searched = (await auditEntries("submissions.export")).find((e) => e.row_count === 2)!;
      expect(searched.details).toMatchObject({ searched: true });
      expect(JSON.stringify(searched)).not.toMatch(/formula/i);
    });
  });

  describe("one submission, status changes and deletion", () => {
    let appId: number;
    let contactId: number;
    beforeAll(async () => {
      appId = await insertApplication(server.services.database, {
        applicant_name: "Signed Sam",
        co_applicant_signature: null,
        // Not a PNG data URL: never handed to the browser as an image.
        ach_co_applicant_signature: "javascript:alert(1)",
      });
      contactId = (
        await repo().insert("contact", { name: "Status Sue", email: "sue@example.com", phone: null, subject: "Hi", message: "There" })
      ).id;
    });

    it("shows every stored field and the PNG signatures", async () => {
      const res = await req(`/api/admin/submissions/application_${appId}`, { cookie: limited.cookie });
      expect(res.status).toBe(200);
      const answer = await body(res);
      expect(answer.success).toBe(true);
      const s = answer.submission as SubmissionDetail;
      expect(s).toMatchObject({ id: `application_${appId}`, formType: "Membership Application", applicantName: "Signed Sam" });
      const stored = applicationRow();
      const keys = s.fields.map((f) => f.key);
      for (const column of Object.keys(stored).filter((k) => !k.endsWith("_signature") || k === "cc_cardholder_signature")) {
        expect(keys, column).toContain(column);
      }
      expect(keys).toContain("id");
      const field = (key: string) => s.fields.find((f) => f.key === key)!;
      // An application's fields carry the form's labels, "Co-Applicant" spelled one way.
      expect(field("payment_automatic_checking")).toMatchObject({ label: "Automatic Checking", value: true });
      expect(field("co_dob")).toMatchObject({ label: "Co-Applicant Date of Birth" });
      expect(field("co_email")).toMatchObject({ label: "Co-Applicant Email" });
      expect(field("amount_of_coverage")).toMatchObject({ label: "Amount of Coverage" });
      expect(s.fields.filter((f) => /co-?applicant/i.test(f.label)).every((f) => f.label.includes("Co-Applicant"))).toBe(true);
      expect(field("payment_use_credit_card").value).toBe(false);
      expect(field("dob")).toMatchObject({ label: "Applicant Date of Birth", value: "1980-04-02" });
      expect(field("beneficiary_relationship").value).toBe("Child");
      expect(s.signatures.map((g) => [g.key, g.label])).toEqual([
        ["applicant_signature", "Applicant Signature"],
        ["ach_applicant_signature", "ACH Applicant Signature"],
      ]);
      expect(s.signatures[0].dataUrl).toBe(signatureDataUrl(1));
      expect(JSON.stringify(s)).not.toContain("javascript:");
      // Ids are numbers and the status a workflow status on both databases; the member link
      // and the welcome are the membership section's, not fields.
      expect(field("id").value).toBe(appId);
      expect(field("status").value).toBe("pending");
      expect(keys).not.toContain("member_user_id");
      expect(keys).not.toContain("welcome_sent_at");
      expect(s.membership).toEqual({ member: null, welcomeSentAt: null });

      const contact = (await body(await req(`/api/admin/submissions/contact_${contactId}`, { cookie: boss.cookie })))
        .submission as SubmissionDetail;
      expect(contact.fields.map((f) => f.key).sort()).toEqual([
        "email",
        "id",
        "message",
        "name",
        "phone",
        "status",
        "subject",
        "submitted_at",
        "submitted_by",
        "updated_at",
      ]);
      expect(contact.signatures).toEqual([]);
      expect(contact.membership).toBeUndefined();
      // A column without a label of its own is named after itself, in words.
      const label = (key: string) => contact.fields.find((f) => f.key === key)!.label;
      expect([label("subject"), label("updated_at"), label("submitted_by")]).toEqual(["Subject", "Last updated", "Submitted by"]);
      // The application form's labels are an application's only ("Applicant Email").
      expect([label("email"), label("phone")]).toEqual(["Email", "Phone"]);
      expect(contact.fields.find((f) => f.key === "id")!.value).toBe(contactId);
      expect(contact.fields.find((f) => f.key === "submitted_by")!.value).toBeNull();
      expect(contact.replyTo).toBeNull(); // no mail server in this test

      for (const [id, status] of [
        ["contact_999999", 404],
        ["application_0", 400],
        ["members_1", 400],
        ["contact_1e3", 400],
        ["contact_99999999999", 400],
      ] as const) {
        const r = await req(`/api/admin/submissions/${id}`, { cookie: limited.cookie });
        expect(r.status, id).toBe(status);
        expect((await body(r)).error).toBe(status === 404 ? MESSAGES.notFound : MESSAGES.badId);
      }
    });

    it("a status outside the workflow, written by an older version or by hand, reads as pending", async () => {
      const { id } = await repo().insert("contact", {
        name: "Old Olga",
        email: "olga@example.com",
        phone: null,
        subject: "S",
        message: "M",
      });
      // Its submission's status (the kind row holds none since 0031), written past the store.
      const byHand = (status: string) =>
        db().updateTable("submissions").set({ status }).where("source", "=", "contact_messages").where("row_id", "=", id).execute();
      await byHand("archived");
      const shown = (await body(await req(`/api/admin/submissions/contact_${id}`, { cookie: limited.cookie })))
        .submission as SubmissionDetail;
      expect(shown.status).toBe("pending");
      expect(shown.fields.find((f) => f.key === "status")!.value).toBe("pending");
      const legacy = await body(await req("/api/admin/forms", { cookie: limited.cookie }));
      expect(legacy.contact_messages.find((r: Record<string, unknown>) => r.id === id).status).toBe("pending");
      // Back to what the counts hold before the store deletes it.
      await byHand("pending");
      await deleteSubmissions(server.services.database, "contact_messages", [id]);
    });

    it("a request that gave nothing beyond its contact details says so in its details", async () => {
      const cpa = await repo().insert("cpa", {
        first_name: "Bare",
        last_name: "Request",
        email: "bare@example.com",
        phone: null,
        firm_name: null,
        city: null,
        state: null,
        zip: null,
        notes: null,
        member_id: null,
      });
      const detail = (await body(await req(`/api/admin/submissions/cpa_${cpa.id}`, { cookie: limited.cookie })))
        .submission as SubmissionDetail;
      expect(detail.details).toBe("No firm, location or notes given");
      expect(detail.fields.find((f) => f.key === "first_name")!.label).toBe("First name");
      const withMember = await repo().insert("cpa", {
        first_name: "Member",
        last_name: "Request",
        email: "member@example.com",
        phone: null,
        firm_name: null,
        city: null,
        state: null,
        zip: null,
        notes: null,
        member_id: "AHA-77",
      });
      const detail2 = (await body(await req(`/api/admin/submissions/cpa_${withMember.id}`, { cookie: limited.cookie })))
        .submission as SubmissionDetail;
      expect(detail2.details).toBe("Member ID: AHA-77");
      await deleteSubmissions(server.services.database, "cpa_requests", [cpa.id, withMember.id]);
    });

    it("changes a status to any of the five, refuses anything else, and audits it", async () => {
      for (const status of ["in-review", "approved", "rejected", "completed", "pending", "completed"]) {
        const res = await req("/.netlify/functions/admin-forms", {
          method: "PUT",
          json: { id: `application_${appId}`, status },
          cookie: limited.cookie,
        });
        expect(res.status).toBe(200);
        expect(await body(res)).toEqual({ success: true, ok: true, id: `application_${appId}`, status });
      }
      const row = await db()
        .selectFrom("submissions")
        .select(["status", "updated_at", "submitted_at"])
        .where("source", "=", "applications")
        .where("row_id", "=", appId)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("completed");
      expect(row.updated_at! >= row.submitted_at).toBe(true);
      expect((await list("search=signed%20sam")).submissions[0].status).toBe("completed");

      const bad: Array<[unknown, number, string]> = [
        [{ id: `application_${appId}`, status: "done" }, 400, MESSAGES.badStatus],
        [{ id: `application_${appId}`, status: "PENDING" }, 400, MESSAGES.badStatus],
        [{ id: `application_${appId}` }, 400, MESSAGES.badStatus],
        [{ id: appId, status: "approved" }, 400, MESSAGES.badId],
        [{ id: `cases_${appId}`, status: "approved" }, 400, MESSAGES.badId],
        [{ id: "contact_888888", status: "approved" }, 404, MESSAGES.notFound],
        [[], 400, MESSAGES.badBody],
        ["approved", 400, MESSAGES.badBody],
      ];
      for (const [json, status, error] of bad) {
        const res = await req("/api/admin/forms", { method: "PUT", json, cookie: boss.cookie });
        expect(res.status, JSON.stringify(json)).toBe(status);
        const b = await body(res);
        expect(b.error, JSON.stringify(json)).toBe(error);
      }
      const notJson = await req("/api/admin/forms", {
        method: "PUT",
        body: "{",
        headers: { "Content-Type": "application/json" },
        cookie: boss.cookie,
      });
      expect(notJson.status).toBe(400);
      expect(
        (
          await db()
            .selectFrom("submissions")
            .select("status")
            .where("source", "=", "applications")
            .where("row_id", "=", appId)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe("completed");

      const entries = await auditEntries("submissions.status");
      const mine = entries.filter((e) => e.target_label === `application_${appId}`);
      expect(mine).toHaveLength(6);
      expect(mine[0]).toMatchObject({
        actor_id: limited.userId,
        target_type: "submission",
        target_id: appId,
        details: { table: "applications", from: "pending", to: "completed" },
      });
      expect(JSON.stringify(entries)).not.toMatch(/Signed Sam|avery@example\.com/);
    });

    it("the detail shows each status change (from, to, who, when) and the internal notes, oldest first", async () => {
      const contact = await repo().insert("contact", {
        name: "History Hal",
        email: "hal@example.com",
        phone: null,
        subject: "Hi",
        message: "Status?",
      });
      const ref = `contact_${contact.id}`;
      const detail = async () =>
        (await body(await req(`/api/admin/submissions/${ref}`, { cookie: limited.cookie }))).submission as SubmissionDetail;
      expect(await detail()).toMatchObject({ history: [], notes: [] });

      for (const [status, who] of [
        ["in-review", limited],
        ["approved", boss],
      ] as const)
        expect((await req("/api/admin/forms", { method: "PUT", json: { id: ref, status }, cookie: who.cookie })).status).toBe(200);
      const addNote = (json: unknown, cookie = limited.cookie) =>
        req(`/api/admin/submissions/${ref}/notes`, { method: "POST", json, cookie });
      const first = await addNote({ body: "  Called back,\nleft a message.  " });
      expect(first.status).toBe(201);
      expect(await body(first)).toEqual({
        success: true,
        note: {
          id: expect.any(Number),
          kind: "note",
          author: "limited-subs",
          subject: null,
          to: null,
          body: "Called back,\nleft a message.",
          createdAt: expect.any(String),
        },
      });
      expect((await addNote({ body: "Approved after the call." }, boss.cookie)).status).toBe(201);

      const shown = await detail();
      expect(shown.history).toEqual([
        { from: "pending", to: "in-review", by: "limited-subs", at: expect.any(String) },
        { from: "in-review", to: "approved", by: "boss-subs", at: expect.any(String) },
      ]);
      expect(shown.history[0].at <= shown.history[1].at).toBe(true);
      expect(shown.notes.map((n) => [n.kind, n.author, n.body, n.to])).toEqual([
        ["note", "limited-subs", "Called back,\nleft a message.", null],
        ["note", "boss-subs", "Approved after the call.", null],
      ]);
      // Another submission's history and notes stay its own.
      const other = await repo().insert("contact", {
        name: "Other Olga",
        email: "olga@example.com",
        phone: null,
        subject: "Hi",
        message: "x",
      });
      expect(
        ((await body(await req(`/api/admin/submissions/contact_${other.id}`, { cookie: limited.cookie }))).submission as SubmissionDetail)
          .notes,
      ).toEqual([]);
      // Each note is in the audit log, without its text.
      const noted = (await auditEntries("submissions.note")).filter((e) => e.target_label === ref);
      expect(noted.map((e) => [e.actor_id, e.target_type])).toEqual([
        [boss.userId, "submission"],
        [limited.userId, "submission"],
      ]);
      expect(JSON.stringify(noted)).not.toContain("Called back");

      // Refused notes: empty, too long, control characters, not text, an unknown submission; members and anonymous.
      for (const [json, status] of [
        [{ body: "   " }, 400],
        [{ body: "x".repeat(4001) }, 400],
        [{ body: "bell \u0007" }, 400],
        [{ body: 42 }, 400],
        [{}, 400],
        [[], 400],
      ] as const)
        expect((await addNote(json)).status, JSON.stringify(json)).toBe(status);
      expect(
        (await req(`/api/admin/submissions/contact_999999/notes`, { method: "POST", json: { body: "x" }, cookie: boss.cookie })).status,
      ).toBe(404);
      expect((await addNote({ body: "sneaky" }, member.cookie)).status).toBe(403);
      expect((await req(`/api/admin/submissions/${ref}/notes`, { method: "POST", json: { body: "anon" } })).status).toBe(401);
      expect((await detail()).notes).toHaveLength(2);

      // Deleting the submission deletes its notes.
      const identity = await submissionIdentity(db(), "contact_messages", contact.id);
      expect(
        (
          await req("/api/admin/forms", {
            method: "DELETE",
            json: { idsByTable: { contact_messages: [contact.id], cpa_requests: [], homeowner_material_requests: [], applications: [] } },
            cookie: boss.cookie,
          })
        ).status,
      ).toBe(200);
      expect(await db().selectFrom("submission_notes").select("id").where("submission_id", "=", identity).execute()).toEqual([]);
      await deleteSubmissions(server.services.database, "contact_messages", [other.id]);
    });

    it("deletes by idsByTable across tables, counts what was really deleted, and audits ids and counts", async () => {
      const a2 = await insertApplication(server.services.database, { applicant_name: "Delete Me Too" });
      const cpa = (
        await repo().insert("cpa", {
          first_name: "Gone",
          last_name: null,
          email: "gone@example.com",
          phone: null,
          firm_name: null,
          city: null,
          state: null,
          zip: null,
          notes: null,
          member_id: null,
        })
      ).id;
      const keep = (
        await repo().insert("cpa", {
          first_name: "Kept",
          last_name: null,
          email: "kept@example.com",
          phone: null,
          firm_name: null,
          city: null,
          state: null,
          zip: null,
          notes: null,
          member_id: null,
        })
      ).id;
      const res = await req("/api/admin/forms", {
        method: "DELETE",
        json: {
          idsByTable: {
            applications: [appId, a2, 987654],
            cpa_requests: [cpa, cpa],
            contact_messages: [],
            homeowner_material_requests: [],
          },
        },
        cookie: limited.cookie,
      });
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ success: true, ok: true, deleted: 3 });
      expect(await db().selectFrom("applications").select("id").where("id", "in", [appId, a2]).execute()).toEqual([]);
      expect(await repo().find("cpa", cpa)).toBeUndefined();
      expect(await repo().find("cpa", keep)).toBeDefined();
      expect(await repo().find("contact", contactId)).toBeDefined();

      const [entry] = await auditEntries("submissions.delete");
      expect(entry).toMatchObject({ actor_id: limited.userId, row_count: 3 });
      // Only the tables the request named ids of.
      expect(entry.details).toEqual({
        deletedByTable: { applications: 2, cpa_requests: 1 },
        requestedIds: { applications: [appId, a2, 987654], cpa_requests: [cpa] },
      });
      expect(JSON.stringify(entry)).not.toMatch(/Delete Me|gone@/);

      const bad: Array<[unknown, string]> = [
        [{}, "idsByTable must be an object of id lists"],
        [{ idsByTable: {} }, MESSAGES.nothingToDelete],
        [{ idsByTable: { contact_messages: [] } }, MESSAGES.nothingToDelete],
        [{ idsByTable: { contact_messages: ["1"] } }, "Ids must be whole numbers"],
        [{ idsByTable: { contact_messages: [1.5] } }, "Ids must be whole numbers"],
        [{ idsByTable: { contact_messages: [-1] } }, "Ids must be positive"],
        [{ idsByTable: { contact_messages: "1" } }, "Each table's ids must be a list of numbers"],
        [{ idsByTable: { users: [1] } }, expect.any(String)],
        [{ idsByTable: { contact_messages: Array.from({ length: 1001 }, (_, i) => i + 1) } }, MESSAGES.tooMany],
        [
          {
            idsByTable: {
              contact_messages: Array.from({ length: 600 }, (_, i) => i + 1),
              cpa_requests: Array.from({ length: 600 }, (_, i) => i + 1),
            },
          },
          MESSAGES.tooMany,
        ],
      ];
      for (const [json, error] of bad) {
        const r = await req("/.netlify/functions/admin-forms", { method: "DELETE", json, cookie: boss.cookie });
        expect(r.status, JSON.stringify(json).slice(0, 80)).toBe(400);
        expect((await body(r)).error).toEqual(error);
      }
      expect(await repo().find("contact", contactId)).toBeDefined();
      expect(await repo().find("cpa", keep)).toBeDefined();
    });

    it("answers the legacy GET with every row of the four tables in the spec's shape", async () => {
      const appId2 = await insertApplication(server.services.database, {
        applicant_name: "Legacy Lee",
        payment_use_credit_card: 1,
        cc_name_on_card: "Legacy Lee",
      });
      for (const path of ["/api/admin/forms", "/.netlify/functions/admin-forms"]) {
        const res = await req(path, { cookie: limited.cookie });
        expect(res.status).toBe(200);
        const b = await body(res);
        expect(Object.keys(b).sort()).toEqual([
          "applications",
          "contact_messages",
          "cpa_requests",
          "error",
          "homeowner_material_requests",
          "ok",
        ]);
        expect(b.ok).toBe(true);
        expect(b.error).toBeNull();
        const counts = await Promise.all(
          (["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const).map(async (t) =>
            Number(
              (
                await db()
                  .selectFrom(t)
                  .select((eb) => eb.fn.countAll().as("n"))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          ),
        );
        expect([b.contact_messages.length, b.cpa_requests.length, b.homeowner_material_requests.length, b.applications.length]).toEqual(
          counts,
        );
        const lee = b.applications.find((r: Record<string, unknown>) => r.id === appId2);
        expect(lee).toMatchObject({
          applicant_name: "Legacy Lee",
          payment_use_credit_card: true,
          payment_monthly_billing: false,
          status: "pending",
        });
        expect(lee.applicant_signature).toBe(signatureDataUrl(1));
        const sue = b.contact_messages.find((r: Record<string, unknown>) => r.id === contactId);
        expect(sue).toMatchObject({
          name: "Status Sue",
          email: "sue@example.com",
          phone: null,
          subject: "Hi",
          message: "There",
          status: "pending",
        });
        expect(typeof sue.submitted_at).toBe("string");
      }
    });
  });

  describe("rows a change must not touch", () => {
    const GUARDED = [...SUBMISSION_TABLES, "submissions", "audit_log"] as const;
    /** The list row (migration 0012) of a stored submission. */
    const listId = async (table: SubmissionTable, id: number) =>
      Number(
        (await db().selectFrom("submissions").select("id").where("source", "=", table).where("row_id", "=", id).executeTakeFirstOrThrow())
          .id,
      );

    /** Two more rows in each of the four tables, so a change that reaches too far has neighbours to spoil. */
    async function twoRowsInEachTable(label: string): Promise<Record<SubmissionTable, number[]>> {
      const out = {} as Record<SubmissionTable, number[]>;
      for (const n of [1, 2]) {
        const name = `${label} ${n}`;
        const email = `${label.toLowerCase().replace(/\W/g, "")}${n}@example.com`;
        const person = { first_name: label, last_name: String(n), email, phone: null, notes: null, member_id: null };
        const ids: Array<[SubmissionTable, number]> = [
          ["contact_messages", (await repo().insert("contact", { name, email, phone: null, subject: "S", message: "M" }, at(3))).id],
          ["cpa_requests", (await repo().insert("cpa", { ...person, firm_name: null, city: null, state: null, zip: null }, at(3))).id],
          [
            "homeowner_material_requests",
            (
              await repo().insert(
                "homeowner",
                { ...person, address1: null, address2: null, city: null, state: null, zip: null, materials_requested: null },
                at(3),
              )
            ).id,
          ],
          [
            "applications",
            await insertApplication(server.services.database, { applicant_name: name, email, submitted_at: at(3), updated_at: at(3) }),
          ],
        ];
        for (const [table, id] of ids) (out[table] ??= []).push(Number(id));
      }
      return out;
    }

    it("a status change rewrites that one submission's status and updated_at, of each of the four kinds, and appends one audit entry", async () => {
      const rows = await twoRowsInEachTable("Status Guard");
      for (const table of SUBMISSION_TABLES) {
        const [target] = rows[table];
        const guard = await guardRows(db(), GUARDED);
        const res = await req("/api/admin/forms", {
          method: "PUT",
          json: { id: `${SOURCES[table].prefix}${target}`, status: "rejected" },
          cookie: limited.cookie,
        });
        expect(res.status, table).toBe(200);
        // The kind's row holds no status (0031): only its submission changes.
        const changes = await guard.expectChanges({
          submissions: { changed: [await listId(table, target)], columns: ["status", "status_rank", "updated_at"] },
          audit_log: { added: 1 },
        });
        expect(changes.submissions.changed[0].after.status).toBe("rejected");
        expect(changes.audit_log.added[0]).toMatchObject({ action: "submissions.status", target_id: target });
      }
    });

    it("a bulk delete removes exactly the listed rows of each table and appends one audit entry", async () => {
      const rows = await twoRowsInEachTable("Delete Guard");
      const listed = [await listId("applications", rows.applications[0]), await listId("contact_messages", rows.contact_messages[1])];
      const guard = await guardRows(db(), GUARDED);
      const res = await req("/api/admin/forms", {
        method: "DELETE",
        json: { idsByTable: { applications: [rows.applications[0]], contact_messages: [rows.contact_messages[1]], cpa_requests: [] } },
        cookie: limited.cookie,
      });
      expect(await body(res)).toEqual({ success: true, ok: true, deleted: 2 });
      await guard.expectChanges({
        applications: { removed: [rows.applications[0]] },
        contact_messages: { removed: [rows.contact_messages[1]] },
        submissions: { removed: listed },
        audit_log: { added: 1 },
      });
    });

    it("a refused or missed change touches no row", async () => {
      const rows = await twoRowsInEachTable("Refused Guard");
      const guard = await guardRows(db(), GUARDED);
      const attempts: Array<[string, unknown, number]> = [
        ["PUT", { id: "application_987654", status: "approved" }, 404],
        ["PUT", { id: `application_${rows.applications[0]}`, status: "done" }, 400],
        ["DELETE", { idsByTable: { applications: [987654] } }, 200],
        ["DELETE", { idsByTable: { applications: [rows.applications[0], -1] } }, 400],
      ];
      for (const [method, json, status] of attempts) {
        const res = await req("/api/admin/forms", { method, json, cookie: boss.cookie });
        expect(res.status, JSON.stringify(json)).toBe(status);
      }
      // The delete that matched nothing is still audited (asked for, 0 deleted); nothing else is written.
      const changes = await guard.expectChanges({ audit_log: { added: 1 } });
      expect(changes.audit_log.added[0]).toMatchObject({ action: "submissions.delete", row_count: 0 });
    });
  });
});

describeEachDatabase("replying to a submission by e-mail", (dialect) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;
  let staff: Who;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(dialect, {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CONTACT_EMAIL: "help@aha.example",
      ORG_NAME: "AHA Test",
    });
    staff = await loginAs(server, "limited_admin", { username: "replier" });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it("sends the reply to the sender, keeps it with the notes and in the audit log; refuses what it cannot send", async () => {
    const row = await server.services.submissions.repository.insert("contact", {
      name: "Reply Rita",
      email: "rita@example.com",
      phone: null,
      subject: "Claims",
      message: "Is my roof covered?",
    });
    const ref = `contact_${row.id}`;
    const detail = async () =>
      (await (await server.request(`/api/admin/submissions/${ref}`, { cookie: staff.cookie })).json()).submission as SubmissionDetail;
    expect((await detail()).replyTo).toBe("rita@example.com");
    const reply = (json: unknown, cookie = staff.cookie) =>
      server.request(`/api/admin/submissions/${ref}/reply`, { method: "POST", json, cookie });

    const sent = await reply({ subject: " Your roof claim ", message: "Hello Rita,\nyes, it is covered.\n\nAHA" });
    expect(sent.status).toBe(201);
    const answer = await sent.json();
    expect(answer.success).toBe(true);
    expect(answer.note).toMatchObject({
      kind: "reply",
      author: "replier",
      subject: "Your roof claim",
      to: "rita@example.com",
    });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(["rita@example.com"]);
    const raw = decodeBody(smtp.received[0].raw);
    expect(raw).toMatch(/^From: AHA Test <help@aha\.example>$/m);
    expect(raw).toMatch(/^Reply-To: help@aha\.example$/m);
    expect(raw).toMatch(/^Subject: Your roof claim$/m);
    expect(raw).toContain("yes, it is covered.");

    const shown = await detail();
    expect(shown.notes).toEqual([
      {
        id: expect.any(Number),
        kind: "reply",
        author: "replier",
        subject: "Your roof claim",
        to: "rita@example.com",
        body: "Hello Rita,\nyes, it is covered.\n\nAHA",
        createdAt: expect.any(String),
      },
    ]);
    const audit = await server.services.database.db.selectFrom("audit_log").selectAll().where("action", "=", "submissions.reply").execute();
    expect(audit.map((a) => [a.target_type, a.target_label])).toEqual([["submission", ref]]);
    expect(JSON.stringify(audit)).not.toContain("covered");

    // A header cannot be smuggled in, empty or oversized mail is refused, members and anonymous are refused.
    for (const json of [
      { subject: "Hi\r\nBcc: victim@example.com", message: "x" },
      { subject: "", message: "x" },
      { subject: "Hi", message: "   " },
      { subject: "x".repeat(201), message: "x" },
      { subject: "Hi", message: "x".repeat(10_001) },
      { subject: "Hi" },
      [],
    ])
      expect((await reply(json)).status, JSON.stringify(json)).toBe(400);
    expect((await reply({ subject: "Hi", message: "x" }, (await loginAs(server, "member")).cookie)).status).toBe(403);
    expect(
      (await server.request(`/api/admin/submissions/${ref}/reply`, { method: "POST", json: { subject: "Hi", message: "x" } })).status,
    ).toBe(401);
    expect(
      (
        await server.request(`/api/admin/submissions/contact_999999/reply`, {
          method: "POST",
          json: { subject: "Hi", message: "x" },
          cookie: staff.cookie,
        })
      ).status,
    ).toBe(404);
    expect(smtp.received).toHaveLength(1);
    expect((await detail()).notes).toHaveLength(1);
  });

  it("replies to the address as written without its spaces, and not at all to a blank one", async () => {
    const insert = (email: string) =>
      server.services.submissions.repository.insert("contact", { name: "Spacey", email, phone: null, subject: "S", message: "M" });
    const spaced = await insert("  spaced@example.com ");
    const blank = await insert("   ");
    const detailOf = async (id: number) =>
      (await (await server.request(`/api/admin/submissions/contact_${id}`, { cookie: staff.cookie })).json())
        .submission as SubmissionDetail;
    expect((await detailOf(spaced.id)).replyTo).toBe("spaced@example.com");
    expect((await detailOf(blank.id)).replyTo).toBeNull();
    const before = smtp.received.length;
    const toBlank = await server.request(`/api/admin/submissions/contact_${blank.id}/reply`, {
      method: "POST",
      json: { subject: "Hi", message: "x" },
      cookie: staff.cookie,
    });
    expect(toBlank.status).toBe(409);
    expect((await toBlank.json()).error).toBe(REPLY_MESSAGES.noAddress);
    const toSpaced = await server.request(`/api/admin/submissions/contact_${spaced.id}/reply`, {
      method: "POST",
      json: { subject: "Hi", message: "x" },
      cookie: staff.cookie,
    });
    expect(toSpaced.status).toBe(201);
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([["spaced@example.com"]]);
  });

  it("40 replies at once: a few per submission and per staff member reach the mail server, the rest get 429 and a message", async () => {
    const insert = (i: number) =>
      server.services.submissions.repository.insert("contact", {
        name: `Flood ${i}`,
        email: `flood${i}@example.com`,
        phone: null,
        subject: "S",
        message: "M",
      });
    const post = (ref: string, cookie: string) =>
      server.request(`/api/admin/submissions/${ref}/reply`, { method: "POST", json: { subject: "Hi", message: "x" }, cookie });
    const settle = async (answers: Response[]) => {
      const statuses = answers.map((r) => r.status).sort();
      const refused = answers.filter((r) => r.status === 429);
      for (const r of refused) {
        expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await r.json()).error).toMatch(/^Too many e-mails in a short time\. Please wait \d+ seconds? and send it again\.$/);
      }
      return statuses;
    };

    // One submission, two staff members: the submission's count holds.
    const target = await insert(0);
    const [first, second] = [
      await loginAs(server, "limited_admin", { username: "flooder-a" }),
      await loginAs(server, "super_admin", { username: "flooder-b" }),
    ];
    let before = smtp.received.length;
    const oneSubmission = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(`contact_${target.id}`, (i % 2 ? first : second).cookie)),
    );
    const perSubmission = REPLY_RATE_LIMIT.perSubmission;
    expect(await settle(oneSubmission)).toEqual([...Array(perSubmission).fill(201), ...Array(40 - perSubmission).fill(429)]);
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual(Array(perSubmission).fill(["flood0@example.com"]));
    const kept = await server.services.database.db
      .selectFrom("submission_notes")
      .select("id")
      .where("submission_id", "=", await submissionIdentity(server.services.database.db, "contact_messages", target.id))
      .execute();
    expect(kept).toHaveLength(perSubmission);

    // One staff member, 40 submissions: the staff member's count holds.
    const flooder = await loginAs(server, "limited_admin", { username: "flooder-c" });
    const targets = await Promise.all(Array.from({ length: 40 }, (_, i) => insert(i + 1)));
    before = smtp.received.length;
    const oneStaff = await Promise.all(targets.map((t) => post(`contact_${t.id}`, flooder.cookie)));
    const perStaff = REPLY_RATE_LIMIT.perStaff;
    expect(await settle(oneStaff)).toEqual([...Array(perStaff).fill(201), ...Array(40 - perStaff).fill(429)]);
    expect(smtp.received.length - before).toBe(perStaff);
  });

  it("a mail server that refuses answers 502 and keeps nothing; without SMTP_URL there is no reply", async () => {
    const down = await startSiblingServer(server, {}, { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    const off = await startSiblingServer(server, {}, { SMTP_URL: undefined });
    try {
      const row = await server.services.submissions.repository.insert("contact", {
        name: "Down Dan",
        email: "dan@example.com",
        phone: null,
        subject: "x",
        message: "y",
      });
      const ref = `contact_${row.id}`;
      const failed = await down.request(`/api/admin/submissions/${ref}/reply`, {
        method: "POST",
        json: { subject: "Hi", message: "x" },
        cookie: staff.cookie,
      });
      expect(failed.status).toBe(502);
      expect((await failed.json()).error).toBe(REPLY_MESSAGES.notSent);
      expect(
        await server.services.database.db.selectFrom("submission_notes").select("id").where("submission_id", "=", row.id).execute(),
      ).toEqual([]);

      expect(
        ((await (await off.request(`/api/admin/submissions/${ref}`, { cookie: staff.cookie })).json()).submission as SubmissionDetail)
          .replyTo,
      ).toBeNull();
      const refused = await off.request(`/api/admin/submissions/${ref}/reply`, {
        method: "POST",
        json: { subject: "Hi", message: "x" },
        cookie: staff.cookie,
      });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error).toBe(REPLY_MESSAGES.mailOff);
    } finally {
      await down.close();
      await off.close();
    }
  });
});

describeEachDatabase("the legacy admin-forms GET when the submissions cannot be read", (dialect) => {
  let server: TestServer;
  let staff: Who;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    staff = await loginAs(server, "limited_admin", { username: "legacy-reader" });
    await server.services.submissions.repository.insert("contact", {
      name: "Hidden Hal",
      email: "hal@example.com",
      phone: null,
      subject: "Hi",
      message: "There",
    });
    // One of the four tables gone: the read fails as a whole.
    await sql`alter table cpa_requests rename to cpa_requests_gone`.execute(server.services.database.db);
  });
  afterAll(() => server.close());

  it("answers 500 in the spec's shape, every list empty, and keeps it out of caches", async () => {
    for (const path of ["/api/admin/forms", "/.netlify/functions/admin-forms"]) {
      const res = await server.request(path, { cookie: staff.cookie });
      expect(res.status).toBe(500);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(await res.json()).toEqual({
        ok: false,
        error: "Failed to load submissions",
        contact_messages: [],
        cpa_requests: [],
        homeowner_material_requests: [],
        applications: [],
      });
    }
  });
});
