import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import { nowIso, type Dialect } from "~/platform/db.server";
import type { Database } from "~/platform/schema";
import { SUBMISSION_TABLES, SUBMISSION_STATUSES, type SubmissionStatus, type SubmissionTable } from "./contract";

/*
 * The one writer of submissions (decision 012, migration 0030). A submission is its row in
 * `submissions` (the identity notes, assignments and the kind row point at, with what the
 * list shows, sorts and searches by, with its status, dates and submitter) and its kind's row
 * (its own fields only, since 0031: `submission_id`, the kind's number as id). Both are
 * written here in one transaction, with the per-source counts the pager sums and, on SQLite,
 * the FTS5 index of the search: no trigger copies anything.
 */

/** The columns this module manages; a caller gives the kind's own fields. */
type Managed = "id" | "submission_id" | "member_claimed_at";
export type KindValues<T extends SubmissionTable> = Omit<Insertable<Database[T]>, Managed>;

export interface StoreOptions {
  status?: SubmissionStatus;
  submittedAt?: string;
  updatedAt?: string;
  submittedBy?: number | null;
}

/** What a stored kind row is read with from its submission (the kind tables hold none of it since 0031). */
const FROM_SUBMISSION = ["s.status", "s.submitted_at", "s.updated_at", "s.submitted_by"] as const;
export type SubmissionFields = Pick<Selectable<Database["submissions"]>, "status" | "submitted_at" | "updated_at" | "submitted_by">;
/** A kind's stored row, with its submission's status, dates and submitter. */
export type KindRow<T extends SubmissionTable> = Selectable<Database[T]> & SubmissionFields & { id: number; submission_id: number };

const merge = <V extends object>(rows: V[], managed: Array<{ id: number; submission_id: number }>) =>
  rows.map((r, i) => ({ ...r, ...managed[i] }));

/*
 * Each kind's insert and read, named per table so Kysely types every one; indexed by a
 * table chosen at run time, TypeScript keeps the table and its row together (no casts).
 */
