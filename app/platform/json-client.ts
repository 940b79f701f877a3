/**
 * The browser's calls to our JSON API. A call reads the JSON answer and throws an ApiError
 * whose message is the reason to show a person: the server's `error`, else a message for a
 * non-ok status ('HTTP error! status: N' by default, spec admin-side section 7), else one for
 * an answer without `success` ('Unknown error' by default). No answer in REQUEST_TIMEOUT_MS: a
 * ConnectionLostError, whose message says the connection seems lost.
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

/**
 * How long the browser waits for an answer, read whole, before it says the connection seems
 * lost (issue 48: a request that never answered left "Sending..." forever). Longer than any
 * answer the site gives on a slow line; an upload of a file has its own progress and is not
 * sent through here.
 */
export const REQUEST_TIMEOUT_MS = 30_000;
export const CONNECTION_LOST =
  "The connection seems lost: no answer came in 30 seconds. Check your connection and try again; what you typed is still here.";

/** No answer came within REQUEST_TIMEOUT_MS: the request was given up. Its message is CONNECTION_LOST. */
export class ConnectionLostError extends Error {
  constructor() {
    super(CONNECTION_LOST);
    this.name = "ConnectionLostError";
  }
}

/** The message for a failure that was not an answer: the connection lost, else `otherwise`. */
export function connectionFailure(err: unknown, otherwise: string): string {
  return err instanceof ConnectionLostError ? err.message : otherwise;
}

/**
 * Every request of the site's forms and screens: the answer and its body, read whole, or a
 * ConnectionLostError once REQUEST_TIMEOUT_MS have passed without them (the request is
 * aborted). The caller's own `signal` still aborts it as before (an AbortError). `timeoutMs: null`
 * waits as long as it takes (a run the server finishes before it answers, such as an ingest).
 */
export async function requestInTime(
  path: string,
  init: RequestInit & { timeoutMs?: number | null } = {},
): Promise<{ response: Response; text: string }> {
  const { timeoutMs = REQUEST_TIMEOUT_MS, ...request } = init;
  const deadline = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          deadline.abort();
        }, timeoutMs);
  const caller = init.signal;
  const follow = () => deadline.abort();
  if (caller?.aborted) deadline.abort();
  else caller?.addEventListener("abort", follow, { once: true });
  try {
    const response = await fetch(path, { ...request, signal: deadline.signal });
    return { response, text: await response.text() };
  } catch (err) {
    if (timedOut) throw new ConnectionLostError();
    throw err;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", follow);
  }
}

export interface CallOptions {
  method?: string;
  json?: unknown;
  signal?: AbortSignal;
  /** REQUEST_TIMEOUT_MS unless said; null: no deadline. */
  timeoutMs?: number | null;
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
    const { response: res, text } = await requestInTime(path, {
      method: init.method ?? "GET",
      headers: { Accept: "application/json", ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
      credentials: "same-origin",
      signal: init.signal,
      timeoutMs: init.timeoutMs,
    });
    let body: Record<string, unknown> | null = null;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
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
