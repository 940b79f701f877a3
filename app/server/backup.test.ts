import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, type TestContext } from "../../tests/support/test-app";
import { runAdminCommand } from "./admin-cli.server";
import { SubmissionStore } from "~/features/submissions/store.server";
import { markServerUsing, serversUsing } from "~/platform/backup.server";
import { endsWithTheFile, LOADED_TEST_TIMEOUT_MS } from "../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

/** Another process writing to the same file: two rows per transaction, named after their batch, until stopped. */
const WRITER = `
const db = new (require("better-sqlite3"))(process.argv[1]);
db.pragma("busy_timeout = 5000");
const number = db.prepare("update submission_numbers set last = last + 1 where source = 'contact_messages' returning last");
const listed = db.prepare("insert into submissions (source, row_id, status, status_rank, type_rank, submitted_at, updated_at, name_key, email_key, search_text) values ('contact_messages', ?, 'pending', 1, 1, '2026-01-01', '2026-01-01', ?, 'w@example.com', ?) returning id");
const kind = db.prepare("insert into contact_messages (id, submission_id, name, email, subject, message) values (?, ?, ?, 'w@example.com', 'other', 'm')");
// A submission as the store writes it (its number, then its row, then the kind's row); the list's count and search index are left out.
const insert = (name) => { const { last } = number.get(); const { id } = listed.get(last, name, name); kind.run(last, id, name); };
const pair = db.transaction((n) => { insert("batch-" + n); insert("batch-" + n); });
let n = 0;
const tick = () => { for (let i = 0; i < 20; i++) pair(++n); if (n === 200) console.log("writing"); setImmediate(tick); };
tick();
`;

const batchesIn = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    return db.prepare("select name, count(*) as n from contact_messages where name like 'batch-%' group by name").all() as Array<{
      name: string;
      n: number;
    }>;
  } finally {
    db.close();
  }
};