type KindAccess = {
  [T in SubmissionTable]: {
    insert(db: Kysely<Database>, rows: Array<KindValues<T>>, managed: Array<{ id: number; submission_id: number }>): Promise<unknown>;
    find(db: Kysely<Database>, id: number): Promise<KindRow<T> | undefined>;
    /** Every row, newest first (then the highest number). */
    all(db: Kysely<Database>): Promise<Array<KindRow<T>>>;
  };
};
const KIND: KindAccess = {
  contact_messages: {
    insert: (db, rows, managed) => db.insertInto("contact_messages").values(merge(rows, managed)).execute(),
    find: (db, id) =>
      db
        .selectFrom("contact_messages as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .where("k.id", "=", id)
        .executeTakeFirst(),
    all: (db) =>
      db
        .selectFrom("contact_messages as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .orderBy("s.submitted_at", "desc")
        .orderBy("k.id", "desc")
        .execute(),
  },
  cpa_requests: {
    insert: (db, rows, managed) => db.insertInto("cpa_requests").values(merge(rows, managed)).execute(),
    find: (db, id) =>
      db
        .selectFrom("cpa_requests as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .where("k.id", "=", id)
        .executeTakeFirst(),
    all: (db) =>
      db
        .selectFrom("cpa_requests as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .orderBy("s.submitted_at", "desc")
        .orderBy("k.id", "desc")
        .execute(),
  },
  homeowner_material_requests: {
    insert: (db, rows, managed) => db.insertInto("homeowner_material_requests").values(merge(rows, managed)).execute(),
    find: (db, id) =>
      db
        .selectFrom("homeowner_material_requests as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .where("k.id", "=", id)
        .executeTakeFirst(),
    all: (db) =>
      db
        .selectFrom("homeowner_material_requests as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .orderBy("s.submitted_at", "desc")
        .orderBy("k.id", "desc")
        .execute(),
  },
  applications: {
    insert: (db, rows, managed) => db.insertInto("applications").values(merge(rows, managed)).execute(),
    find: (db, id) =>
      db
        .selectFrom("applications as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .where("k.id", "=", id)
        .executeTakeFirst(),
    all: (db) =>
      db
        .selectFrom("applications as k")
        .innerJoin("submissions as s", "s.id", "k.submission_id")
        .selectAll("k")
        .select(FROM_SUBMISSION)
        .orderBy("s.submitted_at", "desc")
        .orderBy("k.id", "desc")
        .execute(),
  },
};

/** A kind's stored row by its number. */
export function findKindRow<T extends SubmissionTable>(db: Kysely<Database>, table: T, id: number): Promise<KindRow<T> | undefined> {
  const access: KindAccess[T] = KIND[table];
  return access.find(db, id);
}

/** Every stored row of a kind, newest first. */
export function allKindRows<T extends SubmissionTable>(db: Kysely<Database>, table: T): Promise<Array<KindRow<T>>> {
  const access: KindAccess[T] = KIND[table];
  return access.all(db);
}

/** What the list shows of a submission: name, e-mail, phone, details and coverage. */
export interface Shown {
  name: string;
  email: string | null;
  phone: string | null;
  details: string | null;
  coverage: string | null;
}

type Text = string | null | undefined;
/** NULL for NULL or '' (SQL's nullif(e, '')). */
const present = (e: Text) => (e === null || e === undefined || e === "" ? null : e);
const labeled = (label: string, e: Text) => (present(e) === null ? null : `${label}: ${e}`);
/** The non-empty parts joined with sep, or '' when none (SQL's concat_ws over nullif). */
const joined = (sep: string, parts: Text[]) =>
  parts
    .map(present)
    .filter((p): p is string => p !== null)
    .join(sep);
/** SQL's trim: spaces only. */
const fullName = (first: Text, last: Text) => `${first ?? ""} ${last ?? ""}`.replace(/^ +| +$/g, "");

/** What each kind shows: the same texts the list showed since 0012. */
export function shown<T extends SubmissionTable>(table: T, values: KindValues<T>): Shown {
  const v = values as Record<string, Text>;
  const common = { email: v.email ?? null, phone: v.phone ?? null, coverage: null };
  switch (table) {
    case "contact_messages":
      return { ...common, name: v.name ?? "", details: joined(": ", [v.subject, v.message]) };
    case "cpa_requests":
      return {
        ...common,
        name: fullName(v.first_name, v.last_name),
        details: joined(" | ", [
          labeled("Firm", v.firm_name),
          labeled("Location", joined(", ", [v.city, v.state, v.zip])),
          labeled("Member ID", v.member_id),
          labeled("Notes", v.notes),
        ]),
      };
    case "homeowner_material_requests":
      return {
        ...common,
        name: fullName(v.first_name, v.last_name),
        details: joined(" | ", [
          labeled("Materials", v.materials_requested),
          labeled("Ship to", joined(", ", [v.address1, v.address2, v.city, v.state, v.zip])),
          labeled("Member ID", v.member_id),
          labeled("Notes", v.notes),
        ]),
      };
    default:
      return {
        ...common,
        name: v.applicant_name ?? "",
        details: joined(" | ", [
          labeled("Case", v.case_number),
          labeled("Co-Applicant", v.co_applicant_name),
          labeled("Beneficiary", v.beneficiary_name),
        ]),
        coverage: v.amount_of_coverage ?? null,
      };
  }
}

/** A kind's place in the list's type order (its `type_rank`). */
export const typeRank = (table: SubmissionTable) => SUBMISSION_TABLES.indexOf(table) + 1;

/** The workflow's order; an unknown status counts as pending. */
export const statusRank = (status: string) => Math.max(1, SUBMISSION_STATUSES.indexOf(status as SubmissionStatus) + 1);

export class SubmissionStore {
  constructor(
    private db: Kysely<Database>,
    private dialect: Dialect,
  ) {}

  /** In the caller's transaction, or one of its own. */
  private async within<R>(db: Kysely<Database> | undefined, fn: (trx: Kysely<Database>) => Promise<R>): Promise<R> {
    const base = db ?? this.db;
    return base.isTransaction ? fn(base) : base.transaction().execute(fn);
  }

  /** Stores one submission; returns its identity and its kind's number. */
  async store<T extends SubmissionTable>(
    table: T,
    values: KindValues<T>,
    options: StoreOptions = {},
    db?: Kysely<Database>,
  ): Promise<{ submissionId: number; id: number }> {
    const [stored] = await this.storeMany(table, [values], options, db);
    return stored;
  }

  /**
   * Stores submissions of one kind (the benchmark stores 100,000): their numbers are
   * reserved in one counter update, then the rows are written in batches.
   */
  async storeMany<T extends SubmissionTable>(
    table: T,
    rows: Array<KindValues<T>>,
    options: StoreOptions | ((i: number) => StoreOptions) = {},
    db?: Kysely<Database>,
  ): Promise<Array<{ submissionId: number; id: number }>> {
    if (!rows.length) return [];
    return this.within(db, async (trx) => {
      const reserved = await trx
        .updateTable("submission_numbers")
        .set((eb) => ({ last: eb("last", "+", rows.length) }))
        .where("source", "=", table)
        .returning("last")
        .executeTakeFirstOrThrow();
      const first = Number(reserved.last) - rows.length + 1;
      const now = nowIso();
      const out: Array<{ submissionId: number; id: number }> = [];
      const counts = new Map<string, number>();
      const BATCH = 200;
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH).map((values, j) => {
          const i = start + j;
          const o = typeof options === "function" ? options(i) : options;
          const status = o.status ?? "pending";
          counts.set(status, (counts.get(status) ?? 0) + 1);
          const submittedAt = o.submittedAt ?? now;
          return { values, id: first + i, status, submittedAt, updatedAt: o.updatedAt ?? submittedAt, submittedBy: o.submittedBy ?? null };
        });
        const listed = await trx
          .insertInto("submissions")
          .values(
            batch.map((b) => {
              const s = shown(table, b.values);
              const text = `${s.name}\n${s.email ?? ""}\n${s.details ?? ""}`;
              return {
                source: table,
                row_id: b.id,
                status: b.status,
                status_rank: statusRank(b.status),
                type_rank: typeRank(table),
                submitted_at: b.submittedAt,
                updated_at: b.updatedAt,
                submitted_by: b.submittedBy,
                // Lowered by the database, as the list's keys always were.
                name_key: sql<string>`lower(${s.name})`,
                email_key: sql<string>`lower(${s.email ?? ""})`,
                search_text: sql<string>`lower(${text})`,
                coverage: s.coverage === null ? null : sql<string>`lower(${s.coverage})`,
                name: s.name,
                email: s.email,
                phone: s.phone,
                details: s.details,
              };
            }),
          )
          .returning(["id", "row_id", "search_text", "coverage"])
          .execute();
        const identity = new Map(listed.map((l) => [Number(l.row_id), Number(l.id)]));
        const access: KindAccess[T] = KIND[table];
        await access.insert(
          trx,
          batch.map((b) => b.values),
          batch.map((b) => ({ id: b.id, submission_id: identity.get(b.id)! })),
        );
        if (this.dialect === "sqlite") {
          await sql`insert into submission_search (rowid, search_text, coverage) values ${sql.join(
            listed.map((l) => sql`(${l.id}, ${l.search_text}, ${l.coverage})`),
          )}`.execute(trx);
        }
        out.push(...batch.map((b) => ({ submissionId: identity.get(b.id)!, id: b.id })));
      }
      for (const [status, n] of counts) await this.count(trx, table, status, n);
      return out;
    });
  }

  private async count(db: Kysely<Database>, table: SubmissionTable, status: string, delta: number) {
    await db
      .insertInto("submission_counts")
      .values({ source: table, status, n: delta })
      .onConflict((oc) => oc.columns(["source", "status"]).doUpdateSet((eb) => ({ n: eb("submission_counts.n", "+", delta) })))
      .execute();
  }

  /** Changes a submission's status; answers the status it had, undefined when there is no such submission. */
  async setStatus(
    table: SubmissionTable,
    id: number,
    status: SubmissionStatus,
    now = nowIso(),
    db?: Kysely<Database>,
  ): Promise<string | undefined> {
    return this.within(db, async (trx) => {
      let q = trx.selectFrom("submissions").select(["id", "status"]).where("source", "=", table).where("row_id", "=", id);
      if (this.dialect === "postgres") q = q.forUpdate();
      const before = await q.executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable("submissions")
        .set({ status, status_rank: statusRank(status), updated_at: now })
        .where("id", "=", before.id)
        .execute();
      if (before.status !== status) {
        await this.count(trx, table, before.status, -1);
        await this.count(trx, table, status, 1);
      }
      return before.status;
    });
  }

  /** Deletes the submissions of one kind by their numbers; returns how many were deleted. */
  async deleteRows(table: SubmissionTable, ids: number[], db?: Kysely<Database>): Promise<number> {
    if (!ids.length) return 0;
    return this.within(db, async (trx) => {
      const found = await trx.selectFrom("submissions").select("id").where("source", "=", table).where("row_id", "in", ids).execute();
      return this.delete(
        found.map((f) => Number(f.id)),
        trx,
      );
    });
  }

  /**
   * Deletes submissions by identity: the kind rows, notes and assignments go with them
   * (cascades); the counts and the search index follow. Returns how many were deleted.
   */
  async delete(ids: number[], db?: Kysely<Database>): Promise<number> {
    if (!ids.length) return 0;
    return this.within(db, async (trx) => {
      const gone = await trx
        .deleteFrom("submissions")
        .where("id", "in", ids)
        .returning(["id", "source", "status", "search_text", "coverage"])
        .execute();
      for (const g of gone) {
        await this.count(trx, g.source as SubmissionTable, g.status, -1);
        if (this.dialect === "sqlite") {
          await sql`insert into submission_search (submission_search, rowid, search_text, coverage) values ('delete', ${g.id}, ${g.search_text}, ${g.coverage})`.execute(
            trx,
          );
        }
      }
      return gone.length;
    });
  }
}
