import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, type Kysely, type Migration } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/platform/db.server";
import { Lease } from "../../app/platform/lease.server";
import { migrations } from "../../app/platform/migrations/index";
import { createPgSchema, whileNoSchemaIsDropped } from "../support/pg-schema";
import { describeEachDatabase } from "../support/test-app";

/*
 * Migration 0036 (one table of leases): the ingest's and the reminder scheduler's leases move
 * in as they stand, so a lease held by a running instance while the migration runs is kept to
 * its end, and their own tables go. The data is written with the schema as 0031 left it.
 */
describeEachDatabase("migration 0036: one table of leases", (dialect) => {
  const migrating = <T>(fn: () => Promise<T>) =>
    dialect === "postgres" ? whileNoSchemaIsDropped(process.env.TEST_DATABASE_URL!, fn) : fn();
  let handle: DatabaseHandle;
  let dataDir: string;
  let dropSchema = async () => {};
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
    const { error } = await migrating(() => migrator.migrateToLatest());
    if (error) throw error;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-m0036-"));
    if (dialect === "sqlite") handle = openDatabase({ sqliteFile: path.join(dataDir, "app.db") });
    else {
      const { schema, drop } = await createPgSchema(process.env.TEST_DATABASE_URL!, "m");
      handle = openDatabase({ url: process.env.TEST_DATABASE_URL!, pgSchema: schema, poolSize: 2 });
      dropSchema = drop;
    }
  });
  afterAll(async () => {
    await handle.close();
    await dropSchema();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps the leases held while it runs, with the ingest's run, and drops the old tables", async () => {
    await migrate((name) => name < "0036");
    const db = handle.db as Kysely<any>;
    const until = new Date(Date.now() + 60_000).toISOString();
    await db
      .updateTable("ingest_leases")
      .set({ holder: "old-instance/1/p/ingest", run_id: 17, expires_at: until })
      .where("name", "=", "rss_ingest")
      .execute();
    await db
      .updateTable("membership_reminder_lease")
      .set({ holder: "old-instance/1/p/reminders", expires_at: until })
      .where("name", "=", "membership_reminders")
      .execute();
    await migrate(() => true);

    const rows = await db.selectFrom("leases").selectAll().orderBy("name").execute();
    expect(rows.map((r) => ({ ...r, run_id: r.run_id === null ? null : Number(r.run_id) }))).toEqual([
      { name: "membership_reminders", holder: "old-instance/1/p/reminders", expires_at: until, run_id: null },
      { name: "rss_ingest", holder: "old-instance/1/p/ingest", expires_at: until, run_id: 17 },
    ]);
    // A new instance waits the held leases out.
    expect(await new Lease(handle.db, "rss_ingest").take("new-instance", 20_000)).toBe(false);
    expect(await new Lease(handle.db, "membership_reminders").take("new-instance", 60_000)).toBe(false);
    await expect(db.selectFrom("ingest_leases").selectAll().execute()).rejects.toThrow();
    await expect(db.selectFrom("membership_reminder_lease").selectAll().execute()).rejects.toThrow();
  });
});
