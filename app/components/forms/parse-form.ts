import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "~/platform/zod";

/** A form's zod schema: an object of named fields (what a form posts). */
export type FormSchema = z.ZodType<unknown, Record<string, unknown>>;

/** Conform's answer about a posted form: the values posted and each field's errors. */
export type FormResult = SubmissionResult<string[]>;

/**
 * Reads a posted form with its schema, in page actions and in the browser alike. Conform's
 * automatic coercion is off: the schemas treat blank fields themselves, exactly as they do for
 * the JSON API, so a form and an API call get the same answers.
 */
export function parseForm<S extends FormSchema>(formData: FormData, schema: S) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true });
}
