import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  describeEachDatabase,
  loginAs,
  sessionCookieFrom,
  startSiblingServer,
  startTestServer,
  type TestServer,
} from "../../../tests/support/test-app";
import { MAX_UPLOAD_BYTES, MESSAGES, type UploadResponse } from "./contract";
import { REPEAT_WINDOW_MS } from "./import-claims.server";
import { WRITE_CHUNK } from "./members-writer.server";
import { STREAM_CHUNK_BYTES } from "./parse-csv";
import { rawRequest } from "../../../tests/support/raw-http";
import { unclosedQuoteMessage } from "~/platform/csv";
import type { PublicUser } from "~/features/auth/user";
import { LOADED_TEST_TIMEOUT_MS } from "../../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

const HEADER = "certificate_number,birthdate,first_name,last_name,email";

describeEachDatabase("member CSV import API", (dialect) => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  let tagN = 0;
  /** A unique certificate prefix per test, so tests share one database without colliding. */
  const tag = () => `T${++tagN}X`;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ({ cookie: admin, userId: adminId } = await loginAs(server, "limited_admin", { username: `importer${dialect}` }));
  });
  afterAll(() => server.close());

  const db = () => server.services.database.db;
  const uploadJson = async (csvContent: string, opts: { cookie?: string; adminPassword?: string; filename?: string } = {}) => {
    const res = await server.request("/api/upload-users", {
      method: "POST",
      cookie: opts.cookie ?? admin,
      json: {
        csvContent,
        filename: opts.filename ?? "members.csv",
        ...(opts.adminPassword !== undefined ? { adminPassword: opts.adminPassword } : {}),
      },
    });
    return { status: res.status, body: (await res.json()) as UploadResponse };
  };
  const uploadMultipart = async (csv: string | Blob, opts: { cookie?: string; field?: string; adminPassword?: string } = {}) => {
    const form = new FormData();
    form.append(opts.field ?? "csvFile", csv instanceof Blob ? csv : new Blob([csv], { type: "text/csv" }), "members.csv");
    if (opts.adminPassword !== undefined) form.append("adminPassword", opts.adminPassword);
    const res = await server.request("/api/upload-users", { method: "POST", cookie: opts.cookie ?? admin, body: form });
    return { status: res.status, body: (await res.json()) as UploadResponse };
  };
  const memberLogin = (certificate: string, password: string) =>
    server.request("/api/auth/login", { method: "POST", json: { username: certificate, password } }).then((r) => r.status);
  const member = (certificate: string) =>
    db().selectFrom("users").selectAll().where("certificate_number", "=", certificate).executeTakeFirst();
  /** Moves every stored upload answer back past the repeat window: the next upload of a file is a deliberate re-upload. */
  const ageClaims = () =>
    db()
      .updateTable("member_import_claims")
      .set({ finished_at: new Date(Date.now() - REPEAT_WINDOW_MS - 1000).toISOString() })
      .where("finished_at", "is not", null)
      .execute();
  const importAudits = async (filename: string) =>
    (await db().selectFrom("audit_log").selectAll().where("action", "=", "members.import").execute()).filter(
      (e) => JSON.parse(e.details ?? "{}").filename === filename,
    );
  const countUsers = async () =>
    Number(
      (
        await db()
          .selectFrom("users")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe("who may upload", () => {
    it("anonymous 401, member 403, limited_admin and super_admin 200", async () => {
      const t = tag();
      const csv = `${HEADER}\n${t}1,1980-01-15,Ann,Lee,\n`;
      const anon = await server.request("/api/upload-users", { method: "POST", json: { csvContent: csv, filename: "a.csv" } });
      expect(anon.status).toBe(401);
      const memberCookie = (await loginAs(server, "member")).cookie;
      expect((await uploadJson(csv, { cookie: memberCookie })).status).toBe(403);
      expect((await uploadMultipart(csv, { cookie: memberCookie })).status).toBe(403);
      expect(await member(`${t}1`)).toBeUndefined();
      expect((await uploadJson(csv)).status).toBe(200);
      const superCookie = (await loginAs(server, "super_admin")).cookie;
      expect((await uploadMultipart(csv, { cookie: superCookie })).status).toBe(200);
    });
  });

  describe("both request forms and every date format", () => {
    it("JSON: imports all four formats; members sign in with MMDDYY and not with another birthdate", async () => {
      const t = tag();
      const csv = [
        HEADER,
        `${t}1,1980-01-15,Ann,Lee,ann@example.com`,
        `${t}2,02/28/1975,Bo,Ng,`,
        `${t}3,12-31-2001,Cy,,`,
        `${t}4,1999/07/04,,Ruiz,`,
      ].join("\n");
      const { status, body } = await uploadJson(csv);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        success: true,
        message: "Imported 4 users (4 new, 0 updated, 0 unchanged).",
        stats: { total_processed: 4, successful: 4, errors: 0 },
      });
      expect(body.stats.processing_time_seconds).toBeGreaterThanOrEqual(0);
      expect(body.details).toBeUndefined();
      const expected: Array<[string, string, string]> = [
        [`${t}1`, "011580", "011680"],
        [`${t}2`, "022875", "022775"],
        [`${t}3`, "123101", "123102"],
        [`${t}4`, "070499", "070599"],
      ];
      for (const [cert, right, wrong] of expected) {
        expect(await memberLogin(cert, right)).toBe(200);
        expect(await memberLogin(cert.toLowerCase(), wrong)).toBe(401);
      }
      const row = await member(`${t}1`);
      expect(row).toMatchObject({ first_name: "Ann", last_name: "Lee", role: "user", is_active: 1, username: null, password_hash: null });
      expect(row!.birthdate_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(await member(`${t}3`)).toMatchObject({ first_name: "Cy", last_name: null });
    });

    it("multipart: csvFile with quoted fields, CRLF, a BOM and odd header spelling", async () => {
      const t = tag();
      const csv = `\uFEFF Certificate_Number ,BirthDate,FIRST NAME\r\n"${t}1","1970-05-06","Lee, Jr."\r\n\r\n${t}2,5/6/1970,Max\r\n`;
      const { status, body } = await uploadMultipart(csv);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, stats: { total_processed: 2, successful: 2, errors: 0 } });
      expect(await member(`${t}1`)).toMatchObject({ first_name: "Lee, Jr." });
      expect(await memberLogin(`${t}2`, "050670")).toBe(200);
    });

    it("never stores a birthdate in clear text", async () => {
      const t = tag();
      await uploadJson(`${HEADER}\n${t}1,1966-11-22,Ida,Bell,\n`);
      const row = await member(`${t}1`);
      const stored = JSON.stringify(row);
      for (const form of ["1966-11-22", "112266", "11221966", "1966"]) expect(stored).not.toContain(form);
    });
  });

  describe("bad rows", () => {
    it("reports each kind with its line number (header is line 1) and imports the rest", async () => {
      const t = tag();
      const staff = await server.services.auth.createStaff(`staff${t.toLowerCase()}`, "correct horse battery", "super_admin");
      await db()
        .updateTable("users")
        .set({ certificate_number: `${t}STAFF` })
        .where("id", "=", staff.id)
        .execute();
      const csv = [
        HEADER, // 1
        `${t}1,1980-01-15,Ok,One,`, // 2
        `,1980-01-15,No,Cert,`, // 3
        `${t}3,,No,Date,`, // 4
        `${t}4,Jan 5 1980,Bad,Format,`, // 5
        `${t}5,1980-02-30,Not,Real,`, // 6
        `${t}6,2999-01-01,Fut,Ure,`, // 7
        `${t}7,1850-01-01,Too,Old,`, // 8
        `${t.toLowerCase()}1,1981-01-01,Dup,Licate,`, // 9
        `${t}STAFF,1980-01-01,Staff,Account,`, // 10
        `"${t}${"9".repeat(70)}",1980-01-01,Long,Cert,`, // 11
        `"${t}12","1980-01-01",Multi,Line,multi@example.com,"two\nlines"`, // 12-13
        `${t}14,1980-13-01,Bad,Month,`, // 14
      ].join("\n");
      const { status, body } = await uploadJson(csv, { filename: `${t}.csv` });
      expect(status).toBe(200);
      expect(body.stats).toMatchObject({ total_processed: 12, successful: 2, errors: 10 });
      expect(body.stats.processing_time_seconds).toBeGreaterThanOrEqual(0);
      expect(body.stats.processing_time_seconds).toBeLessThan(60);
      // The audit entry counts the staff row among the errors, not among the imported.
      const [audit] = await importAudits(`${t}.csv`);
      expect(audit.row_count).toBe(2);
      expect(JSON.parse(audit.details!)).toMatchObject({ totalProcessed: 12, errors: 10, created: 2 });
      expect(body.message).toBe("Imported 2 users (2 new, 0 updated, 0 unchanged); 10 rows had errors and were skipped.");
      expect(body.details).toEqual([
        "Line 3: certificate_number is missing",
        `Line 4: birthdate is missing for certificate number "${t}3"`,
        'Line 5: birthdate "Jan 5 1980" is not a date in the format YYYY-MM-DD, MM/DD/YYYY, MM-DD-YYYY or YYYY/MM/DD',
        'Line 6: birthdate "1980-02-30" is not a real date',
        'Line 7: birthdate "2999-01-01" is in the future',
        'Line 8: birthdate "1850-01-01" is before 1900',
        `Line 9: certificate number "${t}1" repeats line 2`,
        `Line 10: certificate number "${t}STAFF" belongs to a staff account and cannot be imported`,
        "Line 11: certificate_number is longer than 64 characters",
        'Line 14: birthdate "1980-13-01" is not a real date',
      ]);
      // The staff account is untouched: no digest, its role and password intact.
      const staffRow = await member(`${t}STAFF`);
      expect(staffRow).toMatchObject({ role: "super_admin", birthdate_digest: null, first_name: null });
      expect(await memberLogin(`${t}STAFF`, "010180")).toBe(401);
      expect(await memberLogin(`${t}1`, "011580")).toBe(200); // the first of the duplicates wins
      expect(await member(`${t}12`)).toMatchObject({ first_name: "Multi", last_name: "Line" });
    });

    it("a certificate number may hold letters, digits and - only, through either upload page", async () => {
      for (const upload of [(csv: string) => uploadJson(csv), (csv: string) => uploadMultipart(csv)]) {
        const t = tag();
        const csv = [
          HEADER,
          `${t}-OK-1,1980-01-15,,,`, // 2
          `"${t} 2",1980-01-15,,,`, // 3
          `${t}/3,1980-01-15,,,`, // 4
          `${t}É4,1980-01-15,,,`, // 5
          `<b>${t}</b>,1980-01-15,,,`, // 6
          `${t}_6,1980-01-15,,,`, // 7
        ].join("\n");
        const { status, body } = await upload(csv);
        expect(status).toBe(200);
        expect(body.details).toEqual([
          `Line 3: certificate_number "${t} 2" may contain only letters, digits and -`,
          `Line 4: certificate_number "${t}/3" may contain only letters, digits and -`,
          `Line 5: certificate_number "${t}É4" may contain only letters, digits and -`,
          `Line 6: certificate_number "<B>${t}</B>" may contain only letters, digits and -`,
          `Line 7: certificate_number "${t}_6" may contain only letters, digits and -`,
        ]);
        expect(await member(`${t}-OK-1`)).toBeDefined();
        expect(await db().selectFrom("users").select("id").where("certificate_number", "like", `%${t}%`).execute()).toHaveLength(1);
      }
    });

    it("lists the first 500 row errors and counts them all", async () => {
      const t = tag();
      const rows = Array.from({ length: 503 }, (_, i) => `${t}${i},1980-02-30,,,`);
      const { status, body } = await uploadJson([HEADER, `${t}OK,1980-01-15,,,`, ...rows].join("\n"));
      expect(status).toBe(200);
      expect(body.stats).toMatchObject({ total_processed: 504, successful: 1, errors: 503 });
      expect(body.details).toHaveLength(500);
      expect(body.details![499]).toBe(`Line 502: birthdate "1980-02-30" is not a real date`);
    });

    it("answers 422 when no row can be imported, and 400 for files that are not member lists", async () => {
      const t = tag();
      const none = await uploadJson(`${HEADER}\n${t}1,13/01/1980,,,\n`);
      expect(none.status).toBe(422);
      expect(none.body).toMatchObject({
        success: false,
        error: MESSAGES.noValidRows,
        stats: { total_processed: 1, successful: 0, errors: 1 },
      });
      expect(none.body.details).toEqual(['Line 2: birthdate "13/01/1980" is not a real date']);

      for (const [csv, error] of [
        ["cert,dob\nA,1980-01-01\n", MESSAGES.missingColumns],
        ["", MESSAGES.emptyFile],
        ["certificate_number,birthdate\n", MESSAGES.noRecords],
      ]) {
        const r = await uploadJson(csv);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ success: false, error, message: error, stats: { total_processed: 0 } });
      }
      const multipartBad = await uploadMultipart("cert,dob\nA,1980-01-01\n");
      expect(multipartBad.status).toBe(400);
      expect(multipartBad.body.error).toBe(MESSAGES.missingColumns);
    });

    it("refuses a file with a quoted field left open, naming its line, and imports none of it: rows before it in earlier chunks neither (issue 39)", async () => {
      const t = tag();
      const usersBefore = await countUsers();
      const small = await uploadJson(`${HEADER}\n${t}A,1980-01-01,Ann,,\n${t}B,1980-01-01,"Bo,,\n${t}C,1980-01-01,Cy,,\n`);
      expect(small.status).toBe(400);
      expect(small.body).toMatchObject({ success: false, error: unclosedQuoteMessage(3), message: unclosedQuoteMessage(3) });
      // Rows enough for several streamed chunks and statements before the open quote.
      const rows = [HEADER];
      for (let i = 1; i <= 25_000; i++) rows.push(`${t}N${i},1980-01-01,,,`);
      rows.push(`${t}Q,1980-01-01,"Open,,`, `${t}Z,1980-01-01,,,`);
      expect(rows.join("\n").length).toBeGreaterThan(2 * STREAM_CHUNK_BYTES);
      const large = await uploadMultipart(rows.join("\n"));
      expect(large.status).toBe(400);
      expect(large.body.error).toBe(unclosedQuoteMessage(25_002));
      expect(await countUsers()).toBe(usersBefore);
      expect(await member(`${t}A`)).toBeUndefined();
      expect(await member(`${t}N1`)).toBeUndefined();
    });

    it("refuses malformed requests with a 400 and the answer shape", async () => {
      const bad = async (init: RequestInit) => {
        const res = await server.request("/api/upload-users", { method: "POST", cookie: admin, ...init });
        const body = await res.json();
        return { status: res.status, body };
      };
      expect(await bad({ headers: { "Content-Type": "application/json" }, body: "{nope" })).toMatchObject({
        status: 400,
        body: { success: false },
      });
      expect(
        await bad({ headers: { "Content-Type": "application/json" }, body: JSON.stringify({ csvContent: 5, filename: "a.csv" }) }),
      ).toMatchObject({
        status: 400,
        body: { success: false, error: "csvContent is required", stats: { total_processed: 0 } },
      });
      const wrongField = await uploadMultipart("certificate_number,birthdate\nA,1980-01-01\n", { field: "file" });
      expect(wrongField).toMatchObject({ status: 400, body: { error: 'Unexpected file field "file"; send the file as csvFile' } });
      const noFile = new FormData();
      noFile.append("adminPassword", "x");
      expect(await bad({ body: noFile })).toMatchObject({
        status: 400,
        body: { error: "No file received: send the CSV in the field csvFile" },
      });
      expect(await bad({ headers: { "Content-Type": "multipart/form-data" }, body: "x" })).toMatchObject({
        status: 400,
        body: { error: "Malformed multipart request" },
      });
    });

    it("a multipart body cut off before its closing boundary is a 400, stores nothing, and the server lives on", async () => {
      const before = await countUsers();
      const boundary = "----cut-off-boundary";
      const cert = tag();
      const truncated = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="csvFile"; filename="members.csv"',
        "Content-Type: text/csv",
        "",
        `certificate_number,birthdate\n${cert}1,1980-01-01\n${cert}2,1981-02-02\n`,
      ].join("\r\n");
      for (const body of [truncated, `--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="a.csv"\r\n`]) {
        const res = await server.request("/api/upload-users", {
          method: "POST",
          cookie: admin,
          headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
          body,
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, error: "Malformed multipart request", stats: { total_processed: 0 } });
      }
      expect(await countUsers()).toBe(before);
      expect((await server.request("/healthz")).status).toBe(200);
    });
  });

  describe("re-uploads", () => {
    it("re-uploading the same file changes nothing; a changed birthdate or name is updated", async () => {
      const t = tag();
      const csv = [HEADER, `${t}1,1980-01-15,Ann,Lee,`, `${t}2,1975-02-28,Bo,Ng,`].join("\n");
      expect((await uploadJson(csv)).body.message).toBe("Imported 2 users (2 new, 0 updated, 0 unchanged).");
      const before = await db().selectFrom("users").selectAll().where("certificate_number", "like", `${t}%`).orderBy("id").execute();
      const usersBefore = await countUsers();
      await new Promise((r) => setTimeout(r, 5));
      await ageClaims();
      const again = await uploadMultipart(csv);
      expect(again.body).toMatchObject({
        success: true,
        message: "Imported 2 users (0 new, 0 updated, 2 unchanged).",
        stats: { successful: 2, errors: 0 },
      });
      expect(await db().selectFrom("users").selectAll().where("certificate_number", "like", `${t}%`).orderBy("id").execute()).toEqual(
        before,
      );
      expect(await countUsers()).toBe(usersBefore);

      // New birthdate for 1; 2 without names keeps its names.
      const changed = await uploadJson(`certificate_number,birthdate,first_name\n${t}1,1980-01-16,Annie\n${t}2,1975-02-28,\n`);
      expect(changed.body.message).toBe("Imported 2 users (0 new, 1 updated, 1 unchanged).");
      expect(await memberLogin(`${t}1`, "011680")).toBe(200);
      expect(await memberLogin(`${t}1`, "011580")).toBe(401);
      expect(await member(`${t}1`)).toMatchObject({ first_name: "Annie", last_name: "Lee" });
      expect(await member(`${t}2`)).toMatchObject({ first_name: "Bo", last_name: "Ng", updated_at: before[1].updated_at });
    });
  });

  describe("credentials", () => {
    it("a birthdate changed by the import ends the member's sessions, as Edit does; an unchanged one keeps them (issue 39)", async () => {
      const t = tag();
      expect((await uploadJson([HEADER, `${t}1,1980-01-15,Ann,Lee,`, `${t}2,1975-02-28,Bo,Ng,`].join("\n"))).status).toBe(200);
      const signIn = async (certificate: string, password: string) => {
        const res = await server.request("/api/auth/login", { method: "POST", json: { username: certificate, password } });
        expect(res.status).toBe(200);
        return sessionCookieFrom(res);
      };
      const changedOne = await signIn(`${t}1`, "011580");
      const keptOne = await signIn(`${t}2`, "022875");
      const me = async (cookie: string) => ((await (await server.request("/api/auth/me", { cookie })).json()) as { user: unknown }).user;
      await ageClaims();
      const res = await uploadJson([HEADER, `${t}1,1980-01-16,Ann,Lee,`, `${t}2,1975-02-28,Bo,Ng,`].join("\n"));
      expect(res.body.message).toBe("Imported 2 users (0 new, 1 updated, 1 unchanged).");
      expect(await me(changedOne)).toBeNull();
      expect(await me(keptOne)).not.toBeNull();
    });
  });

  describe("one upload, one import", () => {
    const rowsOf = (t: string, n: number) => [HEADER, ...Array.from({ length: n }, (_, i) => `${t}R${i},1980-01-15,Row,${i},`)].join("\n");

    it("two concurrent posts of the same file import once, write one audit entry, and both answer with the first result", async () => {
      const t = tag();
      const csv = rowsOf(t, 300);
      const usersBefore = await countUsers();
      const [a, b] = await Promise.all([uploadJson(csv, { filename: `twice-${t}.csv` }), uploadJson(csv, { filename: `twice-${t}.csv` })]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      // The one that waited for the other's import gets its result and is told so.
      const [first, repeat] = a.body.repeated ? [b, a] : [a, b];
      expect(first.body.message).toBe("Imported 300 users (300 new, 0 updated, 0 unchanged).");
      expect(first.body.repeated).toBeUndefined();
      expect(repeat.body).toEqual({ ...first.body, repeated: true });
      expect(await countUsers()).toBe(usersBefore + 300);
      expect(await importAudits(`twice-${t}.csv`)).toHaveLength(1);

      // A third post moments later (an impatient click) gets the same first result, said to be one.
      const c = await uploadMultipart(csv);
      expect(c.body).toEqual({ ...first.body, repeated: true });
      expect(await importAudits(`twice-${t}.csv`)).toHaveLength(1);
    });

    it("holds across two instances on one database (JSON to one, multipart to the other)", async () => {
      const t = tag();
      const sibling = await startSiblingServer(server);
      try {
        const csv = rowsOf(t, 200);
        const form = new FormData();
        form.append("csvFile", new Blob([csv], { type: "text/csv" }), `sibling-${t}.csv`);
        const viaSibling = () =>
          sibling
            .request("/api/upload-users", { method: "POST", cookie: admin, body: form })
            .then(async (r) => ({ status: r.status, body: (await r.json()) as UploadResponse }));
        // On SQLite both instances run in this process, each on its own connection to the file.
        // The import gives way to the event loop inside its transaction (issue 48), and a write
        // of the other instance waiting for that lock would sleep the thread both run on
        // (SQLite's busy handler) until busy_timeout: so there the second upload follows the
        // first's answer (an SQLite file has one instance in production). On PostgreSQL they race.
        const [a, b] =
          dialect === "sqlite"
            ? [await uploadJson(csv, { filename: `sibling-${t}.csv` }), await viaSibling()]
            : await Promise.all([uploadJson(csv, { filename: `sibling-${t}.csv` }), viaSibling()]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const [first, repeat] = a.body.repeated ? [b, a] : [a, b];
        expect(repeat.body).toEqual({ ...first.body, repeated: true });
        expect(first.body.message).toBe("Imported 200 users (200 new, 0 updated, 0 unchanged).");
        expect(await importAudits(`sibling-${t}.csv`)).toHaveLength(1);
      } finally {
        await sibling.close();
      }
    });

    it("a deliberate re-upload after the window runs again; another staff member's upload of the same file is their own", async () => {
      const t = tag();
      const csv = rowsOf(t, 3);
      const first = await uploadJson(csv, { filename: `again-${t}.csv` });
      expect(first.body.message).toBe("Imported 3 users (3 new, 0 updated, 0 unchanged).");

      const other = (await loginAs(server, "super_admin")).cookie;
      const theirs = await uploadJson(csv, { cookie: other, filename: `again-${t}.csv` });
      expect(theirs.body.message).toBe("Imported 3 users (0 new, 0 updated, 3 unchanged).");

      await ageClaims();
      const later = await uploadJson(csv, { filename: `again-${t}.csv` });
      expect(later.body.message).toBe("Imported 3 users (0 new, 0 updated, 3 unchanged).");
      expect(await importAudits(`again-${t}.csv`)).toHaveLength(3);
    });

    it("a failed import is not replayed: the retry imports", async () => {
      const t = tag();
      const service = server.services.memberImport;
      const audit = service.audit;
      const csv = rowsOf(t, 2);
      service.audit = {
        record: async () => {
          throw new Error("audit log unavailable");
        },
      };
      try {
        expect((await uploadJson(csv)).status).toBe(500);
      } finally {
        service.audit = audit;
      }
      const retry = await uploadJson(csv);
      expect(retry.status).toBe(200);
      expect(retry.body.message).toBe("Imported 2 users (2 new, 0 updated, 0 unchanged).");
    });
  });

  describe("a failed write", () => {
    it("leaves nothing behind: neither the new rows of earlier chunks nor updates", async () => {
      const t = tag();
      await uploadJson(`${HEADER}\n${t}0,1980-01-15,Keep,Me,\n`);
      const kept = await member(`${t}0`);
      const usersBefore = await countUsers();
      // The database refuses one row of the last chunk, after earlier chunks were written.
      const poison = `${t}POISON`;
      if (dialect === "sqlite") {
        await sql
          .raw(
            `create trigger poison_${t} before insert on users when new.certificate_number = '${poison}' begin select raise(abort, 'poisoned row'); end`,
          )
          .execute(db());
      } else {
        await sql
          .raw(
            `create function poison_${t}() returns trigger language plpgsql as $$ begin if new.certificate_number = '${poison}' then raise exception 'poisoned row'; end if; return new; end $$`,
          )
          .execute(db());
        await sql.raw(`create trigger poison_${t} before insert on users for each row execute function poison_${t}()`).execute(db());
      }
      try {
        // More rows than one statement writes and than one streamed chunk of the file holds:
        // the rows written before the poisoned one are rolled back with it.
        const rows = [HEADER, `${t}0,1999-09-09,Changed,Name,`];
        for (let i = 1; i <= 25_000; i++) rows.push(`${t}N${i},1980-01-01,,,`);
        expect(rows.join("\n").length).toBeGreaterThan(2 * STREAM_CHUNK_BYTES);
        expect(rows.length).toBeGreaterThan(2 * WRITE_CHUNK);
        rows.push(`${poison},1980-01-01,,,`);
        const { status, body } = await uploadJson(rows.join("\n"));
        expect(status).toBe(500);
        expect(body).toMatchObject({
          success: false,
          error: MESSAGES.writeFailed,
          errors: [MESSAGES.writeFailed],
          stats: { successful: 0 },
        });
        expect(await countUsers()).toBe(usersBefore);
        expect(await member(`${t}N1`)).toBeUndefined();
        expect(await member(`${t}0`)).toEqual(kept);
      } finally {
        await sql.raw(`drop trigger poison_${t}${dialect === "postgres" ? " on users" : ""}`).execute(db());
      }
    });

    it("the audit record is written in the import's transaction and sees its rows; if it fails, nothing is kept", async () => {
      const t = tag();
      const service = server.services.memberImport;
      const audit = service.audit;
      const seen: unknown[] = [];
      service.audit = {
        record: async (entry, trx) => {
          if (!trx) throw new Error("recorded outside the import's transaction");
          seen.push({
            actorId: entry.actorId,
            action: entry.action,
            rowCount: entry.rowCount,
            details: entry.details,
            visible: Number(
              (
                await trx
                  .selectFrom("users")
                  .select((eb) => eb.fn.countAll().as("n"))
                  .where("certificate_number", "like", `${t}%`)
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          });
          if (entry.details?.filename === "explode.csv") throw new Error("audit log unavailable");
        },
      };
      try {
        const ok = await uploadJson(`${HEADER}\n${t}1,1980-01-15,,,\n${t}2,bad,,,\n`, { filename: "fine.csv" });
        expect(ok.status).toBe(200);
        expect(seen).toEqual([
          {
            actorId: expect.any(Number),
            action: "members.import",
            rowCount: 1,
            details: { filename: "fine.csv", totalProcessed: 2, errors: 1, created: 1, updated: 0, unchanged: 0, plans: 0 },
            visible: 1,
          },
        ]);
        const failed = await uploadJson(`${HEADER}\n${t}3,1980-01-15,,,\n`, { filename: "explode.csv" });
        expect(failed.status).toBe(500);
        expect(await member(`${t}3`)).toBeUndefined();
      } finally {
        service.audit = audit;
      }
    });

    it("each import is written to the audit log: who, which file, how many rows", async () => {
      const t = tag();
      const ok = await uploadJson(`${HEADER}\n${t}1,1980-01-15,,,\n${t}2,1980-01-16,,,\n${t}3,bad,,,\n`, { filename: `audit-${t}.csv` });
      expect(ok.status).toBe(200);
      const entries = await db().selectFrom("audit_log").selectAll().where("action", "=", "members.import").orderBy("id", "desc").execute();
      const entry = entries.find((e) => JSON.parse(e.details ?? "{}").filename === `audit-${t}.csv`);
      expect(entry).toMatchObject({ actor_label: `importer${dialect}`, row_count: 2 });
      expect(JSON.parse(entry!.details!)).toMatchObject({ totalProcessed: 3, errors: 1, created: 2 });
    });
  });

  describe("a large import beside other requests (issue 48)", () => {
    /** Rows enough for several pieces of the file and several statements. */
    const largeFile = (t: string, last: string[] = []) => {
      const rows = [HEADER];
      for (let i = 1; i <= 25_000; i++) rows.push(`${t}N${i},1980-01-01,,,`);
      rows.push(...last);
      const csv = rows.join("\n");
      expect(csv.length).toBeGreaterThan(2 * STREAM_CHUNK_BYTES);
      expect(rows.length).toBeGreaterThan(10 * WRITE_CHUNK);
      return csv;
    };
    const importing = (csv: string, filename: string) => {
      const actor: PublicUser = {
        id: adminId,
        certificate_number: null,
        username: `importer${dialect}`,
        first_name: null,
        last_name: null,
        admin: true,
        role: "limited_admin",
        is_active: true,
        is_core_admin: false,
      };
      const state = { settled: false };
      const answer = server.services.memberImport.importCsv({ csv, filename, actor }).finally(() => (state.settled = true));
      return { answer, state };
    };
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

    it("gives way between the file's pieces and its statements: the event loop turns while it runs", async () => {
      const t = tag();
      const { answer, state } = importing(largeFile(t), `turns-${t}.csv`);
      // Asked for after the import began: each runs once the import gives way (on SQLite every
      // query resolves at once, so an import that never gives way ends before the first).
      let turns = 0;
      const count = () => {
        if (state.settled) return;
        turns++;
        setImmediate(count);
      };
      setImmediate(count);
      await turn();
      expect(state.settled).toBe(false);
      const { status, body } = await answer;
      expect(status).toBe(200);
      expect(body.stats.successful).toBe(25_000);
      // At least once per statement, not only once at its start.
      expect(turns).toBeGreaterThanOrEqual(Math.floor(25_000 / WRITE_CHUNK));
    });

    it("still imports nothing when the file is refused in a late piece, while other requests read and write between its statements", async () => {
      const t = tag();
      const usersBefore = await countUsers();
      const { answer, state } = importing(largeFile(t, [`${t}Q,1980-01-01,"Open,,`, `${t}Z,1980-01-01,,,`]), `late-${t}.csv`);
      await turn();
      expect(state.settled).toBe(false);
      // Another request's read and write while the import runs: the read sees none of the
      // import's rows, the write is its own and stays when the import is undone.
      const [seen, other] = await Promise.all([
        db().selectFrom("users").select("id").where("certificate_number", "like", `${t}N%`).execute(),
        server.services.auth.users.createMember({ certificate: `${t}OTHER`, birthdateDigest: "x".repeat(64), firstName: "Other" }),
      ]);
      expect(seen).toEqual([]);
      const { status, body } = await answer;
      expect(status).toBe(400);
      expect(body.error).toBe(unclosedQuoteMessage(25_002));
      expect(await countUsers()).toBe(usersBefore + 1);
      expect(await member(`${t}N1`)).toBeUndefined();
      expect(await member(`${t}OTHER`)).toMatchObject({ id: other.id, first_name: "Other" });
      expect(await importAudits(`late-${t}.csv`)).toEqual([]);
    });
  });

  describe("size limit", () => {
    const big = (bytes: number) => {
      const line = "X0000000001,1980-01-15,Firstname,Lastname,someone@example.com\n";
      return HEADER + "\n" + line.repeat(Math.ceil(bytes / line.length));
    };
    it("refuses more than 10MB with 413, JSON and multipart, before importing anything", async () => {
      const usersBefore = await countUsers();
      const csv = big(MAX_UPLOAD_BYTES + 1000);
      const json = await uploadJson(csv);
      expect(json.status).toBe(413);
      expect(json.body).toMatchObject({ success: false, error: MESSAGES.tooLarge, stats: { total_processed: 0 } });
      const multipart = await uploadMultipart(csv);
      expect(multipart.status).toBe(413);
      expect(multipart.body.error).toBe(MESSAGES.tooLarge);
      expect(await countUsers()).toBe(usersBefore);
    });

    it("takes a file of exactly 10MB, JSON and multipart (read, here refused for its header), and refuses one byte more", async () => {
      const first = "not,the,header\n";
      const csv = first + "x".repeat(MAX_UPLOAD_BYTES - first.length);
      expect(Buffer.byteLength(csv)).toBe(MAX_UPLOAD_BYTES);
      for (const { status, body } of [await uploadJson(csv), await uploadMultipart(csv)]) {
        expect(status).toBe(400);
        expect(body.error).not.toBe(MESSAGES.tooLarge);
        expect(body.stats.total_processed).toBe(0);
      }
      // One byte more is too much.
      for (const { status, body } of [await uploadJson(csv + "x"), await uploadMultipart(csv + "x")]) {
        expect(status).toBe(413);
        expect(body.error).toBe(MESSAGES.tooLarge);
      }
    }, 60_000);

    it("accepts a file just under 10MB (its JSON form is larger than 10MB)", async () => {
      const t = tag();
      const lines = [HEADER];
      let size = HEADER.length + 1;
      for (let i = 0; size < MAX_UPLOAD_BYTES - 200; i++) {
        const l = `"${t}${i}","1980-01-15","A ""quoted"" first name padded out to make the line longer","Last",\r`;
        lines.push(l);
        size += l.length + 1;
      }
      const csv = lines.join("\n");
      expect(Buffer.byteLength(csv)).toBeLessThanOrEqual(MAX_UPLOAD_BYTES);
      expect(JSON.stringify({ csvContent: csv }).length).toBeGreaterThan(MAX_UPLOAD_BYTES);
      const { status, body } = await uploadJson(csv);
      expect(status).toBe(200);
      expect(body.stats.successful).toBe(lines.length - 1);
    }, 60_000);
  });

  describe("multipart forms", () => {
    /** A multipart body written by hand: each part its headers and content. */
    const rawForm = async (parts: Array<{ headers: string[]; content: string }>) => {
      const boundary = "----hand-written-boundary";
      const body = parts.map((p) => [`--${boundary}`, ...p.headers, "", p.content].join("\r\n")).join("\r\n") + `\r\n--${boundary}--\r\n`;
      const res = await server.request("/api/upload-users", {
        method: "POST",
        cookie: admin,
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body,
      });
      return { status: res.status, body: (await res.json()) as UploadResponse };
    };
    const file = (csv: string, disposition = 'form-data; name="csvFile"; filename="members.csv"') => ({
      headers: [`Content-Disposition: ${disposition}`, "Content-Type: text/csv"],
      content: csv,
    });
    const field = (name: string, value: string) => ({ headers: [`Content-Disposition: form-data; name="${name}"`], content: value });

    it("ignores a field it does not know, refuses a second file, a third field and an over-long admin password", async () => {
      const t = tag();
      const csv = `${HEADER}\n${t}1,1980-01-15,,,\n`;
      expect(await rawForm([file(csv), field("note", "from the spring list")])).toMatchObject({ status: 200, body: { success: true } });
      expect(await member(`${t}1`)).toBeDefined();
      const one = { status: 400, body: { success: false, error: "Send one CSV file in the field csvFile", stats: { total_processed: 0 } } };
      expect(await rawForm([file(`${HEADER}\n${t}2,1980-01-15,,,\n`), file(csv)])).toMatchObject(one);
      expect(await rawForm([file(`${HEADER}\n${t}3,1980-01-15,,,\n`), field("a", "1"), field("b", "2"), field("c", "3")])).toMatchObject(
        one,
      );
      expect(await rawForm([file(`${HEADER}\n${t}4,1980-01-15,,,\n`), field("adminPassword", "p".repeat(2000))])).toMatchObject({
        status: 400,
        body: { error: "adminPassword is too long" },
      });
      for (const n of [2, 3, 4]) expect(await member(`${t}${n}`)).toBeUndefined();
    });

    it("names a file part without a file name upload.csv, and refuses a file name it cannot take, saying why", async () => {
      const t = tag();
      // Without a file name a part is a file only as application/octet-stream (busboy's rule).
      const unnamed = await rawForm([
        {
          headers: ['Content-Disposition: form-data; name="csvFile"', "Content-Type: application/octet-stream"],
          content: `${HEADER}\n${t}0,1980-01-15,,,\n`,
        },
      ]);
      expect(unnamed).toMatchObject({ status: 200, body: { success: true } });
      expect(await importAudits("upload.csv")).not.toHaveLength(0);
      const text = await rawForm([file(`${HEADER}\n${t}1,1980-01-15,,,\n`, 'form-data; name="csvFile"; filename=""')]);
      expect(text).toMatchObject({ status: 400, body: { error: "No file received: send the CSV in the field csvFile" } });
      // busboy refuses a control character in a part's headers; the name's own rules give details.
      const bell = await rawForm([file(`${HEADER}\n${t}2,1980-01-15,,,\n`, 'form-data; name="csvFile"; filename="a\u0007b.csv"')]);
      expect(bell).toMatchObject({ status: 400, body: { error: "Malformed multipart request" } });
      const long = await rawForm([
        file(`${HEADER}\n${t}2,1980-01-15,,,\n`, `form-data; name="csvFile"; filename="${"n".repeat(300)}.csv"`),
      ]);
      expect(long).toMatchObject({
        status: 400,
        body: { success: false, error: "filename is too long", details: ["_: filename is too long"], stats: { total_processed: 0 } },
      });
      for (const n of [1, 2]) expect(await member(`${t}${n}`)).toBeUndefined();
    });

    it("refuses a body declared over the limit at once, without waiting for it", async () => {
      const boundary = "----declared-too-large";
      const port = Number(new URL(server.url).port);
      const res = await rawRequest(
        port,
        [
          "POST /api/upload-users HTTP/1.1",
          `Host: 127.0.0.1:${port}`,
          `Cookie: ${admin}`,
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          `Content-Length: ${MAX_UPLOAD_BYTES + 128 * 1024}`,
          "Connection: close",
          "",
          `--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="a.csv"\r\n\r\n${HEADER}\n`,
        ].join("\r\n"),
      );
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, error: MESSAGES.tooLarge });
    });
  });

  describe("admin password", () => {
    it("when given, must be the signed-in admin's password (JSON and multipart)", async () => {
      const t = tag();
      const { cookie } = await loginAs(server, "limited_admin", { username: `pw${t.toLowerCase()}` });
      const csv = `${HEADER}\n${t}1,1980-01-15,,,\n`;
      const wrong = await uploadJson(csv, { cookie, adminPassword: "not my password" });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ success: false, error: MESSAGES.wrongAdminPassword });
      const wrongMultipart = await uploadMultipart(csv, { cookie, adminPassword: "not my password" });
      expect(wrongMultipart.status).toBe(403);
      expect(await member(`${t}1`)).toBeUndefined();
      expect((await uploadMultipart(csv, { cookie, adminPassword: "correct horse battery" })).status).toBe(200);
      expect((await uploadJson(csv, { cookie, adminPassword: "correct horse battery" })).status).toBe(200);
      expect((await uploadJson(csv, { cookie, adminPassword: "" })).status).toBe(200); // empty = not given
    });

    it("is throttled like sign-in", async () => {
      const t = tag();
      const { cookie } = await loginAs(server, "limited_admin", { username: `th${t.toLowerCase()}` });
      const csv = `${HEADER}\n${t}1,1980-01-15,,,\n`;
      for (let i = 0; i < 5; i++) expect((await uploadJson(csv, { cookie, adminPassword: `guess-${i}` })).status).toBe(403);
      const blocked = await uploadJson(csv, { cookie, adminPassword: "correct horse battery" });
      expect(blocked.status).toBe(429);
      expect(await member(`${t}1`)).toBeUndefined();
      await db().deleteFrom("rate_limits").where("key", "like", "login_%").execute();
    });
  });
});
