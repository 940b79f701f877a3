/**
 * The browser's calls to /api/admin/announcements (the contract's routes). Every call reads
 * the JSON answer and throws an ApiError carrying the server's `error` text.
 */
import { jsonClient } from "~/platform/json-client";
import type {
  AnnouncementAnswer,
  AnnouncementList,
  Audience,
  AudienceCount,
  AudienceOptions,
  DraftInput,
  PreviewAnswer,
  PreviewInput,
  TestAnswer,
} from "../contract";

export { errorReason as errorText } from "~/platform/json-client";

const call = jsonClient();
const base = "/api/admin/announcements";

export const announcementsApi = {
  list: (signal?: AbortSignal) => call<AnnouncementList>(base, { signal }).then((b) => b.announcements),
  options: () => call<AudienceOptions>(`${base}/options`),
  count: (audience: Audience, signal?: AbortSignal) =>
    call<AudienceCount>(`${base}/audience`, { method: "POST", json: { audience }, signal }),
  get: (id: number, signal?: AbortSignal) => call<AnnouncementAnswer>(`${base}/${id}`, { signal }).then((b) => b.announcement),
  create: (input: DraftInput) => call<AnnouncementAnswer>(base, { method: "POST", json: input }).then((b) => b.announcement),
  update: (id: number, input: DraftInput) =>
    call<AnnouncementAnswer>(`${base}/${id}`, { method: "PUT", json: input }).then((b) => b.announcement),
  remove: (id: number) => call<{ success: true }>(`${base}/${id}`, { method: "DELETE" }),
  preview: (input: PreviewInput) => call<PreviewAnswer>(`${base}/preview`, { method: "POST", json: input }),
  test: (input: PreviewInput) => call<TestAnswer>(`${base}/test`, { method: "POST", json: input }),
  schedule: (id: number, at: string) =>
    call<AnnouncementAnswer>(`${base}/${id}/schedule`, { method: "POST", json: { at } }).then((b) => b.announcement),
  send: (id: number) => call<AnnouncementAnswer>(`${base}/${id}/send`, { method: "POST" }).then((b) => b.announcement),
  cancel: (id: number) => call<AnnouncementAnswer>(`${base}/${id}/cancel`, { method: "POST" }).then((b) => b.announcement),
  problemsHref: (id: number) => `${base}/${id}/problems.csv`,
};
