import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { withPreparedStatements } from "./sqlite-statements.server";

function counted() {
  const raw = new SQLite(":memory:");
  let prepared = 0;
  const database = {
    close: () => raw.close(),
    prepare: (sql: string) => {
      prepared++;
      return raw.prepare(sql);
    },
  };
  return { raw, database, prepared: () => prepared };
}

describe("prepared statements kept for the embedded database", () => {
  it("prepares a query once and runs it again with other parameters", () => {
    const { raw, database, prepared } = counted();
    raw.exec("create table t (id integer primary key, name text)");
    const db = withPreparedStatements(database);
    db.prepare("insert into t (name) values (?)").run(["a"]);
    db.prepare("insert into t (name) values (?)").run(["b"]);
    expect(db.prepare("select name from t where id = ?").all([2])).toEqual([{ name: "b" }]);
    expect(db.prepare("select name from t where id = ?").all([1])).toEqual([{ name: "a" }]);
    expect(prepared()).toBe(2);
  });

  it("gives a fresh statement while the kept one is still iterating a result", () => {
    const { raw, database } = counted();
    raw.exec("create table t (id integer primary key); insert into t values (1), (2), (3)");
    const db = withPreparedStatements(database);
    const sql = "select id from t order by id";
    const seen: unknown[] = [];
    for (const row of db.prepare(sql).iterate([])) seen.push([row, db.prepare(sql).all([]).length]);
    expect(seen).toEqual([
      [{ id: 1 }, 3],
      [{ id: 2 }, 3],
      [{ id: 3 }, 3],
    ]);
  });

  it("keeps at most the most recently used statements", () => {
    const { database, prepared } = counted();
    const db = withPreparedStatements(database, 2);
    for (const n of [1, 2, 1, 3]) db.prepare(`select ${n}`); // 2 is the least recently used when 3 arrives
    expect(prepared()).toBe(3);
    db.prepare("select 1");
    expect(prepared()).toBe(3);
    db.prepare("select 2");
    expect(prepared()).toBe(4);
  });

  it("answers from the current schema after a migration changes a table", () => {
    const { raw, database } = counted();
    raw.exec("create table t (a text); insert into t values ('x')");
    const db = withPreparedStatements(database);
    expect(db.prepare("select * from t").all([])).toEqual([{ a: "x" }]);
    raw.exec("alter table t add column b text default 'y'");
    expect(db.prepare("select * from t").all([])).toEqual([{ a: "x", b: "y" }]);
  });
});
