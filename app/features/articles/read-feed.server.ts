import { decodeFeedBody } from "./decode-feed.server";
import { normalizeItem, plainTitle, prepareItems, type NormalizedItem } from "./normalize-item.server";
import { parseFeedDocument } from "./parse-feed.server";

/**
 * Bytes of a feed to articles ready to store: decode, parse, normalize, dedupe. The source name
 * is the feed document's title, else the name the admin gave the feed. Pure work on the CPU:
 * the ingest runs it in the feed reader's thread (feed-reader.server.ts).
 */
export function readFeedItems(body: Uint8Array, contentType: string | null, url: string, feedName: string, now = Date.now()) {
  const { text } = decodeFeedBody(Buffer.from(body.buffer, body.byteOffset, body.byteLength), contentType);
  const parsed = parseFeedDocument(text, url);
  const items = parsed.items.map((raw) => normalizeItem(raw, now)).filter((it): it is NormalizedItem => !!it);
  const sourceName = (parsed.title && plainTitle(parsed.title, parsed.titleIsText)) || feedName;
  return { format: parsed.format, sourceName, items: prepareItems(items, sourceName) };
}

export type FeedRead = ReturnType<typeof readFeedItems>;
