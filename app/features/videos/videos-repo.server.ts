import type { Kysely, Selectable } from "kysely";
import { mapUnique, nowIso } from "~/platform/db.server";
import type { Database, VideosTable } from "~/platform/schema";
import { embedUrl, watchUrl, type VideoInputData, type VideoJson } from "./contract";

export type VideoRow = Selectable<VideosTable>;

export function toVideoJson(row: VideoRow): VideoJson {
  return {
    id: Number(row.id),
    category: row.category,
    title: row.title,
    description: row.description,
    youtube_id: row.youtube_id,
    url: watchUrl(row.youtube_id),
    embedUrl: embedUrl(row.youtube_id),
    duration: row.duration,
    sort_order: Number(row.sort_order),
  };
}

/** Data access for the videos table. */
export class VideosRepo {
  constructor(private db: Kysely<Database>) {}

  list(category?: string): Promise<VideoRow[]> {
    let q = this.db.selectFrom("videos").selectAll();
    if (category) q = q.where("category", "=", category);
    return q.orderBy("category").orderBy("sort_order").orderBy("id").execute();
  }

  find(id: number): Promise<VideoRow | undefined> {
    return this.db.selectFrom("videos").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async counts(): Promise<Array<{ category: string; count: number }>> {
    const rows = await this.db
      .selectFrom("videos")
      .select((eb) => ["category", eb.fn.countAll().as("n")])
      .groupBy("category")
      .execute();
    return rows.map((r) => ({ category: r.category, count: Number(r.n) }));
  }

  /** A new video goes to the end of its category. */
  async create(input: VideoInputData): Promise<VideoRow> {
    const now = nowIso();
    return mapUnique(() =>
      this.db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom("videos")
          .select((eb) => eb.fn.max("sort_order").as("m"))
          .where("category", "=", input.category)
          .executeTakeFirst();
        return trx
          .insertInto("videos")
          .values({
            category: input.category,
            title: input.title,
            description: input.description,
            youtube_id: input.youtube,
            duration: input.duration,
            sort_order: last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      }),
    );
  }

  /** Updates a video; moved to another category, it goes to the end of that one. */
  async update(id: number, input: VideoInputData, previous: VideoRow): Promise<VideoRow | undefined> {
    return mapUnique(() =>
      this.db.transaction().execute(async (trx) => {
        let sortOrder = Number(previous.sort_order);
        if (previous.category !== input.category) {
          const last = await trx
            .selectFrom("videos")
            .select((eb) => eb.fn.max("sort_order").as("m"))
            .where("category", "=", input.category)
            .executeTakeFirst();
          sortOrder = last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1;
        }
        return trx
          .updateTable("videos")
          .set({
            category: input.category,
            title: input.title,
            description: input.description,
            youtube_id: input.youtube,
            duration: input.duration,
            sort_order: sortOrder,
            updated_at: nowIso(),
          })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirst();
      }),
    );
  }

  async delete(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom("videos").where("id", "=", id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * Sets the order of a category to `ids`, which must be exactly its videos. Returns false
   * (and changes nothing) when they are not, for example after a concurrent add or delete.
   */
  async reorder(category: string, ids: number[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom("videos").select("id").where("category", "=", category).execute();
      const have = new Set(current.map((r) => Number(r.id)));
      if (have.size !== ids.length || new Set(ids).size !== ids.length || !ids.every((id) => have.has(id))) return false;
      const now = nowIso();
      for (const [index, id] of ids.entries()) {
        await trx.updateTable("videos").set({ sort_order: index, updated_at: now }).where("id", "=", id).execute();
      }
      return true;
    });
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom("videos")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Claims a one-time flag; true for the one caller that set it. */
  async claimFlag(key: string): Promise<boolean> {
    const res = await this.db
      .insertInto("app_flags")
      .values({ key, created_at: nowIso() })
      .onConflict((oc) => oc.column("key").doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
