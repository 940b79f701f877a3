/**
 * The browser's calls to our JSON API. A call reads the JSON answer and throws an ApiError
 * whose message is the reason to show a person: the server's `error`, else a message for a
 * non-ok status ('HTTP error! status: N' by default, spec admin-side section 7), else one for
 * an answer without `success` ('Unknown error' by default).
 */
export const UNKNOWN_ERROR = "Unknown error";

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public body: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  signal?: AbortSignal;
}

export interface FailureMessages {
  /** For a non-ok status without an `error` text. */
  status?: (status: number) => string;
  /** For an ok status whose answer is unreadable or says success: false, without an `error` text. */
  unsuccessful?: string;
}

/** A caller with a feature's own failure texts. */
export function jsonClient(messages: FailureMessages = {}) {
  const statusMessage = messages.status ?? ((status: number) => `HTTP error! status: ${status}`);
  const unsuccessful = messages.unsuccessful ?? UNKNOWN_ERROR;
  return async function call<T>(path: string, init: CallOptions = {}): Promise<T> {
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
    if (!res.ok) throw new ApiError(serverError ?? statusMessage(res.status), res.status, body);
    if (!body || body.success === false) throw new ApiError(serverError ?? unsuccessful, res.status, body);
    return body as T;
  };
}

/** The reason of a failure, for messages such as 'Failed to ...: {reason}'. */
export function errorReason(err: unknown): string {
  return err instanceof Error && err.message ? err.message : UNKNOWN_ERROR;
}