describe("backup and restore of the embedded database", () => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    ctx = await createTestContext("sqlite");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-backup-"));
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const liveFile = () => (ctx.services.database.native as { database: SQLite.Database }).database.name;

  it("a backup taken while another process writes holds whole transactions only, and restores into another site", async () => {
    const writer = spawn(process.execPath, ["-e", WRITER, liveFile()], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => writer.once("exit", resolve));
    // Killed by the file's end should this test time out before its finally.
    endsWithTheFile({
      async close() {
        writer.kill("SIGKILL");
        await exited;
      },
    });
    try {
      // Writing, or gone already (a statement the schema no longer takes): said at once, not by a timeout.
      await Promise.race([
        new Promise<void>((resolve) => readline.createInterface({ input: writer.stdout! }).once("line", () => resolve())),
        exited.then((code) => {
          throw new Error(`the writing process exited (${String(code)}) before it wrote`);
        }),
      ]);
      const file = path.join(dir, "live.db");
      expect(await runAdminCommand(["backup", file], ctx.services)).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^Backed up the database to /),
      });
      const saved = batchesIn(file);
      expect(saved.length).toBeGreaterThan(0);
      expect(saved.filter((b) => b.n !== 2)).toEqual([]);
      // The writer went on after the backup: the live file gains batches the backup does not
      // hold (waited for, since a busy machine may starve the writer for a while).
      await vi.waitFor(() => expect(batchesIn(liveFile()).length).toBeGreaterThan(saved.length), { timeout: 60_000, interval: 50 });
      writer.kill();
      await exited;

      const other = await createTestContext("sqlite");
      try {
        const restored = await runAdminCommand(["restore", file], other.services);
        expect(restored).toEqual({ code: 0, out: `Restored the database from ${file}.` });
        const rows = await other.services.database.db
          .selectFrom("contact_messages")
          .select("name")
          .where("name", "like", "batch-%")
          .execute();
        expect(rows.length).toBe(saved.length * 2);
        // The site keeps working on the restored file: its tables and migrations are whole.
        expect(await other.services.auth.users.findStaffByUsername("nobody")).toBeUndefined();
      } finally {
        await other.close();
      }
    } finally {
      writer.kill("SIGKILL");
    }
  });

  it("refuses to overwrite a file, to restore what is not a backup of this site or comes from a newer version", async () => {
    const existing = path.join(dir, "existing.db");
    fs.writeFileSync(existing, "keep me");
    expect(await runAdminCommand(["backup", existing], ctx.services)).toEqual({
      code: 1,
      out: `${existing} already exists; choose a new file name.`,
    });
    expect(fs.readFileSync(existing, "utf8")).toBe("keep me");

    const before = batchesIn(liveFile()).length;
    const notDb = path.join(dir, "notes.txt");
    fs.writeFileSync(notDb, "not a database at all, just text ".repeat(200));
    expect((await runAdminCommand(["restore", notDb], ctx.services)).out).toMatch(/is not a (sound )?database backup of this site/);
    const other = path.join(dir, "other.db");
    new SQLite(other).exec("create table t (a)").close();
    expect((await runAdminCommand(["restore", other], ctx.services)).out).toMatch(/is not a sound database backup of this site/);

    const newer = path.join(dir, "newer.db");
    expect((await runAdminCommand(["backup", newer], ctx.services)).code).toBe(0);
    new SQLite(newer).prepare("insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01')").run();
    expect(await runAdminCommand(["restore", newer], ctx.services)).toEqual({
      code: 1,
      out: `${newer} was made by a newer version of the site (migration 9999_from_the_future); restore it with that version.`,
    });
    expect(await runAdminCommand(["restore", path.join(dir, "missing.db")], ctx.services)).toEqual({
      code: 1,
      out: `${path.join(dir, "missing.db")} is not a file.`,
    });
    expect(batchesIn(liveFile()).length).toBe(before);
  });
  it("refuses a backup with a damaged page, one SQLite's integrity check finds, and leaves the live file as it was", async () => {
    const db = ctx.services.database.db;
    const text = "A message long enough to fill pages of its own. ".repeat(20);
    await new SubmissionStore(db, ctx.services.database.dialect).storeMany(
      "contact_messages",
      Array.from({ length: 200 }, (_, i) => ({ name: `page-${i}`, email: "p@example.com", phone: null, subject: "other", message: text })),
      { submittedAt: "2026-01-01", updatedAt: "2026-01-01" },
    );
    const file = path.join(dir, "damaged.db");
    expect((await runAdminCommand(["backup", file], ctx.services)).code).toBe(0);
    // One leaf page of the messages overwritten: the tables a restore reads (users, migrations) stay readable.
    const copy = new SQLite(file);
    const pageSize = copy.pragma("page_size", { simple: true }) as number;
    const { pageno } = copy
      .prepare("select pageno from dbstat where name = 'contact_messages' and pagetype = 'leaf' order by pageno limit 1 offset 3")
      .get() as { pageno: number };
    copy.close();
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.alloc(pageSize - 200, 0xa5), 0, pageSize - 200, (pageno - 1) * pageSize + 100);
    fs.closeSync(fd);

    const live = (ctx.services.database.native as { database: SQLite.Database }).database;
    live.pragma("wal_checkpoint(TRUNCATE)");
    const digest = () => crypto.createHash("sha256").update(fs.readFileSync(liveFile())).digest("hex");
    const before = digest();
    expect(await runAdminCommand(["restore", file], ctx.services)).toEqual({
      code: 1,
      out: `${file} is not a sound database backup of this site (it fails SQLite's integrity check or lacks the site's tables).`,
    });
    live.pragma("wal_checkpoint(TRUNCATE)");
    expect(digest()).toBe(before);
    expect(
      Number(
        (
          await db
            .selectFrom("contact_messages")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("name", "like", "page-%")
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(200);
  });
  it("refuses to restore while a server marks the file as in use, clears the mark a dead server left, and restores then", async () => {
    const file = path.join(dir, "while-running.db");
    expect((await runAdminCommand(["backup", file], ctx.services)).code).toBe(0);
    const unmark = markServerUsing(liveFile());
    try {
      const refused = await runAdminCommand(["restore", file], ctx.services);
      expect(refused.code).toBe(1);
      expect(refused.out).toBe(
        `The site is still running on this database (process ${process.pid} on ${os.hostname()}). ` +
          "Stop the site first, then run restore again: everything it wrote after the backup would be lost. " +
          `If that process is not the site any more, delete ${serversUsing(liveFile())[0].file} and run restore again.`,
      );
    } finally {
      unmark();
    }
    expect(serversUsing(liveFile())).toEqual([]);
    // A server killed before it could remove its mark: a process of this machine that is gone.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const leftover = path.join(`${liveFile()}.servers`, `${gone}-left.holder`);
    fs.writeFileSync(leftover, `${os.hostname()}/${gone}/an-old-process/x`);
    // Another machine's server cannot be seen from here: it counts as running.
    const remote = path.join(`${liveFile()}.servers`, "remote.holder");
    fs.writeFileSync(remote, `another-machine/${gone}/p/x`);
    expect((await runAdminCommand(["restore", file], ctx.services)).out).toMatch(
      /^The site is still running on this database \(process \d+ on another-machine\)/,
    );
    fs.rmSync(remote);
    expect(await runAdminCommand(["restore", file], ctx.services)).toEqual({ code: 0, out: `Restored the database from ${file}.` });
    expect(fs.existsSync(leftover)).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("backup on PostgreSQL", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext("postgres");
  });
  afterAll(() => ctx.close());

  it("points at pg_dump and pg_restore", async () => {
    for (const command of ["backup", "restore"]) {
      const result = await runAdminCommand([command, "/tmp/x.db"], ctx.services);
      expect(result.code).toBe(1);
      expect(result.out).toMatch(/PostgreSQL: back it up with pg_dump and restore it with pg_restore/);
    }
  });
});
