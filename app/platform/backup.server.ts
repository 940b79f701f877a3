import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { CliCommand } from "./cli";
import { migrateToLatest, type DatabaseHandle } from "./db.server";
import { migrations } from "./migrations/index";
import { isGoneLocalHolder, newHolderId } from "./process-holder.server";

const ON_POSTGRES =
  "This site runs on PostgreSQL: back it up with pg_dump and restore it with pg_restore (see docs/operations.md, 'Backups').";

/**
 * A copy of the embedded database, consistent as of one moment even while the site writes:
 * `VACUUM INTO` reads one snapshot (WAL lets writers go on) and writes a compact new file,
 * first under a temporary name so a half-written backup never carries the final one.
 */
export function backupSqlite(database: SQLite.Database, file: string): { bytes: number } {
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists; choose a new file name.`);
  const partial = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.partial-${process.pid}`);
  fs.rmSync(partial, { force: true });
  try {
    database.prepare("VACUUM INTO ?").run(partial);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { bytes: fs.statSync(file).size };
}

/**
 * Replaces the embedded database's content with a backup's, through SQLite's backup API (the
 * file is written under SQLite's locks, never copied beside an open connection), then brings
 * it to this version's schema. A file that is not a sound backup of this site, or one made by
 * a newer version, is refused and nothing changes.
 */
export async function restoreSqlite(handle: DatabaseHandle, backupFile: string): Promise<{ migrated: string[] }> {
  if (handle.native.dialect !== "sqlite") throw new BackupError(ON_POSTGRES);
  const liveFile = handle.native.database.name;
  const running = serversUsing(liveFile);
  if (running.length) throw new BackupError(stillRunning(running[0]));
  if (!fs.existsSync(backupFile) || !fs.statSync(backupFile).isFile()) throw new BackupError(`${backupFile} is not a file.`);
  let source: SQLite.Database;
  try {
    source = new SQLite(backupFile, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(`${backupFile} is not a database backup of this site.`);
  }
  try {
    let applied: string[];
    try {
      if (source.pragma("integrity_check", { simple: true }) !== "ok") throw new Error("integrity");
      applied = (source.prepare("select name from kysely_migration").all() as Array<{ name: string }>).map((r) => r.name);
      source.prepare("select count(*) from users").get();
    } catch {
      throw new BackupError(
        `${backupFile} is not a sound database backup of this site (it fails SQLite's integrity check or lacks the site's tables).`,
      );
    }
    const unknown = applied.filter((name) => !(name in migrations));
    if (unknown.length)
      throw new BackupError(
        `${backupFile} was made by a newer version of the site (migration ${unknown[0]}); restore it with that version.`,
      );
    await source.backup(liveFile);
  } finally {
    source.close();
  }
  return { migrated: await migrateToLatest(handle) };
}

export class BackupError extends Error {}

/** Where each server running on an embedded database file leaves its mark: `<file>.servers/`. */
const serversDir = (sqliteFile: string) => `${path.resolve(sqliteFile)}.servers`;

/**
 * A server marks that it uses the embedded database file (a holder id naming this machine and
 * process, in `<file>.servers/`) so that a restore refuses to swap the file from under it. The
 * mark is removed when the server stops; one a killed server left behind is recognised as dead
 * (isGoneLocalHolder) and cleared by the next restore.
 */
export function markServerUsing(sqliteFile: string): () => void {
  const dir = serversDir(sqliteFile);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}-${crypto.randomUUID()}.holder`);
  // Written whole under a temporary name: a restore never reads half a holder id.
  fs.writeFileSync(`${file}.partial`, newHolderId(), { mode: 0o600 });
  fs.renameSync(`${file}.partial`, file);
  return () => fs.rmSync(file, { force: true });
}

interface ServerMark {
  file: string;
  host: string;
  pid: string;
}

/** The servers whose mark says they still use the file; marks of dead processes of this machine are removed. */
export function serversUsing(sqliteFile: string): ServerMark[] {
  const dir = serversDir(sqliteFile);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(".holder"));
  } catch {
    return [];
  }
  const live: ServerMark[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let holder: string;
    try {
      holder = fs.readFileSync(file, "utf8");
    } catch {
      continue; // removed as its server stopped
    }
    if (isGoneLocalHolder(holder)) fs.rmSync(file, { force: true });
    else live.push({ file, host: holder.split("/")[0] ?? "", pid: holder.split("/")[1] ?? "" });
  }
  return live;
}

function stillRunning(mark: ServerMark): string {
  return (
    `The site is still running on this database (process ${mark.pid} on ${mark.host}). ` +
    "Stop the site first, then run restore again: everything it wrote after the backup would be lost. " +
    `If that process is not the site any more, delete ${mark.file} and run restore again.`
  );
}

/** `npm run admin -- backup <file>` and `restore <file>`. */
export const backupCommands: ReadonlyArray<CliCommand<{ database: DatabaseHandle }>> = [
  {
    name: "backup",
    usage: "backup <file>             (a consistent copy of the embedded database, taken while the site runs)",
    positionals: true,
    async run({ positionals }, { database }) {
      if (positionals.length !== 1) return { code: 2, out: "backup takes one file name", usage: true };
      if (database.native.dialect !== "sqlite") return { code: 1, out: ON_POSTGRES };
      try {
        const { bytes } = backupSqlite(database.native.database, positionals[0]);
        return { code: 0, out: `Backed up the database to ${positionals[0]} (${bytes.toLocaleString("en-US")} bytes).` };
      } catch (err) {
        if (err instanceof BackupError) return { code: 1, out: err.message };
        throw err;
      }
    },
  },
  {
    name: "restore",
    usage: "restore <file>            (replaces the embedded database with a backup; refused while the site runs)",
    positionals: true,
    async run({ positionals }, { database }) {
      if (positionals.length !== 1) return { code: 2, out: "restore takes one backup file", usage: true };
      if (database.native.dialect !== "sqlite") return { code: 1, out: ON_POSTGRES };
      try {
        const { migrated } = await restoreSqlite(database, positionals[0]);
        return {
          code: 0,
          out: `Restored the database from ${positionals[0]}.${migrated.length ? ` Brought it up to date: ${migrated.join(", ")}.` : ""}`,
        };
      } catch (err) {
        if (err instanceof BackupError) return { code: 1, out: err.message };
        throw err;
      }
    },
  },
];
