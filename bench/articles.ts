/**
 * `npm run bench:articles`: the knowledge center's page query (ArticlesService.listArticles:
 * one page, the total and the category counts) with 100,000 articles stored. Prints one JSON
 * object with p50/p99 per category and unfiltered, on SQLite and, when TEST_DATABASE_URL is
 * set, PostgreSQL; beside it the bare index scan of one page, the limit for that query. Each
 * page figure carries its goal (p99 under 5 ms at any page), the share of the goal it uses
 * and whether it meets it; goalsMet lists the figures that miss. A page of 1,000 articles
 * has no goal: it is not a page the knowledge center shows.
 */
import { sql } from "kysely";
import { ARTICLE_CATEGORIES } from "../app/domain/article-categories";
import { nowIso } from "../app/platform/db.server";
import { againstGoal, benchDialects, benchServices, goalsMet, machineLoad, percentile, round, timed } from "./bench-db";

const TOTAL = 100_000;
const FEEDS = 100;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const LIMIT = 10;
/** The goal: p99 of one page, at any page, of all articles or of one category. */
const GOAL_MS = 5;

/** A skewed mix, like real feeds: some categories are big, some tiny. */
function categoryFor(i: number): string {
  const weights = ARTICLE_CATEGORIES.map((_, k) => k + 1);
  const sum = weights.reduce((a, b) => a + b, 0);
  let r = (i * 7919) % sum;
  for (let k = 0; k < weights.length; k++) {
    if (r < weights[k]) return ARTICLE_CATEGORIES[k];
    r -= weights[k];
  }
  return ARTICLE_CATEGORIES[0];
}

async function seed(services: Awaited<ReturnType<typeof benchServices>>["services"]) {
  const { db } = services.database;
  const now = nowIso();
  const feedIds: number[] = [];
  for (let f = 0; f < FEEDS; f++) {
    const feed = await services.feeds.createFeed({
      name: `Feed ${f}`,
      url: `https://feed${f}.example.com/rss`,
      category: "general",
      is_active: false,
    });
    feedIds.push(feed.id);
  }
  const start = Date.UTC(2021, 0, 1);
  const span = 3 * 365 * 24 * 3_600_000;
  const CHUNK = 500;
  for (let i = 0; i < TOTAL; i += CHUNK) {
    await db.transaction().execute(async (trx) => {
      const rows = [];
      for (let j = i; j < Math.min(TOTAL, i + CHUNK); j++) {
        rows.push({
          feed_id: feedIds[j % FEEDS],
          dedupe_key: `k${j}`,
          guid: `https://feed${j % FEEDS}.example.com/?p=${j}`,
          link: `https://feed${j % FEEDS}.example.com/posts/${j}/`,
          title: `Article ${j}: seasonal home maintenance you should not skip`,
          summary: "Gutters, roofs, furnaces and water heaters all need a look twice a year. ".repeat(3).trim(),
          content: `<p>${"Gutters, roofs, furnaces and water heaters all need a look twice a year. ".repeat(8)}</p>`,
          image_url: j % 3 ? `https://feed${j % FEEDS}.example.com/img/${j}.jpg` : null,
          published_at: new Date(start + ((j * 104729) % span)).toISOString(),
          category: categoryFor(j),
          source_name: `Feed ${j % FEEDS}`,
          content_hash: "h",
          created_at: now,
          updated_at: now,
        });
      }
      // 15 columns x 500 rows stays under both drivers' parameter limits in 2 statements.
      for (let k = 0; k < rows.length; k += 250)
        await trx
          .insertInto("articles")
          .values(rows.slice(k, k + 250))
          .execute();
    });
  }
  if (services.database.dialect === "postgres") await sql`analyze articles`.execute(db);
  else await sql`analyze`.execute(db);
}

async function measure(fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < 10; i++) await fn(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) times.push((await timed(() => fn(i))).ms);
  times.sort((a, b) => a - b);
  return {
    p50: round(percentile(times, 50)),
    p99: round(percentile(times, 99)),
    mean: round(times.reduce((a, b) => a + b, 0) / times.length),
  };
}

async function main() {
  const out: Record<string, unknown> = {
    benchmark: "articles-page-query",
    articles: TOTAL,
    limit: LIMIT,
    iterations: ITERATIONS,
    machineAtStart: machineLoad(),
    goals: { pageP99Ms: GOAL_MS },
  };
  for (const dialect of benchDialects()) {
    const { services, close } = await benchServices(dialect);
    try {
      const seeded = await timed(() => seed(services));
      const { articles } = services;
      const counts = new Map((await articles.repo.categoryCounts()).map((c) => [c.category, c.count]));
      const pages = (category?: string) => Math.max(1, Math.ceil((category ? (counts.get(category) ?? 0) : TOTAL) / LIMIT));
      // Pages spread over the first 100 (where readers are) plus the last one (the deepest offset).
      const pageFor = (i: number, category?: string) => (i % 20 === 19 ? pages(category) : 1 + ((i * 37) % Math.min(100, pages(category))));

      const page = async (fn: (i: number) => Promise<unknown>) => againstGoal(await measure(fn), GOAL_MS);
      const unfiltered = await page((i) => articles.listArticles({ page: pageFor(i), limit: LIMIT }));
      const firstPage = await page(() => articles.listArticles({ page: 1, limit: LIMIT }));
      const middlePages = await page((i) => articles.listArticles({ page: Math.floor(pages() / 2) + (i % 3) - 1, limit: LIMIT }));
      const fullList = await measure(() => articles.listArticles({ page: 1, limit: 1000 }));
      const bareScan = await measure(() => articles.repo.page({ offset: 0, limit: LIMIT }));
      const perCategory: Record<string, unknown> = {};
      for (const category of ARTICLE_CATEGORIES) {
        perCategory[category] = {
          articles: counts.get(category) ?? 0,
          ...(await page((i) => articles.listArticles({ page: pageFor(i, category), limit: LIMIT, category }))),
        };
      }
      const result = {
        seedMs: round(seeded.ms),
        unfiltered,
        unfilteredFirstPage: firstPage,
        unfilteredMiddlePages: middlePages,
        unfilteredPageSize1000: fullList,
        onePageIndexScanOnly: bareScan,
        perCategory,
      };
      out[dialect] = { ...result, goalsMet: goalsMet(result) };
    } finally {
      await close();
    }
  }
  out.machineAtEnd = machineLoad();
  out.node = process.version;
  console.log(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
