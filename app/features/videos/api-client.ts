import { ApiError, UNKNOWN_ERROR } from "~/features/articles/api-client";
import type { VideoCategoryCount, VideoInput, VideoJson } from "./contract";

/** Browser calls to /api/videos (contract.ts). Failures throw an Error whose message is the reason to show. */
async function call<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: { Accept: "application/json", ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    credentials: "same-origin",
  });
  let body: Record<string, unknown> | null = null;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = null;
  }
  const serverError = typeof body?.error === "string" && body.error ? body.error : null;
  if (!res.ok) throw new ApiError(serverError ?? `HTTP error! status: ${res.status}`, res.status, body);
  if (!body || body.success === false) throw new ApiError(serverError ?? UNKNOWN_ERROR, res.status, body);
  return body as T;
}

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
