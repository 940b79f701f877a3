import type { Kysely } from "kysely";
import { nowIso, type Dialect } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import { findKindRow, SubmissionStore, type KindRow, type KindValues } from "../store.server";
import { SUBMISSION_KINDS, type SubmissionKind } from "./kinds";

type TableOf<K extends SubmissionKind> = (typeof SUBMISSION_KINDS)[K]["table"];

/** What a form provides; the number, identity, status and timestamps are the store's business. */
export type SubmissionValues<K extends SubmissionKind> = KindValues<TableOf<K>>;
export type SubmissionRow<K extends SubmissionKind> = KindRow<TableOf<K>>;

/** Data access for the public submissions tables, one typed path for every kind. */
export class SubmissionsRepository {
  private store: SubmissionStore;

  constructor(
    private db: Kysely<Database>,
    dialect: Dialect,
  ) {
    this.store = new SubmissionStore(db, dialect);
  }

  /** Stores a new submission as pending and returns the stored row. */
  async insert<K extends SubmissionKind>(
    kind: K,
    values: SubmissionValues<K>,
    now = nowIso(),
    submittedBy: number | null = null,
  ): Promise<SubmissionRow<K>> {
    const table: TableOf<K> = SUBMISSION_KINDS[kind].table;
    const { id } = await this.store.store(table, values, { submittedAt: now, submittedBy });
    const row = await this.find(kind, id);
    if (!row) throw new Error(`${table} ${id} was stored but cannot be read`);
    return row;
  }

  async find<K extends SubmissionKind>(kind: K, id: number): Promise<SubmissionRow<K> | undefined> {
    return findKindRow<TableOf<K>>(this.db, SUBMISSION_KINDS[kind].table, id);
  }

  async count(kind: SubmissionKind): Promise<number> {
    const row = await this.db
      .selectFrom("submission_counts")
      .select((eb) => eb.fn.sum<number | null>("n").as("n"))
      .where("source", "=", SUBMISSION_KINDS[kind].table)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
