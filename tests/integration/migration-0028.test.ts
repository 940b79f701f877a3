import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/platform/db.server";
import { migrations } from "../../app/platform/migrations/index";
import { createPgSchema, whileNoSchemaIsDropped } from "../support/pg-schema";
import * as modules from "../support/server-modules";
import { applicationRow } from "../support/submission-fixtures";
import { describeEachDatabase, serve, sessionCookieFrom, type TestServer } from "../support/test-app";
import { LOADED_TEST_TIMEOUT_MS } from "../support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/*
 * Migration 0028 (one identity for a submission) on a site that holds submissions of every
 * kind, same-numbered rows in different tables among them, with notes, replies, assignments,
 * status history and an application linked to a member: every answer of the admin API (list
 * pages, sorts, filters, searches, each detail, the export, the legacy admin-forms answer)
 * and the member's account view is the same after the migration as before it.
 *
 * "Before" is what the code of the last version without 0028 answered on this very data,
 * recorded in tests/fixtures/migration-0028-answers.json (RECORD_0028_ANSWERS=1 writes it; run that on the
 * older version). The data is written with the schema as 0027 left it, so this file keeps
 * building the same database whatever later versions make of these tables.
 */
const ANSWERS = path.join(__dirname, "../fixtures/migration-0028-answers.json");
const BEFORE = "0028";

const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 2, day, hour)).toISOString();

