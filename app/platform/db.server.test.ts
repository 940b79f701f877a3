import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, pingDatabase, type DatabaseHandle } from "./db.server";

describe("the embedded database beside another connection to its file", () => {
  let dir: string;
  let handle: DatabaseHandle;
  let other: SQLite.Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-db-"));
    const file = path.join(dir, "app.db");
    handle = openDatabase({ sqliteFile: file });
    await sql`create table t (id integer primary key, name text)`.execute(handle.db);
    // Another process's connection (a command-line task), which does not wait for the lock.
    other = new SQLite(file);
    other.pragma("busy_timeout = 0");
  });

  afterAll(async () => {
    other.close();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a transaction that reads before it writes holds the write lock from its start, so another connection's write cannot come between and make it fail", async () => {
    let refused: unknown;
    await handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      try {
        other.prepare("insert into t (name) values ('other')").run();
      } catch (err) {
        refused = err;
      }
      await sql`insert into t (name) values ('mine')`.execute(trx);
    });
    expect((refused as { code?: string } | undefined)?.code).toBe("SQLITE_BUSY");
    // Once it committed, the other connection writes in its turn.
    other.prepare("insert into t (name) values ('other')").run();
    const rows = await sql<{ name: string }>`select name from t order by id`.execute(handle.db);
    expect(rows.rows.map((r) => r.name)).toEqual(["mine", "other"]);
  });
});

describe("the health check's ping on the embedded database (issue 48)", () => {
  let dir: string;
  let handle: DatabaseHandle;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-db-"));
    handle = openDatabase({ sqliteFile: path.join(dir, "app.db") });
  });

  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers while another's transaction holds the one connection (a large import), not after it", async () => {
    await sql`create table t (id integer primary key)`.execute(handle.db);
    let answered = false;
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into t (id) values (1)`.execute(trx);
      const ping = pingDatabase(handle).then(() => (answered = true));
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(answered).toBe(true);
      await ping;
    });
  });
});
