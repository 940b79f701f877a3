import { z } from "~/platform/zod";

/** The largest id a 32-bit integer column holds (PostgreSQL `integer`). */
export const MAX_RECORD_ID = 2_147_483_647;

/**
 * A record id as callers may send it: a JSON number, or a string of decimal digits (a path
 * segment, a query value). Nothing is coerced: "0x6c", "1e2", " 7", "07", true, [109] and
 * 1.5 are refused, so a spelling can never reach a different row than the one it reads as.
 */
export function parseRecordId(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= MAX_RECORD_ID ? value : null;
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_RECORD_ID ? id : null;
}

/** zod schema of a record id (see parseRecordId), refusing anything else with `message`. */
export function recordIdSchema(message: string) {
  return z.unknown().transform((value, ctx) => {
    const id = parseRecordId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return id;
  });
}
