import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/platform/db.server";
import { migrations } from "../../app/platform/migrations/index";
import { createPgSchema, whileNoSchemaIsDropped } from "../support/pg-schema";
import { applicationRow } from "../support/submission-fixtures";
import { describeEachDatabase } from "../support/test-app";

/*
 * Migration 0034 (the co-insured of a household plan) on a site whose members were made from
 * applications before it: a plan made from an application with a co-applicant gets them as its
 * co-insured; a plan made from one without, an imported member's plan, a plan given by staff,
 * and a plan whose audit entry names an application no longer linked to that member get none.
 * The rows are written with the schema as the migrations before 0034 left it, in SQL of that time.
 */
describeEachDatabase("migration 0034: the co-insured from earlier applications", (dialect) => {
  const migrating = <T>(fn: () => Promise<T>) =>
    dialect === "postgres" ? whileNoSchemaIsDropped(process.env.TEST_DATABASE_URL!, fn) : fn();
  let handle: DatabaseHandle;
  let cleanup = async () => {};
  const db = (): Kysely<any> => handle.db;
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

  const now = "2026-03-01T12:00:00.000Z";
  async function member(id: number, certificate: string) {
    await db()
      .insertInto("users")
      .values({
        id,
        certificate_number: certificate,
        first_name: "Dana",
        last_name: `Member${id}`,
        role: "user",
        is_active: 1,
        is_core_admin: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  async function plan(userId: number) {
    await db()
      .insertInto("membership_plans")
      .values({ user_id: userId, billing: "monthly", approved_on: "2026-02-20", created_at: now, updated_at: now })
      .execute();
  }
  /** An approved application, linked to `memberId`, with the fixture's co-applicant unless overridden. */
  async function application(id: number, memberId: number | null, overrides: Parameters<typeof applicationRow>[0] = {}) {
    const { status: _s, submitted_at: _a, updated_at: _u, submitted_by: _b, ...own } = applicationRow(overrides);
    const submission = await db()
      .insertInto("submissions")
      .values({
        source: "applications",
        row_id: id,
        status: "approved",
        status_rank: 3,
        type_rank: 4,
        submitted_at: now,
        name_key: "applicant",
        email_key: "avery@example.com",
        search_text: "applicant",
        coverage: "250000.00",
        name: own.applicant_name,
        email: own.email,
        phone: null,
        details: null,
        updated_at: now,
        submitted_by: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("applications")
      .values({
        ...own,
        id,
        submission_id: Number(submission.id),
        member_user_id: memberId,
        member_claimed_at: null,
        welcome_sent_at: null,
      })
      .execute();
  }
  async function planAudit(userId: number, certificate: string, applicationId: number | null) {
    await db()
      .insertInto("audit_log")
      .values({
        created_at: now,
        actor_id: null,
        actor_label: "staff",
        action: "membership.plan",
        target_type: "member",
        target_id: userId,
        target_label: certificate,
        row_count: null,
        details: JSON.stringify({
          billing: "monthly",
          approvedOn: "2026-02-20",
          ...(applicationId ? { application: `application_${applicationId}` } : {}),
        }),
      })
      .execute();
  }

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-m0034-"));
    if (dialect === "sqlite") {
      handle = openDatabase({ sqliteFile: path.join(dir, "app.db") });
    } else {
      const { schema, drop } = await createPgSchema(process.env.TEST_DATABASE_URL!, "m");
      handle = openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: schema, poolSize: 2 });
      cleanup = drop;
    }
    const rmDir = cleanup;
    cleanup = async () => {
      await rmDir();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    await migrate((name) => name < "0034");

    // 1: made from an application with a co-applicant.
    await member(1, "C1");
    await application(11, 1, {
      co_applicant_name: " Casey  J. Applicant ",
      co_dob: "1982-09-17",
      co_gender: "Male",
      co_email: "casey@example.com",
      co_phone: "(555) 765-4321",
    });
    await plan(1);
    await planAudit(1, "C1", 11);
    // 2: made from an application without one.
    await member(2, "C2");
    await application(12, 2, { co_applicant_name: null, co_dob: null, co_gender: null, co_email: null, co_phone: null });
    await plan(2);
    await planAudit(2, "C2", 12);
    // 3: imported with a plan (no audit entry of a plan from an application).
    await member(3, "C3");
    await plan(3);
    // 4: a plan staff gave; linked to an application later (the plan stayed theirs).
    await member(4, "C4");
    await plan(4);
    await planAudit(4, "C4", null);
    await application(14, 4);
    // 5: the entry names an application that is another member's now (theirs was deleted, the id given again).
    await member(5, "C5");
    await plan(5);
    await application(15, 3);
    await planAudit(5, "C5", 15);
    // 6: made from an application, the member deleted since: no plan, nothing to add to.
    await application(16, null);
    await planAudit(6, "C6", 16);
  });
  afterAll(() => cleanup());

  it("gives each plan made from an application its co-applicant, and no other plan a co-insured", async () => {
    expect(await migrate(() => true)).toEqual(Object.keys(migrations).filter((name) => name >= "0034"));
    const rows = await db().selectFrom("membership_co_insured").selectAll().orderBy("user_id").execute();
    expect(rows.map(({ created_at: _c, updated_at: _u, ...row }) => ({ ...row, user_id: Number(row.user_id) }))).toEqual([
      {
        user_id: 1,
        first_name: "Casey J.",
        last_name: "Applicant",
        birthdate: "1982-09-17",
        gender: "Male",
        email: "casey@example.com",
        phone: "(555) 765-4321",
      },
    ]);
  });
});
