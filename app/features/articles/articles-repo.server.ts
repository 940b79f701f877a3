import { sql, type Kysely, type Selectable } from "kysely";
import { nowIso } from "~/platform/db.server";
import type { ArticlesTable, Database } from "~/platform/schema";
import type { ArticleJson } from "./contract";

export type ArticleRow = Selectable<ArticlesTable>;

export function toArticleJson(
  row: Pick<
    ArticleRow,
    "id" | "title" | "summary" | "content" | "link" | "category" | "image_url" | "published_at" | "source_name" | "guid"
  >,
): ArticleJson {
  return {
    id: Number(row.id),
    title: row.title,
    summary: row.summary,
    content: row.content,
    link: row.link,
    category: row.category,
    image_url: row.image_url,
    published_at: row.published_at,
    publishDate: row.published_at,
    source_name: row.source_name,
    feedTitle: row.source_name,
    ...(row.guid ? { guid: row.guid } : {}),
  };
}

/** One item of a feed, normalized and ready to store. */
export interface PreparedArticle {
  dedupe_key: string;
  guid: string | null;
  link: string;
  title: string;
  summary: string | null;
  content: string | null;
  image_url: string | null;
  /** null when the feed gave no usable date: a new row then takes the time it was first seen. */
  published_at: string | null;
  source_name: string | null;
  content_hash: string;
}

const LIST_COLUMNS = ["id", "title", "summary", "content", "link", "category", "image_url", "published_at", "source_name", "guid"] as const;
/** Rows per insert (14 parameters each, well under both databases' limits) and keys per lookup. */
export const INSERT_CHUNK = 500;
export const LOOKUP_CHUNK = 500;

/** Data access for articles. */
export class ArticlesRepo {
  constructor(private db: Kysely<Database>) {}

  /**
   * One page, newest first (ties: highest id first), of one category or of all. A deep page
   * starts from its day instead of skipping every newer article: the trigger-kept counts per
   * day (migration 0012) tell which day holds the page's first article and how many newer
   * ones there are, and the page is read from the start of that day, a few rows in. Every
   * published_at is an ISO-8601 instant, so its first ten characters order the articles as
   * the whole value does. A write between the two statements shifts the page by the rows it
   * wrote, as it shifts offset pages between two requests.
   */
  async page(opts: { offset: number; limit: number; category?: string }) {
    let q = this.db.selectFrom("articles").select(LIST_COLUMNS);
    if (opts.category) q = q.where("category", "=", opts.category);
    q = q.orderBy("published_at", "desc").orderBy("id", "desc").limit(opts.limit);
    if (opts.offset === 0) return q.execute();
    const start = await this.pageStart(opts.offset, opts.category);
    if (!start) return [];
    if (start.newerDay !== null) q = q.where("published_at", "<", start.newerDay);
    return q.offset(opts.offset - start.newer).execute();
  }

