/**
 * Browser calls of the submissions tab. A failed call throws an Error with the server's
 * `error` text, else 'API request failed: {status}' (non-ok status) or 'API returned error'.
 */
import { jsonClient } from "~/platform/json-client";
import {
  MESSAGES,
  type AssignAnswer,
  type BulkDeleteAnswer,
  type NoteAnswer,
  type IdsByTable,
  type StatusChangeAnswer,
  type SubmissionDetailAnswer,
  type SubmissionsPage,
  type SubmissionStatus,
} from "../contract";

const call = jsonClient({ status: MESSAGES.apiFailed, unsuccessful: MESSAGES.apiError });

export const submissionsApi = {
  list: (query: URLSearchParams, signal?: AbortSignal) => call<SubmissionsPage>(`/api/admin/submissions?${query}`, { signal }),
  detail: (id: string, signal?: AbortSignal) =>
    call<SubmissionDetailAnswer>(`/api/admin/submissions/${encodeURIComponent(id)}`, { signal }).then((b) => b.submission),
  addNote: (id: string, body: string) =>
    call<NoteAnswer>(`/api/admin/submissions/${encodeURIComponent(id)}/notes`, { method: "POST", json: { body } }).then((b) => b.note),
  reply: (id: string, mail: { subject: string; message: string }) =>
    call<NoteAnswer>(`/api/admin/submissions/${encodeURIComponent(id)}/reply`, { method: "POST", json: mail }).then((b) => b.note),
  assign: (id: string, userId: number | null) =>
    call<AssignAnswer>(`/api/admin/submissions/${encodeURIComponent(id)}/assignee`, { method: "PUT", json: { userId } }).then(
      (b) => b.assignedTo,
    ),
  exportHref: (query: URLSearchParams) => `/api/admin/submissions/export?${query}`,
  setStatus: (id: string, status: SubmissionStatus) =>
    call<StatusChangeAnswer>("/api/admin/forms", { method: "PUT", json: { id, status } }),
  remove: (idsByTable: Partial<IdsByTable>) =>
    call<BulkDeleteAnswer>("/api/admin/forms", { method: "DELETE", json: { idsByTable } }).then((b) => b.deleted),
};

export { errorReason as errorText } from "~/platform/json-client";
