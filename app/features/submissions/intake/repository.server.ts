import type { Insertable, Kysely, Selectable } from "kysely";
import { nowIso } from "~/platform/db.server";
import type { ContactMessagesTable, CpaRequestsTable, Database, HomeownerMaterialRequestsTable, SubmissionStatus } from "~/platform/schema";
import { SUBMISSION_KINDS, type SubmissionKind } from "./kinds";

/** The table behind each submission kind. */
interface SubmissionTables {
  contact: ContactMessagesTable;
  cpa: CpaRequestsTable;
  homeowner: HomeownerMaterialRequestsTable;
}

type ManagedColumns = "id" | "status" | "submitted_at" | "updated_at";

/** What a form provides; id, status and timestamps are the repository's business. */
export type SubmissionValues<K extends SubmissionKind> = Omit<Insertable<SubmissionTables[K]>, ManagedColumns>;
export type SubmissionRow<K extends SubmissionKind> = Selectable<SubmissionTables[K]> & {
  id: number;
  status: SubmissionStatus;
  submitted_at: string;
  updated_at: string;
};

/** Data access for the public submissions tables, one generic path for every kind. */
export class SubmissionsRepository {
  constructor(private db: Kysely<Database>) {}

  // Kysely cannot type a table chosen at run time; the kind-to-table map keeps it sound.
  private get anyDb() {
    return this.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  }

  /** Stores a new submission as pending and returns the stored row. */
  async insert<K extends SubmissionKind>(
    kind: K,
    values: SubmissionValues<K>,
    now = nowIso(),
    submittedBy: number | null = null,
  ): Promise<SubmissionRow<K>> {
    const row = await this.anyDb
      .insertInto(SUBMISSION_KINDS[kind].table)
      .values({ ...values, status: "pending", submitted_at: now, updated_at: now, submitted_by: submittedBy })
      .returningAll()
      .executeTakeFirstOrThrow();
    return row as unknown as SubmissionRow<K>;
  }

  async find<K extends SubmissionKind>(kind: K, id: number): Promise<SubmissionRow<K> | undefined> {
    const row = await this.anyDb.selectFrom(SUBMISSION_KINDS[kind].table).selectAll().where("id", "=", id).executeTakeFirst();
    return row as SubmissionRow<K> | undefined;
  }

  async count(kind: SubmissionKind): Promise<number> {
    const row = await this.anyDb
      .selectFrom(SUBMISSION_KINDS[kind].table)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
