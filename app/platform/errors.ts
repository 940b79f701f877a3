import type { z } from "~/platform/zod";

/**
 * What a rule refused, in words safe to show the caller. Services throw these and know
 * nothing of HTTP; the API's error handler (`toErrorResponse`), the page actions and the admin
 * command line each turn them into their own answer.
 */
export type DomainErrorKind = "invalid" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "rate_limited" | "unavailable";

export interface DomainErrorOptions {
  /** Per-field messages of an invalid input ({ field: message }), or any detail safe to show. */
  details?: unknown;
  /** rate_limited: when the caller may try again. */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly details?: unknown;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static invalid(message: string, details?: unknown) {
    return new DomainError("invalid", message, { details });
  }
  static unauthenticated(message: string) {
    return new DomainError("unauthenticated", message);
  }
  static forbidden(message: string) {
    return new DomainError("forbidden", message);
  }
  static notFound(message: string) {
    return new DomainError("not_found", message);
  }
  static conflict(message: string) {
    return new DomainError("conflict", message);
  }
  static rateLimited(message: string, retryAfterSeconds: number) {
    return new DomainError("rate_limited", message, { retryAfterSeconds });
  }
  /** Something outside the site (a case source) did not answer. */
  static unavailable(message: string) {
    return new DomainError("unavailable", message);
  }
}

/** Parses a value with a zod schema or throws an invalid DomainError carrying each field's first problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, message = "Invalid request"): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join(".") || "_";
      if (!(key in details)) details[key] = issue.message;
    }
    // The first problem, in words a person can act on; every field's problem in details.
    const first = Object.values(details)[0];
    throw DomainError.invalid(first ?? message, details);
  }
  return result.data;
}