async function seed(db: Kysely<any>, server: TestServer) {
  const { auth } = server.services;
  const ann = await auth.createStaff("ann-0028", "correct horse battery", "limited_admin");
  const bob = await auth.createStaff("bob-0028", "correct horse battery", "super_admin");
  const member = await auth.users.createMember({
    certificate: "C0028",
    birthdateDigest: auth.digestBirthdate("1980-01-15"),
    firstName: "Pat",
    lastName: "Member",
  });
  const memberId = Number(member.id);

  const statuses = ["pending", "in-review", "approved", "rejected", "completed"];
  const row = (i: number) => ({ id: i, status: statuses[i % 5], submitted_at: at(i), updated_at: at(i, 13) });
  for (let i = 1; i <= 4; i++) {
    await db
      .insertInto("contact_messages")
      .values({
        ...row(i),
        name: `Contact Person ${i}`,
        email: `Contact${i}@Example.com`,
        phone: i % 2 ? `555000${i}` : null,
        subject: i === 2 ? "Twins" : `Subject ${i}`,
        message: `Message ${i}, with "quotes" and =formula`,
        submitted_by: i === 3 ? memberId : null,
      })
      .execute();
    await db
      .insertInto("cpa_requests")
      .values({
        ...row(i + 4),
        id: i,
        first_name: i === 4 ? "Émile" : "Cpa",
        last_name: i === 1 ? null : `Person ${i}`,
        email: `cpa${i}@example.com`,
        phone: null,
        firm_name: i === 1 ? null : `Firm ${i}`,
        city: i === 2 ? "Springfield" : null,
        state: i === 2 ? "IL" : null,
        zip: null,
        notes: i === 2 ? "Twins too" : null,
        member_id: i === 3 ? "M-3" : null,
        submitted_by: i === 2 ? memberId : null,
      })
      .execute();
  }
  for (let i = 1; i <= 3; i++) {
    await db
      .insertInto("homeowner_material_requests")
      .values({
        ...row(i + 8),
        id: i,
        first_name: "Home",
        last_name: `Owner ${i}`,
        email: `home${i}@example.com`,
        phone: "5551112222",
        address1: i === 1 ? null : `${i} Elm St`,
        address2: null,
        city: i === 1 ? null : "Shelbyville",
        state: null,
        zip: i === 1 ? null : "62565",
        materials_requested: i === 1 ? null : "Brochures",
        notes: null,
        member_id: null,
        submitted_by: null,
      })
      .execute();
    await db
      .insertInto("applications")
      .values(
        applicationRow({
          ...row(i + 11),
          id: i,
          applicant_name: `Applicant ${i}`,
          email: `applicant${i}@example.com`,
          amount_of_coverage: `${i * 125000}.00`,
          submitted_by: i === 1 ? memberId : null,
          todays_date: "2025-03-01",
        } as never),
      )
      .execute();
  }
  // Application 2 became the member's membership (the link both ways).
  await db
    .updateTable("applications")
    .set({ member_user_id: memberId, welcome_sent_at: at(20) })
    .where("id", "=", 2)
    .execute();
  await db.updateTable("users").set({ application_id: 2 }).where("id", "=", memberId).execute();

  // Notes and replies: number 2 has some in three tables; one note belongs to a deleted message.
  const note = (table: string, id: number, body: string, day: number, kind = "note", subject: string | null = null) => ({
    submission_table: table,
    submission_id: id,
    author_id: Number(ann.id),
    author_label: "ann-0028",
    kind,
    subject,
    body,
    created_at: at(day, 15),
  });
  await db
    .insertInto("submission_notes")
    .values([
      note("contact_messages", 2, "Contact two's note", 21),
      note("cpa_requests", 2, "CPA two's note", 21),
      note("cpa_requests", 2, "We got it", 22, "reply", "Your request"),
      note("applications", 2, "Member made", 22),
      note("contact_messages", 99, "A deleted message's note", 22),
    ])
    .execute();
  const assign = (table: string, id: number, userId: number) => ({
    submission_table: table,
    submission_id: id,
    user_id: userId,
    assigned_by: Number(bob.id),
    assigned_at: at(21, 16),
  });
  await db
    .insertInto("submission_assignments")
    .values([
      assign("contact_messages", 2, Number(ann.id)),
      assign("cpa_requests", 2, Number(bob.id)),
      assign("homeowner_material_requests", 1, Number(ann.id)),
      assign("applications", 3, Number(ann.id)),
    ])
    .execute();

  // Status history: two changes of contact_2, one of cpa_2, one of application_1, and one
  // recorded before contact_1 was submitted (not its history).
  const change = (ref: string, table: string, from: string, to: string, day: number) => ({
    created_at: at(day, 17),
    actor_id: Number(bob.id),
    actor_label: "bob-0028",
    action: "submissions.status",
    target_type: "submission",
    target_id: Number(ref.split("_").pop()),
    target_label: ref,
    row_count: null,
    details: JSON.stringify({ table, from, to }),
  });
  await db
    .insertInto("audit_log")
    .values([
      change("contact_2", "contact_messages", "pending", "in-review", 23),
      change("contact_2", "contact_messages", "in-review", "approved", 24),
      change("cpa_2", "cpa_requests", "pending", "rejected", 23),
      change("application_1", "applications", "pending", "approved", 23),
      change("contact_1", "contact_messages", "pending", "completed", 0),
    ])
    .execute();
}

const LISTS = [
  "",
  "?limit=5",
  "?limit=10",
  "?limit=10&page=2",
  "?limit=10&page=3",
  "?sort=date_asc",
  "?sort=name_asc",
  "?sort=name_desc&limit=10&page=2",
  "?sort=email_asc",
  "?sort=email_desc",
  "?sort=type_asc",
  "?sort=type_desc&limit=10&page=2",
  "?sort=status_asc",
  "?sort=status_desc",
  "?type=contact-form",
  "?type=form-request&sort=name_asc",
  "?type=membership-application",
  "?status=approved",
  "?status=pending&type=form-request",
  "?search=twins",
  "?search=person%202",
  "?search=%24250%2C000",
  "?search=example.com&limit=10&page=2",
  "?search=%C3%A9mile",
  "?search=%C3%89mile",
  "?search=no-such-text",
  "?assigned=me",
  "?assigned=me&sort=name_asc",
  "?assigned=me&search=home",
  "?assigned=me&status=in-review",
];
const REFS = [
  ...[1, 2, 3, 4].flatMap((i) => [`contact_${i}`, `cpa_${i}`]),
  ...[1, 2, 3].flatMap((i) => [`homeowner_${i}`, `application_${i}`]),
  "contact_99",
];
const EXPORTS = ["", "?sort=name_asc", "?type=form-request", "?search=twins", "?assigned=me"];

