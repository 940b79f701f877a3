/**
 * Browser calls of the submissions tab. A failed call throws an Error with the server's
 * `error` text, else 'API request failed: {status}' (non-ok status) or 'API returned error'.
 */
import {
  MESSAGES,
  type BulkDeleteAnswer,
  type IdsByTable,
  type StatusChangeAnswer,
  type SubmissionDetailAnswer,
  type SubmissionsPage,
  type SubmissionStatus,
} from "../contract";

async function call<T>(path: string, init: { method?: string; json?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: { Accept: "application/json", ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    credentials: "same-origin",
    signal: init.signal,
  });
  let body: Record<string, unknown> | null = null;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = null;
  }
  const serverError = typeof body?.error === "string" && body.error ? body.error : null;
  if (!res.ok) throw new Error(serverError ?? MESSAGES.apiFailed(res.status));
  if (!body || body.success === false) throw new Error(serverError ?? MESSAGES.apiError);
  return body as T;
}

export const submissionsApi = {
  list: (query: URLSearchParams, signal?: AbortSignal) => call<SubmissionsPage>(`/api/admin/submissions?${query}`, { signal }),
  detail: (id: string, signal?: AbortSignal) =>
    call<SubmissionDetailAnswer>(`/api/admin/submissions/${encodeURIComponent(id)}`, { signal }).then((b) => b.submission),
  exportHref: (query: URLSearchParams) => `/api/admin/submissions/export?${query}`,
  setStatus: (id: string, status: SubmissionStatus) =>
    call<StatusChangeAnswer>("/api/admin/forms", { method: "PUT", json: { id, status } }),
  remove: (idsByTable: Partial<IdsByTable>) =>
    call<BulkDeleteAnswer>("/api/admin/forms", { method: "DELETE", json: { idsByTable } }).then((b) => b.deleted),
};

export function errorText(err: unknown): string {
  return err instanceof Error && err.message ? err.message : "Unknown error";
}
