import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/platform/schema";
import { SubmissionQueries } from "./queries.server";
import { SubmissionStore } from "../store.server";
import { describeEachDatabase, loginAs, startTestServer, type TestServer } from "../../../../tests/support/test-app";
import { deleteSubmissions, insertApplication, signatureDataUrl } from "../../../../tests/support/submission-fixtures";
import { expectSubmissionListInStep } from "../../../../tests/support/list-index";
import { localIsoDate } from "~/domain/people";
import { SORTS, SOURCES, SUBMISSION_STATUSES, submissionQuerySchema, type SubmissionFilters, type SubmissionsPage } from "../contract";
import { LOADED_TEST_TIMEOUT_MS } from "../../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * The list's own index (migration 0012, decision 008): submission_list and its counts follow
 * every write, a search finds exactly the rows a like over the four tables finds, and every
 * page of every sort and filter is the slice of the whole list in the export's order (the
 * export still reads the four tables themselves).
 */
describeEachDatabase("admin submissions list index", (dialect) => {
  let server: TestServer;
  let admin: { cookie: string };
  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await loginAs(server, "limited_admin", { username: "list-index-admin" });
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  const queries = () => server.services.submissionAdmin.queries;
  const store = () => new SubmissionStore(db(), dialect);
  const inStep = () => expectSubmissionListInStep(db(), dialect);
  const at = (day: number, hour = 12) => new Date(Date.UTC(2024, 2, day, hour)).toISOString();
  const filters = (query: Record<string, string>): SubmissionFilters => submissionQuerySchema.parse(query);
  const clear = async () => {
    for (const table of ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const)
      await deleteSubmissions(
        server.services.database,
        table,
        (await db().selectFrom(table).select("id").execute()).map((r) => r.id),
      );
  };

  describe("kept in step", () => {
    beforeAll(clear);

    it("follows the four public forms, status changes, deletions and a deleted member's application", async () => {
      const created = async (res: Response) => {
        expect(res.status).toBe(201);
        return Number((await res.json()).id);
      };
      const contact = await created(
        await server.request("/api/forms", {
          method: "POST",
          json: { name: "Zoë ÅNGSTRÖM", email: "Zoe.Angstrom@Example.COM", phone: "", subject: "warranty", message: "Is 100%_covered?" },
        }),
      );
      await created(
        await server.request("/api/submit-cpa-request", {
          method: "POST",
          json: { first_name: "Lee", last_name: "Park", email: "LEE@example.com", phone: null, firm_name: "Park & Sons", notes: "Call me" },
        }),
      );
      await created(
        await server.request("/api/submit-material-request", {
          method: "POST",
          json: {
            first_name: "Ana",
            last_name: "Lopez",
            email: "ana@example.com",
            address1: "12 Elm Street",
            city: "Stamford",
            state: "CT",
            zip: "06905",
            materials_requested: "Checklist",
          },
        }),
      );
      const member = await loginAs(server, "member");
      const application = await created(
        await server.request("/api/applications", {
          method: "POST",
          cookie: member.cookie,
          json: {
            amountOfCoverage: "$120,000",
            applicantName: "Dana Reyes",
            dob: "1980-04-12",
            gender: "Female",
            email: "dana@example.com",
            phone: "2035550142",
            todaysDate: localIsoDate(),
            paymentMonthlyBilling: true,
            confirmAccuracy: true,
            applicantSignature: signatureDataUrl(),
          },
        }),
      );
      expect(await db().selectFrom("submissions").select("id").execute()).toHaveLength(4);
      await inStep();

      for (const [table, id, status] of [
        ["contact_messages", contact, "approved"],
        ["applications", application, "in-review"],
        ["applications", application, "completed"],
      ] as const) {
        const res = await server.request("/api/admin/forms", {
          method: "PUT",
          cookie: admin.cookie,
          json: { id: `${SOURCES[table].prefix}${id}`, status },
        });
        expect(res.status).toBe(200);
        await inStep();
      }

      // Submissions are written by the store alone (decision 012): searched as stored.
      expect((await queries().page(filters({ search: "park & sons" }), 1, 25)).total).toBe(1);
      expect((await queries().page(filters({ search: "leona" }), 1, 25)).total).toBe(0);

      // The member's account goes; the application stays, without who sent it.
      await db().deleteFrom("users").where("id", "=", member.userId).execute();
      expect(
        (await db().selectFrom("submissions").select("submitted_by").where("source", "=", "applications").executeTakeFirstOrThrow())
          .submitted_by,
      ).toBeNull();
      await inStep();

      const del = await server.request("/api/admin/forms", {
        method: "DELETE",
        cookie: admin.cookie,
        json: { idsByTable: { contact_messages: [contact], applications: [application] } },
      });
      expect(await del.json()).toMatchObject({ deleted: 2 });
      await inStep();
      const list = (await (await server.request("/api/admin/submissions", { cookie: admin.cookie })).json()) as SubmissionsPage;
      expect(list.pagination.total).toBe(2);
      expect(list.submissions.map((s) => s.applicantName).sort()).toEqual(["Ana Lopez", "Lee Park"]);
    });
  });

  describe("search", () => {
    beforeAll(async () => {
      await clear();
      const add = (name: string, email: string, message: string, day: number) =>
        server.services.submissions.repository.insert("contact", { name, email, phone: null, subject: "Note", message }, at(day));
      await add("Percy 100%_Sure", "MiXeD.Case@Example.COM", "A\\B path", 1);
      await add("Percy 100xxSure", "other@example.com", "plain", 2);
      await add("Zoë ÅNGSTRÖM", "zoe@example.com", 'She said "quoted" twice', 3);
      await add("Ab", "ab@example.com", "x", 4);
      await add("Garcia Garcia", "garcia@example.com", "Ab initio", 5);
      for (const [i, coverage] of ["120000.00", "12000.00", "250000.50"].entries())
        await insertApplication(server.services.database, {
          applicant_name: `Applicant ${i}`,
          email: `applicant${i}@example.net`,
          case_number: `9000${i}`,
          amount_of_coverage: coverage,
          submitted_at: at(6 + i),
        });
      await server.services.submissions.repository.insert(
        "cpa",
        {
          first_name: "Cpa",
          last_name: "Firm",
          email: "cpa@example.org",
          phone: null,
          firm_name: "Ledger & Co 120",
          city: null,
          state: null,
          zip: null,
          notes: null,
          member_id: null,
        },
        at(10),
      );
    });

    // The texts a search can be: any case, the like wildcards and its escape, a double quote
    // (special to FTS5), under three characters (no trigram) and three or more, amounts.
    const SEARCHES = [
      "percy",
      "PERCY 100",
      "mixed.case@EXAMPLE.com",
      "100%_",
      "100_",
      "%",
      "_",
      "%_s",
      "a\\b",
      "\\",
      '"quoted"',
      '"',
      "zoë",
      "ZOË",
      "ångström",
      "ÅNGSTRÖM",
      "ab",
      "Ab",
      "a",
      "garcia",
      "ledger & co 1",
      "$120,000",
      "120000",
      "12000",
      "250000.5",
      "12",
      "120",
      "9000",
      "example",
      "no such text",
    ];

    it("finds, counts and orders the rows a like over the four tables finds, for every kind of text", async () => {
      for (const search of SEARCHES) {
        for (const sort of ["date_desc", "name_asc"] as const) {
          const f = filters({ search, sort });
          const page = await queries().page(f, 1, 100);
          const all = await queries().all(f);
          const key = (r: { source: string; id: number }) => `${r.source}:${r.id}`;
          expect(page.rows.map(key), `${search} ${sort}`).toEqual(all.map(key));
          expect(page.total, search).toBe(all.length);
        }
      }
    });

    it("is case-insensitive and takes %, _ and \\ as themselves", async () => {
      const names = async (search: string) => (await queries().page(filters({ search }), 1, 100)).rows.map((r) => r.applicant_name);
      expect(await names("mixed.case@EXAMPLE.com")).toEqual(["Percy 100%_Sure"]);
      expect(await names("PERCY 100%")).toEqual(["Percy 100%_Sure"]);
      expect(await names("100_")).toEqual([]);
      expect(await names("_")).toEqual(["Percy 100%_Sure"]);
      expect(await names("a\\b")).toEqual(["Percy 100%_Sure"]);
      expect(await names('"QUOTED"')).toEqual(["Zoë ÅNGSTRÖM"]);
      expect(await names("$120,000")).toEqual(["Applicant 0"]);
    });

    it("counts a search's matches on a page past its last", async () => {
      expect(await queries().page(filters({ search: "percy" }), 3, 10)).toEqual({ rows: [], total: 2 });
      expect(await queries().page(filters({ search: "no such text" }), 2, 10)).toEqual({ rows: [], total: 0 });
    });
  });

  describe("pages", () => {
    beforeAll(async () => {
      await clear();
      const repo = server.services.submissions.repository;
      // Ties everywhere: three rows share each instant, names and e-mails repeat across
      // sources, and every status appears.
      const names = ["Avery Stone", "avery stone", "Blake Ho", "Casey Lane"];
      const statuses = SUBMISSION_STATUSES;
      let n = 0;
      for (let i = 0; i < 13; i++) {
        const when = at(1 + (i % 5), 10);
        const name = names[i % names.length];
        const email = `${name.split(" ")[0].toLowerCase()}@example.com`;
        const [first, last] = name.split(" ");
        const person = { first_name: first, last_name: last, email, phone: null, notes: null, member_id: null };
        const ids = [
          ["contact_messages", (await repo.insert("contact", { name, email, phone: null, subject: "S", message: "Tie" }, when)).id],
          ["cpa_requests", (await repo.insert("cpa", { ...person, firm_name: "Tie", city: null, state: null, zip: null }, when)).id],
          [
            "homeowner_material_requests",
            (
              await repo.insert(
                "homeowner",
                { ...person, address1: null, address2: null, city: null, state: null, zip: null, materials_requested: "Tie" },
                when,
              )
            ).id,
          ],
          ["applications", await insertApplication(server.services.database, { applicant_name: name, email, submitted_at: when })],
        ] as const;
        for (const [table, id] of ids) await store().setStatus(table, Number(id), statuses[n++ % statuses.length]);
      }
    });

    it("a search whose many matches are bunched at one end of the order pages the same", async () => {
      // Most rows match, all after the others by name: the first rows of the name order hold
      // fewer matches than their share predicts. By name ascending, the rows the first walk
      // reads hold none (all Adam); the second walk's hold the first pages.
      const repo = server.services.submissions.repository;
      for (let i = 0; i < 25; i++)
        await repo.insert(
          "contact",
          { name: `Adam Other ${i}`, email: `adam${i}@example.com`, phone: null, subject: "S", message: "M" },
          at(9),
        );
      for (let i = 0; i < 300; i++)
        await repo.insert(
          "contact",
          { name: `Zed Bunch ${i}`, email: `zed${i}@example.com`, phone: null, subject: "S", message: "M" },
          at(9),
        );
      const key = (r: { source: string; id: number }) => `${r.source}:${r.id}`;
      for (const sort of ["name_asc", "name_desc", "date_desc"] as const) {
        const f = filters({ search: "bunch", sort });
        const whole = (await queries().all(f)).map(key);
        expect(whole).toHaveLength(300);
        const pages: string[] = [];
        for (let page = 1; page <= 30; page++) pages.push(...(await queries().page(f, page, 10)).rows.map(key));
        expect(pages, sort).toEqual(whole);
      }
      await deleteSubmissions(
        server.services.database,
        "contact_messages",
        (await db().selectFrom("contact_messages").select("id").where("name", "like", "Adam Other%").execute()).map((r) => r.id),
      );
      await deleteSubmissions(
        server.services.database,
        "contact_messages",
        (await db().selectFrom("contact_messages").select("id").where("name", "like", "Zed Bunch%").execute()).map((r) => r.id),
      );
    });

    it("among equal sort keys the newest comes first, whatever the sort's direction", async () => {
      for (const sort of ["name_asc", "name_desc", "status_asc", "type_desc"] as const) {
        const rows = (await queries().page(filters({ sort }), 1, 100)).rows;
        const key = (r: (typeof rows)[number]) =>
          sort.startsWith("name") ? (r.applicant_name ?? "").toLowerCase() : sort.startsWith("status") ? r.status : r.source;
        for (let i = 1; i < rows.length; i++) {
          if (key(rows[i]) === key(rows[i - 1])) expect(rows[i - 1].submitted_at >= rows[i].submitted_at, `${sort} at ${i}`).toBe(true);
        }
      }
    });

    it("reads what a page needs off the list's indexes and counts, and a search through the trigram index", async () => {
      // The queries as the database receives them (with their parameters), on the same connection.
      const statements: string[] = [];
      const native = server.services.database.native;
      const logged = new Kysely<Database>({
        dialect:
          native.dialect === "sqlite" ? new SqliteDialect({ database: native.database }) : new PostgresDialect({ pool: native.pool }),
        log: (event) => void (event.level === "query" && statements.push(`${event.query.sql} ${JSON.stringify(event.query.parameters)}`)),
      });
      const logging = new SubmissionQueries(logged, dialect);
      const sqlOf = async (query: Record<string, string>, page = 1) => {
        statements.length = 0;
        await logging.page(filters(query), page, 10);
        return statements.join("\n");
      };
      // Without filters: the total from the counts, the page off submissions, no source filter.
      let sql = await sqlOf({});
      expect(sql).toMatch(/from "submission_counts"/);
      expect(sql).toMatch(/from "submissions"/);
      expect(sql).not.toMatch(/"source" in/);
      // A type narrows the list by source; the last page is read from the end of the order.
      expect(await sqlOf({ type: "form-request" })).toMatch(dialect === "sqlite" ? /\+source in/ : /"source" in/);
      expect(await sqlOf({})).toMatch(/order by "submitted_at" desc/);
      const last = Math.ceil((await queries().page(filters({}), 1, 10)).total / 10);
      expect(await sqlOf({}, last)).toMatch(/order by "submitted_at" asc/);
      // A search of three characters or more goes through the trigram index: FTS5 on SQLite
      // (with a type or status, counted in the same pass), pg_trgm behind like on PostgreSQL.
      sql = await sqlOf({ search: "tie" });
      if (dialect === "sqlite") {
        expect(sql).toMatch(/submission_search match/);
        expect(await sqlOf({ search: "tie", status: "pending" })).toMatch(/count\(\*\) over \(\)/);
        expect(await sqlOf({ search: "$12,000" })).toMatch(/coverage : /);
      } else {
        expect(sql).not.toMatch(/submission_search/);
        expect(sql).toMatch(/search_text like/);
      }
      // Two characters: no trigram to look up.
      expect(await sqlOf({ search: "ti" })).not.toMatch(/submission_search match/);
    });

    it.runIf(dialect === "sqlite")(
      "on SQLite a filtered page walks the sort's index, never reads a type's every row to sort them",
      async () => {
        // The page statement as SQLite receives it, and the plan SQLite makes of it.
        const pages: Array<{ sql: string; parameters: readonly unknown[] }> = [];
        const native = server.services.database.native;
        if (native.dialect !== "sqlite") return;
        const logged = new Kysely<Database>({
          dialect: new SqliteDialect({ database: native.database }),
          log: (event) => void (event.level === "query" && / limit /.test(event.query.sql) && pages.push(event.query)),
        });
        const planOf = async (query: Record<string, string>) => {
          pages.length = 0;
          await new SubmissionQueries(logged, dialect).page(filters(query), 1, 10);
          expect(
            pages.map((p) => p.sql),
            JSON.stringify(query),
          ).toHaveLength(1);
          const steps = native.database.prepare(`explain query plan ${pages[0].sql}`).all(...(pages[0].parameters as unknown[]));
          return (steps as Array<{ detail: string }>).map((s) => s.detail).join("; ");
        };
        const queries: Array<Record<string, string>> = [
          { type: "membership-application" },
          { type: "form-request" },
          { type: "contact-form", sort: "date_asc" },
          { type: "form-request", sort: "name_asc" },
          { status: "pending", sort: "email_desc" },
          { status: "pending", sort: "type_asc" },
          { status: "pending" },
        ];
        for (const query of queries) {
          const plan = await planOf(query);
          expect(plan, JSON.stringify(query)).toMatch(/USING COVERING INDEX submission_list_/);
          expect(plan, JSON.stringify(query)).not.toMatch(/TEMP B-TREE/);
        }
      },
    );

    it("every page of every sort and filter is the slice of the whole list at that place", async () => {
      const FILTERS: Array<Record<string, string>> = [
        {},
        { status: "pending" },
        { type: "form-request" },
        { type: "membership-application", status: "rejected" },
        { search: "tie" },
        { search: "avery", status: "approved" },
      ];
      const key = (r: { source: string; id: number }) => `${r.source}:${r.id}`;
      for (const sort of SORTS) {
        for (const query of FILTERS) {
          const f = filters({ ...query, sort });
          const whole = (await queries().all(f)).map(key);
          for (const limit of [10, 25]) {
            const pages: string[] = [];
            for (let page = 1; page <= Math.ceil(whole.length / limit) + 1; page++) {
              const answer = await queries().page(f, page, limit);
              expect(answer.total, `${sort} ${JSON.stringify(query)} page ${page}`).toBe(whole.length);
              pages.push(...answer.rows.map(key));
            }
            expect(pages, `${sort} ${JSON.stringify(query)} by ${limit}`).toEqual(whole);
          }
        }
      }
    });
  });
});
