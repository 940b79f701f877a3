import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { CliCommand } from "./cli";
import { migrateToLatest, type DatabaseHandle } from "./db.server";
import { migrations } from "./migrations/index";

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
    usage: "restore <file>            (replaces the embedded database with a backup; stop the site first)",
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