  /**
   * The day that holds the article at `offset` (newest first): how many articles are newer
   * than that day, and the next newer day that has any (null when it is the newest). Null
   * when there are not that many articles.
   */
  private async pageStart(offset: number, category?: string): Promise<{ newer: number; newerDay: string | null } | null> {
    const columns = [
      sql<string>`day`.as("day"),
      sql<number>`n`.as("n"),
      sql<number>`sum(n) over (order by day desc rows between unbounded preceding and current row)`.as("upto"),
      sql<string | null>`lag(day) over (order by day desc)`.as("newer_day"),
    ];
    const running = category
      ? this.db.selectFrom("article_category_day_counts").select(columns).where("category", "=", category).where("n", ">", 0)
      : this.db.selectFrom("article_day_counts").select(columns).where("n", ">", 0);
    const row = await this.db
      .selectFrom(running.as("d"))
      .select(["n", "upto", "newer_day"])
      .where("upto", ">", offset)
      .orderBy("day", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? { newer: Number(row.upto) - Number(row.n), newerDay: row.newer_day } : null;
  }

  async count(category?: string): Promise<number> {
    let q = this.db.selectFrom("articles").select((eb) => eb.fn.countAll().as("n"));
    if (category) q = q.where("category", "=", category);
    const row = await q.executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Articles per category (categories with none are left out), from the trigger-kept counts table. */
  async categoryCounts(): Promise<Array<{ category: string; count: number }>> {
    const rows = await this.db.selectFrom("article_category_counts").select(["category", "n"]).where("n", ">", 0).execute();
    return rows.map((r) => ({ category: r.category, count: Number(r.n) }));
  }

  /** The newest article of any of these categories. */
  newestIn(categories: readonly string[]) {
    return this.db
      .selectFrom("articles")
      .select(LIST_COLUMNS)
      .where("category", "in", categories as string[])
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** Articles published in [from, to), newest first. */
  between(from: string, to: string, limit: number) {
    return this.db
      .selectFrom("articles")
      .select(LIST_COLUMNS)
      .where("published_at", ">=", from)
      .where("published_at", "<", to)
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  async countBetween(from: string, to: string): Promise<number> {
    const row = await this.db
      .selectFrom("articles")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("published_at", ">=", from)
      .where("published_at", "<", to)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async setCategoryForFeed(feedId: number, category: string) {
    await this.db.updateTable("articles").set({ category, updated_at: nowIso() }).where("feed_id", "=", feedId).execute();
  }

  /**
   * Stores a feed's items: new ones are inserted, changed ones updated, unchanged ones cost
   * nothing. Returns how many were added and updated. Runs in one transaction per feed.
   */
  async saveFeedItems(
    feedId: number,
    category: string,
    items: PreparedArticle[],
    now = nowIso(),
  ): Promise<{ added: number; updated: number }> {
    if (!items.length) return { added: 0, updated: 0 };
    return this.db.transaction().execute(async (trx) => {
      const existing = new Map<string, { id: number; content_hash: string }>();
      for (let i = 0; i < items.length; i += LOOKUP_CHUNK) {
        const keys = items.slice(i, i + LOOKUP_CHUNK).map((it) => it.dedupe_key);
        const rows = await trx
          .selectFrom("articles")
          .select(["id", "dedupe_key", "content_hash"])
          .where("feed_id", "=", feedId)
          .where("dedupe_key", "in", keys)
          .execute();
        for (const r of rows) existing.set(r.dedupe_key, { id: Number(r.id), content_hash: r.content_hash });
      }

      const fresh = items.filter((it) => !existing.has(it.dedupe_key));
      let added = 0;
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
        const res = await trx
          .insertInto("articles")
          .values(
            fresh.slice(i, i + INSERT_CHUNK).map((it) => ({
              feed_id: feedId,
              dedupe_key: it.dedupe_key,
              guid: it.guid,
              link: it.link,
              title: it.title,
              summary: it.summary,
              content: it.content,
              image_url: it.image_url,
              published_at: it.published_at ?? now,
              category,
              source_name: it.source_name,
              content_hash: it.content_hash,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((oc) => oc.columns(["feed_id", "dedupe_key"]).doNothing())
          .executeTakeFirst();
        added += Number(res.numInsertedOrUpdatedRows ?? 0);
      }

      let updated = 0;
      for (const it of items) {
        const prev = existing.get(it.dedupe_key);
        if (!prev || prev.content_hash === it.content_hash) continue;
        await trx
          .updateTable("articles")
          .set({
            guid: it.guid,
            link: it.link,
            title: it.title,
            summary: it.summary,
            content: it.content,
            image_url: it.image_url,
            ...(it.published_at ? { published_at: it.published_at } : {}),
            source_name: it.source_name,
            content_hash: it.content_hash,
            updated_at: now,
          })
          .where("id", "=", prev.id)
          .execute();
        updated++;
      }
      return { added, updated };
    });
  }
}
