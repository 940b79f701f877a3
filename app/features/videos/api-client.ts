import { jsonClient } from "~/platform/json-client";
import type { VideoCategoryCount, VideoInput, VideoJson } from "./contract";

/** Browser calls to /api/videos (contract.ts). Failures throw an Error whose message is the reason to show. */
const call = jsonClient();

export const videosApi = {
  categories: () => call<{ categories: VideoCategoryCount[] }>("/api/videos/categories").then((b) => b.categories ?? []),
  list: (category?: string) =>
    call<{ videos: VideoJson[] }>(category ? `/api/videos?category=${encodeURIComponent(category)}` : "/api/videos").then(
      (b) => b.videos ?? [],
    ),
  add: (input: VideoInput) => call<{ video: VideoJson }>("/api/videos", { method: "POST", json: input }).then((b) => b.video),
  update: (id: number, input: VideoInput) =>
    call<{ video: VideoJson }>(`/api/videos/${id}`, { method: "PUT", json: input }).then((b) => b.video),
  remove: (id: number) => call(`/api/videos/${id}`, { method: "DELETE" }).then(() => undefined),
  reorder: (category: string, ids: number[]) =>
    call<{ videos: VideoJson[] }>("/api/videos/order", { method: "PUT", json: { category, ids } }).then((b) => b.videos ?? []),
};
