/**
 * `npm run bench:ingest`: 50 feeds x 100 items served by a local HTTP server in a process of
 * its own. Prints one JSON
 * object: the first ingest and the re-ingests (304s; full bodies with nothing new), beside the
 * limit measured in the same run: only decoding, parsing and normalizing the same bytes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFeedServer } from "../tests/support/feed-server";
import { readFeedItems } from "../app/features/articles/read-feed.server";
import { benchDialects, benchServices, round, timed } from "./bench-db";

const FEEDS = 50;
const ITEMS = 100;

/**
 * The feeds' server in a process of its own, as the feeds' real servers are elsewhere: serving
 * 8.5 MB from this process would charge its work to the ingest. Prints its address when ready.
 */
function feedBody(f: number): string {
  const items = Array.from({ length: ITEMS }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, 1) + (f * ITEMS + i) * 3_600_000).toUTCString();
    return `<item>
  <title><![CDATA[Feed ${f} article ${i}: keeping your home in shape &amp; ready for spring]]></title>
  <link>https://feed${f}.example.com/posts/${i}/</link>
  <dc:creator><![CDATA[Author ${f}]]></dc:creator>
  <pubDate>${day}</pubDate>
  <guid isPermaLink="false">https://feed${f}.example.com/?p=${i}</guid>
  <description><![CDATA[<p>Short excerpt for article ${i} of feed ${f}, with an entity&#8217;s worth of punctuation&#8230;</p>]]></description>
  <content:encoded><![CDATA[<figure><img src="https://feed${f}.example.com/img/${i}.jpg" width="800" height="600" alt=""></figure>
<p>${"Gutters, roofs, furnaces and water heaters all need a look twice a year. ".repeat(12)}</p>
<p>See <a href="/guides/${i}">the guide</a> and <a href="https://other.example.org/x" onclick="t()">this</a>.</p>
<script>track(${i})</script><img src="https://pixel.wp.com/b.gif?post=${i}" width="1" height="1">]]></content:encoded>
</item>`;
  }).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Bench Feed ${f}</title><link>https://feed${f}.example.com/</link><description>Benchmark feed</description>
${items}
</channel></rss>`;
}

async function startFeedServerProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--serve-feeds"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.match(/^FEEDS (\S+)$/m);
      if (line) resolve(line[1]);
    });
    child.once("exit", (code) => reject(new Error(`the feed server exited with ${code}`)));
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function serveFeeds() {
  const server = await startFeedServer();
  for (let f = 0; f < FEEDS; f++) {
    const body = Buffer.from(feedBody(f));
    server.setDynamic(`v${f}.xml`, body, "application/rss+xml; charset=utf-8", { validators: true });
    server.setDynamic(`p${f}.xml`, body, "application/rss+xml; charset=utf-8", { validators: false });
  }
  console.log(`FEEDS ${server.url}`);
  process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
}

async function main() {
  const server = await startFeedServerProcess();
  const bodies = Array.from({ length: FEEDS }, (_, f) => Buffer.from(feedBody(f)));
  const bytes = bodies.reduce((n, b) => n + b.length, 0);

  // The limit: the same bytes through decode + parse + normalize + dedupe, no network, no database.
  const parseRuns: number[] = [];
  for (let r = 0; r < 3; r++) {
    parseRuns.push(
      (
        await timed(() => {
          for (let f = 0; f < FEEDS; f++)
            readFeedItems(bodies[f], "application/rss+xml; charset=utf-8", `${server.url}/dynamic/v${f}.xml`, `Feed ${f}`);
        })
      ).ms,
    );
  }
  const parseOnlyMs = Math.min(...parseRuns);

  const results: Record<string, unknown> = {};
  for (const dialect of benchDialects()) {
    const run = async (prefix: "v" | "p") => {
      const { services, close } = await benchServices(
        dialect,
        { RSS_ALLOW_PRIVATE_HOSTS: "true" },
        { ingest: { ingest: { reuseWindowMs: 0 } } },
      );
      try {
        for (let f = 0; f < FEEDS; f++) {
          await services.feeds.createFeed({
            name: `Feed ${f}`,
            url: `${server.url}/dynamic/${prefix}${f}.xml`,
            category: "home_improvement",
            is_active: true,
          });
        }
        const first = await timed(() => services.ingest.ingestAll({ reason: "bench" }));
        const again = await timed(() => services.ingest.ingestAll({ reason: "bench" }));
        if (first.value.counts.articles !== FEEDS * ITEMS || first.value.counts.failed)
          throw new Error(`unexpected first ingest ${JSON.stringify(first.value.counts)}`);
        if (again.value.counts.articles !== 0) throw new Error("re-ingest added articles");
        return { first, again };
      } finally {
        await close();
      }
    };
    // Both sides warm: the parse-only figure is the best of three runs, so the code the ingest
    // adds (fetching, the database) runs once before it is measured.
    await run("p");
    const withValidators = await run("v");
    const withoutValidators = await run("p");
    results[dialect] = {
      firstIngestMs: round(withValidators.first.ms),
      articlesAdded: withValidators.first.value.counts.articles,
      reingestNotModifiedMs: round(withValidators.again.ms),
      notModifiedFeeds: withValidators.again.value.run.not_modified,
      firstIngestNoValidatorsMs: round(withoutValidators.first.ms),
      reingestFullBodiesMs: round(withoutValidators.again.ms),
      reingestFullBodiesAdded: withoutValidators.again.value.counts.articles,
      reingestFullBodiesUpdated: withoutValidators.again.value.run.updated,
      firstIngestVsParseOnly: round(withValidators.first.ms / parseOnlyMs),
      reingestFullBodiesVsParseOnly: round(withoutValidators.again.ms / parseOnlyMs),
    };
  }
  await server.close();

  console.log(
    JSON.stringify({
      benchmark: "rss-ingest",
      feeds: FEEDS,
      itemsPerFeed: ITEMS,
      bytes,
      concurrency: 4,
      parseOnlyMs: round(parseOnlyMs),
      ...results,
      node: process.version,
    }),
  );
}

(process.argv.includes("--serve-feeds") ? serveFeeds() : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