async function answers(server: TestServer) {
  const login = async (json: object) => sessionCookieFrom(await server.request("/api/auth/login", { method: "POST", json }));
  const staff = {
    ann: await login({ username: "ann-0028", password: "correct horse battery", kind: "staff" }),
    bob: await login({ username: "bob-0028", password: "correct horse battery", kind: "staff" }),
  };
  const memberCookie = await login({ username: "C0028", password: "011580" });
  const get = async (url: string, cookie: string) => {
    const res = await server.request(url, { cookie });
    const type = res.headers.get("content-type") ?? "";
    return { status: res.status, body: type.includes("json") ? await res.json() : await res.text() };
  };
  const out: Record<string, unknown> = {};
  for (const [who, cookie] of Object.entries(staff)) {
    for (const q of LISTS) out[`${who} list ${q}`] = await get(`/api/admin/submissions${q}`, cookie);
    for (const q of EXPORTS) out[`${who} export ${q}`] = await get(`/api/admin/submissions/export${q}`, cookie);
  }
  for (const ref of REFS) out[`detail ${ref}`] = await get(`/api/admin/submissions/${ref}`, staff.bob);
  out["admin-forms"] = await get("/.netlify/functions/admin-forms", staff.bob);
  const account = await get("/api/account", memberCookie);
  out["account submissions"] = { status: account.status, body: (account.body as { submissions?: unknown }).submissions };
  return out;
}

