import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { DomainError, type DomainErrorKind } from "./errors";
import { holdsIllFormedText } from "./text-fields";

/** An error with an HTTP status and a message safe to show the caller. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public details?: unknown,
    public headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthorized = (message = "Authentication required") => new HttpError(401, message);
export const forbidden = (message = "You do not have permission to do this") => new HttpError(403, message);
export const notFound = (message = "Not found") => new HttpError(404, message);

/** Wraps an async handler so a rejection reaches the error handler (Express 5 does this too; kept explicit). */
export function handler(fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown> | unknown): RequestHandler {
  return (req, res, next) => {
    Promise.resolve(fn(req, res, next)).catch(next);
  };
}

/** `Cache-Control: no-store`: answers that hold personal data or change with every write. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  next();
};

export const JSON_LIMIT = "1mb";

/**
 * JSON body parser for API routers. It parses whatever the Content-Type says (a JSON API
 * with a text/plain body is still JSON, and still size-limited); multipart is left to its
 * own route.
 */
export function jsonBody(limit: string | number = JSON_LIMIT): RequestHandler {
  const parse = express.json({
    limit,
    strict: false,
    type: (req) => {
      const type = String(req.headers["content-type"] ?? "");
      return !type.startsWith("multipart/");
    },
    // Bytes that are not UTF-8 (0xFF) would be read as U+FFFD and stored so: refused like a lone surrogate.
    verify: (_req, _res, bytes, encoding) => {
      if (!isWellFormed(bytes, encoding)) throw new HttpError(400, ILL_FORMED_TEXT);
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      // JSON escapes can spell half a surrogate pair ("\ud800"): text no field may store.
      if (holdsIllFormedText(req.body)) return next(new HttpError(400, ILL_FORMED_TEXT));
      next();
    });
}

export const ILL_FORMED_TEXT = "The request holds text that is not valid Unicode";

/** Whether a body's bytes are well-formed text in its charset (UTF-8 unless it names a UTF-16 one). */
function isWellFormed(bytes: Uint8Array, encoding: string): boolean {
  const label = encoding.toLowerCase();
  try {
    new TextDecoder(label === "utf-16" ? "utf-16le" : label, { fatal: true }).decode(bytes);
    return true;
  } catch (err) {
    // A charset TextDecoder does not know is left to the parser (which answers 415).
    return (err as { code?: string }).code !== "ERR_ENCODING_INVALID_ENCODED_DATA";
  }
}

/** JSON error answers: {success:false, error, details?}; never a stack trace. */
export function apiErrorHandler(log: { error: (o: object, m: string) => void }): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { status, body, headers } = toErrorResponse(err);
    if (status >= 500) log.error({ err, method: req.method, path: req.path }, "request failed");
    if (res.headersSent) return;
    if (headers) res.set(headers);
    res.status(status).json(body);
  };
}

export const MALFORMED_URL = "The address is not valid: it holds a malformed percent-encoded character";

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 502,
};

/** An error answered as the caller's (a refusal, a bad request): its status, message, details and headers. */
export interface ExpectedError {
  status: number;
  message: string;
  details?: unknown;
  headers?: Record<string, string>;
}

/**
 * A service's DomainError or an HttpError under 500, as HTTP; null for anything else (a fault
 * of ours, answered 500 and logged).
 */
export function expectedError(err: unknown): ExpectedError | null {
  if (err instanceof DomainError) {
    return {
      status: STATUS_OF[err.kind],
      message: err.message,
      details: err.details,
      headers: err.retryAfterSeconds !== undefined ? { "Retry-After": String(err.retryAfterSeconds) } : undefined,
    };
  }
  if (err instanceof HttpError && err.status < 500)
    return { status: err.status, message: err.message, details: err.details, headers: err.headers };
  return null;
}

export function toErrorResponse(err: unknown): {
  status: number;
  body: { success: false; error: string; details?: unknown };
  headers?: Record<string, string>;
} {
  const expected = expectedError(err);
  if (expected) {
    const { status, message, details, headers } = expected;
    return { status, body: { success: false, error: message, ...(details !== undefined ? { details } : {}) }, headers };
  }
  if (err instanceof HttpError) return { status: err.status, body: { success: false, error: err.message }, headers: err.headers };
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === "entity.too.large") return { status: 413, body: { success: false, error: "Request body is too large" } };
  if (e?.type === "entity.parse.failed") return { status: 400, body: { success: false, error: "Request body is not valid JSON" } };
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported")
    return { status: 415, body: { success: false, error: "Unsupported request encoding" } };
  // Express's router decodes path parameters itself and throws a URIError marked 400 for a
  // malformed escape (/api/videos/%ff): the address is the caller's mistake.
  if (err instanceof URIError) return { status: 400, body: { success: false, error: MALFORMED_URL } };
  if (e?.status && e.status >= 400 && e.status < 500) return { status: e.status, body: { success: false, error: "Bad request" } };
  return { status: 500, body: { success: false, error: "Internal server error" } };
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/**
 * What Node's HTTP server does by default and this site does otherwise, applied to every
 * server the app listens on (production and tests alike):
 * - CONNECT never reaches Express: Node hands it to the server's "connect" event and, with no
 *   listener, drops the connection without a word. This site is not a proxy: answer 405.
 * - A client may half-close its side after sending the request (some health checkers and
 *   proxies do). Node then aborts the request and ends the socket unless the server allows
 *   half-open connections; with it, the answer is written and the socket closed after it.
 */
export function configureHttpServer(server: Server) {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("connect", (_req: unknown, socket: Duplex) => {
    socket.on("error", () => {});
    socket.end("HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  return server;
}
