import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/platform/db.server";
import { migrations } from "../../app/platform/migrations/index";
import { m0012_list_pages_and_search } from "../../app/platform/migrations/0012_list_pages_and_search";
import { expectArticleDaysInStep, expectSubmissionListInStep } from "../support/list-index";
import { createPgSchema, whileNoSchemaIsDropped } from "../support/pg-schema";
import { applicationRow } from "../support/submission-fixtures";
import { describeEachDatabase } from "../support/test-app";

/*
 * Migration 0012 on a site that already has submissions and articles: it fills the list, the
 * counts, the search index and the day counts from them, a second run changes nothing, and a
 * run over tables that drifted counts them afresh. It stops at 0027: from 0030 the code writes
 * the list (renamed submissions) and 0012's triggers are gone, so the database here is the one
 * 0012 to 0027 made, read with SQL of that time.
 */
describeEachDatabase("migration 0012: list pages and search", (dialect) => {
  const migrating = <T>(fn: () => Promise<T>) =>
    dialect === "postgres" ? whileNoSchemaIsDropped(process.env.TEST_DATABASE_URL!, fn) : fn();
  let handle: DatabaseHandle;
  let cleanup = async () => {};
  // The schema of 0027, which the live types no longer describe.
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
  const inStep = () => expectSubmissionListInStep(db(), dialect, "submission_list");
  /** The list rows a search (0012's: lower search text or coverage containing it) finds. */
  const searched = async (text: string) =>
    (
      await sql<{
        source: string;
        row_id: number;
      }>`select source, row_id from submission_list where search_text like ${`%${text}%`} order by source, row_id`.execute(db())
    ).rows.map((r) => `${r.source}:${Number(r.row_id)}`);

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-m0012-"));
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

    // The database as it was before 0012 ...
    await migrate((name) => name < "0012");

    // ... holding submissions of every source and articles of two feeds.
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1 + (i % 20), i % 24)).toISOString();
    for (let i = 0; i < 12; i++) {
      const base = { status: (["pending", "approved", "rejected"] as const)[i % 3], submitted_at: at(i), updated_at: at(i) };
      await db()
        .insertInto("contact_messages")
        .values({ ...base, name: `Contact ${i}`, email: `C${i}@Example.com`, phone: null, subject: "Hi", message: `Message ${i}` })
        .execute();
      await db()
        .insertInto("cpa_requests")
        .values({ ...base, first_name: "Cpa", last_name: `${i}`, email: `cpa${i}@example.com`, firm_name: `Firm ${i}`, member_id: `M${i}` })
        .execute();
      await db()
        .insertInto("homeowner_material_requests")
        .values({
          ...base,
          first_name: "Home",
          last_name: null,
          email: `h${i}@example.com`,
          address1: `${i} Elm St`,
          materials_requested: "Kit",
        })
        .execute();
      await db()
        .insertInto("applications")
        .values(applicationRow({ ...base, applicant_name: `Applicant ${i}`, amount_of_coverage: `${i + 1}0000.00` }))
        .execute();
    }
    for (const [f, category] of ["decor", "news"].entries()) {
      const feed = await db()
        .insertInto("rss_feeds")
        .values({ name: `Feed ${f}`, url: `https://f${f}.example.com/rss`, category, is_active: 0, created_at: at(0), updated_at: at(0) })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (let k = 0; k < 30; k++)
        await db()
          .insertInto("articles")
          .values({
            feed_id: Number(feed.id),
            dedupe_key: `k${k}`,
            link: `https://f${f}.example.com/${k}`,
            title: `Article ${k}`,
            published_at: at(k * 5 + f),
            category,
            content_hash: "h",
            created_at: at(0),
            updated_at: at(0),
          })
          .execute();
    }
    // 0012 first; later migrations follow it.
    expect((await migrate((name) => name < "0028"))[0]).toBe("0012_list_pages_and_search");
  });
  afterAll(async () => {
    await handle.close();
    await cleanup();
  });

  async function derived() {
    return {
      list: await db().selectFrom("submission_list").selectAll().orderBy("id").execute(),
      counts: await db().selectFrom("submission_counts").selectAll().orderBy("source").orderBy("status").execute(),
      days: await db().selectFrom("article_day_counts").selectAll().orderBy("day").execute(),
      categoryDays: await db().selectFrom("article_category_day_counts").selectAll().orderBy("category").orderBy("day").execute(),
    };
  }

  it("fills the list, its counts, its search index and the day counts from the rows already stored", async () => {
    await inStep();
    await expectArticleDaysInStep(db());
    expect(await searched("c7@example")).toEqual(["contact_messages:8"]);
    const approved = await db()
      .selectFrom("submission_counts")
      .select(sql<number>`sum(n)`.as("n"))
      .where("status", "=", "approved")
      .executeTakeFirstOrThrow();
    expect(Number(approved.n)).toBe(16);
  });

  it("changes nothing when it runs again", async () => {
    const before = await derived();
    await m0012_list_pages_and_search.up(db(), dialect);
    expect(await derived()).toEqual(before);
    await inStep();
  });

  it("counts afresh what drifted", async () => {
    await db().deleteFrom("submission_list").where("source", "=", "cpa_requests").where("row_id", "<", 4).execute();
    await db()
      .updateTable("submission_list")
      .set({ search_text: "stale", name_key: "stale" })
      .where("source", "=", "applications")
      .execute();
    await db()
      .insertInto("submission_list")
      .values({
        source: "contact_messages",
        row_id: 999,
        status: "pending",
        status_rank: 1,
        type_rank: 1,
        submitted_at: "2024-01-01",
        name_key: "gone",
        email_key: "gone",
        search_text: "gone",
        coverage: null,
      })
      .execute();
    await db().updateTable("submission_counts").set({ n: 99 }).execute();
    await db().deleteFrom("article_day_counts").execute();
    await db().updateTable("article_category_day_counts").set({ n: 0 }).execute();
    await m0012_list_pages_and_search.up(db(), dialect);
    await inStep();
    await expectArticleDaysInStep(db());
  });
});
