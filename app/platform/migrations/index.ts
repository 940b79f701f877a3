import type { AppMigration } from "./types";
import { m0001_auth } from "./0001_auth";

/** Every migration in order. Names sort; never edit one that has landed, add a new one. */
export const migrations: Record<string, AppMigration> = {
  "0001_auth": m0001_auth,
};
