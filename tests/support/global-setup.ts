import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase } from "../../app/platform/db.server";
import { installPgExtensions } from "./pg-schema";

/** Builds one migrated SQLite file; every test file starts from a copy of it. */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  if (process.env.TEST_DATABASE_URL) await installPgExtensions(process.env.TEST_DATABASE_URL);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-test-template-"));
  const file = path.join(dir, "template.db");
  const handle = openDatabase({ sqliteFile: file });
  await migrateToLatest(handle);
  await handle.close();
  provide("sqliteTemplate", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    sqliteTemplate: string;
  }
}