describeEachDatabase("migration 0028: one identity for a submission", (dialect) => {
  const migrating = <T>(fn: () => Promise<T>) =>
    dialect === "postgres" ? whileNoSchemaIsDropped(process.env.TEST_DATABASE_URL!, fn) : fn();
  let handle: DatabaseHandle;
  let server: TestServer;
  let cleanup = async () => {};
  const migrate = async (upTo: (name: string) => boolean) => {
    const chosen = Object.entries(migrations).filter(([name]) => upTo(name));
    const migrator = new Migrator({
      db: handle.db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(chosen.map(([name, m]): [string, Migration] => [name, { up: (d) => m.up(d, dialect) }])),
      },
      ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
    });
    const { error, results } = await migrating(() => migrator.migrateToLatest());
    if (error) throw error;
    return (results ?? []).map((r) => r.migrationName);
  };

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-m0028-"));
    if (dialect === "sqlite") {
      handle = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
    } else {
      const { schema, drop } = await createPgSchema(process.env.TEST_DATABASE_URL!, "m");
      handle = openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: schema, poolSize: 2 });
      cleanup = drop;
    }
    const config = modules.loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      RSS_INGEST_INTERVAL_MINUTES: "0",
    });
    server = await serve({
      services: modules.createServices(config, handle, modules.createLogger("silent")),
      config,
      dataDir,
      async close() {
        await handle.close();
        await cleanup();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    });
    await migrate((name) => name < BEFORE);
    await seed(handle.db as Kysely<any>, server);
  });
  afterAll(() => server.close());

  // About ninety requests one after another: more than the default time on a busy machine.
  it(
    "answers the admin API and the member's account the same after the migration as before",
    { timeout: LOADED_TEST_TIMEOUT_MS },
    async () => {
      const recording = process.env.RECORD_0028_ANSWERS === "1";
      // 0028 first, then the migrations after it (0030: the submissions table; 0031: the kinds' own fields, the links' keys).
      if (!recording) expect((await migrate(() => true))[0]).toBe("0028_submission_identity");
      const after = await answers(server);
      if (recording) {
        const stored = fs.existsSync(ANSWERS) ? JSON.parse(fs.readFileSync(ANSWERS, "utf8")) : {};
        fs.writeFileSync(ANSWERS, `${JSON.stringify({ ...stored, [dialect]: after }, null, 1)}\n`);
        return;
      }
      const before = JSON.parse(fs.readFileSync(ANSWERS, "utf8"))[dialect];
      expect(Object.keys(after)).toEqual(Object.keys(before));
      for (const key of Object.keys(before)) expect(after[key], key).toEqual(before[key]);
      // Keys in the same order too (0031 reads status and dates from submissions, put back where the kind tables held them).
      for (const key of Object.keys(before)) expect(JSON.stringify(after[key]), key).toBe(JSON.stringify(before[key]));
    },
  );

  it.skipIf(process.env.RECORD_0028_ANSWERS === "1")(
    "keeps every note and assignment on its own submission, drops the one whose submission was gone, and cascades",
    async () => {
      const db = handle.db;
      const notes = await db
        .selectFrom("submission_notes as n")
        .innerJoin("submissions as l", "l.id", "n.submission_id")
        .select(["l.source", "l.row_id", "n.body"])
        .orderBy("n.id")
        .execute();
      expect(notes.map((n) => [n.source, Number(n.row_id), n.body])).toEqual([
        ["contact_messages", 2, "Contact two's note"],
        ["cpa_requests", 2, "CPA two's note"],
        ["cpa_requests", 2, "We got it"],
        ["applications", 2, "Member made"],
      ]);
      expect(Number((await db.selectFrom("submission_notes").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)).toBe(4);
      // A note id handed out before the migration is not handed out again.
      const next = await server.services.submissionAdmin.addNote({ id: 1, label: "x" }, "homeowner_material_requests", 2, "New");
      expect(next.id).toBe(6);

      // Every kind row points at its own submission (0030), and the numbers keep counting.
      for (const table of ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const) {
        const rows = await db
          .selectFrom(table)
          .innerJoin("submissions as s", "s.id", `${table}.submission_id`)
          .select([`${table}.id as id`, "s.source", "s.row_id"])
          .execute();
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect([r.source, Number(r.row_id)]).toEqual([table, Number(r.id)]);
      }
      const stored = await server.services.submissions.submitContact(
        { name: "After", email: "after@example.com", subject: "membership", message: "Numbered on" },
        "203.0.113.30",
      );
      expect(stored.id).toBe(5);

      // Deleting contact_2's submission straight in the database takes its kind row, note and
      // assignment with it, and nothing of cpa_2 or application_2.
      await db.deleteFrom("submissions").where("source", "=", "contact_messages").where("row_id", "=", 2).execute();
      expect(await db.selectFrom("contact_messages").select("id").where("id", "=", 2).executeTakeFirst()).toBeUndefined();
      const left = await db
        .selectFrom("submission_assignments as a")
        .innerJoin("submissions as l", "l.id", "a.submission_id")
        .select(["l.source", "l.row_id"])
        .orderBy("l.source")
        .execute();
      expect(left.map((a) => [a.source, Number(a.row_id)])).toEqual([
        ["applications", 3],
        ["cpa_requests", 2],
        ["homeowner_material_requests", 1],
      ]);
      expect(Number((await db.selectFrom("submission_assignments").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)).toBe(3);
      expect(Number((await db.selectFrom("submission_notes").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)).toBe(4);
    },
  );

  it.skipIf(process.env.RECORD_0028_ANSWERS === "1")(
    "0031: the kind tables keep their own fields; the member link and the submitter are set null with their user, never cascaded",
    async () => {
      const db = handle.db;
      const columnsOf = async (table: string): Promise<Array<{ name: string; notnull: boolean }>> =>
        dialect === "sqlite"
          ? (await sql<{ name: string; notnull: number }>`select name, "notnull" from pragma_table_info(${table})`.execute(db)).rows.map(
              (c) => ({ name: c.name, notnull: c.notnull === 1 }),
            )
          : (
              await sql<{ name: string; is_nullable: string }>`select column_name as name, is_nullable from information_schema.columns
                where table_schema = current_schema() and table_name = ${table}`.execute(db)
            ).rows.map((c) => ({ name: c.name, notnull: c.is_nullable === "NO" }));
      for (const table of ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"]) {
        const columns = await columnsOf(table);
        expect(
          columns.map((c) => c.name).filter((c) => ["status", "submitted_at", "updated_at", "submitted_by"].includes(c)),
          table,
        ).toEqual([]);
        expect(
          columns.find((c) => c.name === "submission_id"),
          table,
        ).toEqual({ name: "submission_id", notnull: true });
      }
      expect((await columnsOf("users")).map((c) => c.name)).not.toContain("application_id");
      // Nothing is left indexed on the kind tables but their identity (and each table's key).
      const kindIndexes =
        dialect === "sqlite"
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and sql is not null
              and tbl_name in ('contact_messages', 'cpa_requests', 'homeowner_material_requests', 'applications')`.execute(db)
          : await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()
              and tablename in ('contact_messages', 'cpa_requests', 'homeowner_material_requests', 'applications')
              and indexname not like '%_pkey'`.execute(db);
      expect(kindIndexes.rows.map((r) => r.name).sort()).toEqual(
        [
          "applications_member_user_idx",
          "applications_submission_idx",
          "contact_messages_submission_idx",
          "cpa_requests_submission_idx",
          "homeowner_material_requests_submission_idx",
        ].sort(),
      );

      const memberId = Number(
        (await db.selectFrom("users").select("id").where("certificate_number", "=", "C0028").executeTakeFirstOrThrow()).id,
      );
      const sentBy = async () =>
        (
          await db
            .selectFrom("submissions")
            .select(["source", "row_id", "submitted_by"])
            .where("submitted_by", "is not", null)
            .orderBy("source")
            .execute()
        ).map((r) => [r.source, Number(r.row_id), Number(r.submitted_by)]);
      expect(await sentBy()).toEqual([
        ["applications", 1, memberId],
        ["contact_messages", 3, memberId],
        ["cpa_requests", 2, memberId],
      ]);
      const linkOf = async (id: number) =>
        (await db.selectFrom("applications").select("member_user_id").where("id", "=", id).executeTakeFirst())?.member_user_id;
      expect(Number(await linkOf(2))).toBe(memberId);

      // Deleting the application the member came from leaves the member.
      await db.deleteFrom("submissions").where("source", "=", "applications").where("row_id", "=", 2).execute();
      expect(await linkOf(2)).toBeUndefined();
      expect(await db.selectFrom("users").select("id").where("id", "=", memberId).executeTakeFirst()).toEqual({ id: memberId });

      // Linked again to application 3, then the member deleted: the applications and what they
      // sent stay, link and submitter cleared.
      await db.updateTable("applications").set({ member_user_id: memberId }).where("id", "=", 3).execute();
      await db.deleteFrom("users").where("id", "=", memberId).execute();
      expect(await linkOf(3)).toBeNull();
      expect(await sentBy()).toEqual([]);
      const left = await db
        .selectFrom("submissions")
        .select(["source", "row_id"])
        .where((eb) =>
          eb.or([
            eb.and([eb("source", "=", "applications"), eb("row_id", "in", [1, 3])]),
            eb.and([eb("source", "=", "contact_messages"), eb("row_id", "=", 3)]),
            eb.and([eb("source", "=", "cpa_requests"), eb("row_id", "=", 2)]),
          ]),
        )
        .execute();
      expect(left).toHaveLength(4);
      expect(await db.selectFrom("applications").select("id").where("id", "in", [1, 3]).execute()).toHaveLength(2);
    },
  );
});
