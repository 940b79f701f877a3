/**
 * Helpers of the article browser tests: seed feeds and articles straight into the server's
 * database, serve RSS documents from a local HTTP server, and keep the tests that ingest or
 * need a known article set from overlapping across workers.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Services } from "../../app/server/services.server";
import { E2E_DATA_DIR } from "./env";

const now = () => new Date().toISOString();
export const uniq = () => crypto.randomBytes(4).toString("hex");

export async function seedFeed(
  services: Services,
  feed: {
    name?: string;
    url?: string;
    category?: string;
    is_active?: boolean;
    last_error?: string | null;
    consecutive_failures?: number;
    last_ingested_at?: string | null;
  } = {},
) {
  const tag = uniq();
  const row = await services.database.db
    .insertInto("rss_feeds")
    .values({
      name: feed.name ?? `Seed Feed ${tag}`,
      url: feed.url ?? `https://feeds.example.org/${tag}.xml`,
      category: feed.category ?? "general",
      is_active: feed.is_active ? 1 : 0,
      last_ingested_at: feed.last_ingested_at ?? null,
      last_error: feed.last_error ?? null,
      consecutive_failures: feed.consecutive_failures ?? 0,
      created_at: now(),
      updated_at: now(),
    })
    .returning(["id", "name", "url"])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), name: row.name, url: row.url };
}

export interface SeedArticle {
  title: string;
  category: string;
  summary?: string | null;
  content?: string | null;
  link?: string;
  image_url?: string | null;
  published_at?: string;
  source_name?: string | null;
}

/** Inserts articles under one feed; published_at defaults to a minute apart, newest first in input order. */
export async function seedArticles(services: Services, feedId: number, articles: SeedArticle[]) {
  const base = Date.parse("2024-06-01T12:00:00.000Z");
  const rows = articles.map((a, i) => {
    const key = uniq() + i;
    return {
      feed_id: feedId,
      dedupe_key: `seed:${key}`,
      guid: `seed-${key}`,
      link: a.link ?? `https://news.example.org/${key}`,
      title: a.title,
      summary: a.summary === undefined ? `Summary of ${a.title}` : a.summary,
      content: a.content ?? null,
      image_url: a.image_url ?? null,
      published_at: a.published_at ?? new Date(base - i * 60_000).toISOString(),
      category: a.category,
      source_name: a.source_name === undefined ? "Seed Source" : a.source_name,
      content_hash: key,
      created_at: now(),
      updated_at: now(),
    };
  });
  for (let i = 0; i < rows.length; i += 50)
    await services.database.db
      .insertInto("articles")
      .values(rows.slice(i, i + 50))
      .execute();
}

export async function deleteArticlesIn(services: Services, categories: string[]) {
  await services.database.db.deleteFrom("articles").where("category", "in", categories).execute();
}

/** The ingest answers a run finished within the last minute again; tests that ingest want a fresh run. */
export async function forgetRecentIngests(services: Services) {
  await services.database.db
    .updateTable("ingest_runs")
    .set({ finished_at: "2000-01-01T00:00:00.000Z" })
    .where("finished_at", "is not", null)
    .execute();
}

export async function deleteFeed(services: Services, id: number) {
  await services.database.db.deleteFrom("rss_feeds").where("id", "=", id).execute();
}

/**
 * Runs `fn` while holding a lock shared by every browser-test worker of this server: ingests
 * fetch every active feed and change the article set, so the tests that ingest, or that need
 * to know the whole article set, take turns.
 */
export async function withArticlesLock<T>(fn: () => Promise<T>): Promise<T> {
  const dir = path.join(E2E_DATA_DIR, "articles-test.lock");
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // A lock left by a crashed worker expires.
      const stat = fs.statSync(dir, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > 90_000) fs.rmSync(dir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for the articles test lock");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function rssDocument(title: string, items: Array<{ title: string; guid: string; description?: string }>) {
  const entries = items
    .map(
      (it, i) => `
    <item>
      <title>${it.title}</title>
      <link>https://news.example.org/${it.guid}</link>
      <guid isPermaLink="false">${it.guid}</guid>
      <description><![CDATA[<p>${it.description ?? `About ${it.title}`}</p>]]></description>
      <pubDate>${new Date(Date.now() - (i + 1) * 3_600_000).toUTCString()}</pubDate>
    </item>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>${title}</title>
    <link>https://news.example.org/</link>
    <description>Test feed</description>${entries}
  </channel>
</rss>`;
}

/** A local HTTP server answering every request with one RSS document (E2E allows private hosts). */
export async function startFeedServer(body: () => string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "no-store" });
    res.end(body());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/feed.xml`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
