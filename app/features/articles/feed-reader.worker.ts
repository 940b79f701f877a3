/**
 * The feed reader's thread: reads feeds (readFeedItems) for the ingest, off the thread that
 * answers requests. A message is one feed; the answer carries its articles or its error.
 */
import { parentPort } from "node:worker_threads";
import { readFeedItems } from "./read-feed.server";
import type { ReadRequest, ReadAnswer } from "./feed-reader.server";

parentPort!.on("message", (req: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    answer = { id: req.id, read: readFeedItems(req.body, req.contentType, req.url, req.feedName, req.now) };
  } catch (err) {
    const { name, message } = err instanceof Error ? err : new Error(String(err));
    answer = { id: req.id, error: { name, message } };
  }
  parentPort!.postMessage(answer);
});
