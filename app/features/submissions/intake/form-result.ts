import type { FormResult } from "~/components/forms/parse-form";

/**
 * What a page action answers when a public form is posted without JavaScript. `result` is
 * Conform's reply: the posted values (so nothing typed is lost) and each field's errors.
 */
export type FormActionData =
  { status: "success"; id: number } | { status: "invalid"; result: FormResult } | { status: "failed"; result: FormResult; message: string };

/** A value the visitor posted (for example the hidden choice of a request form). */
export function postedValue(answer: FormActionData | undefined, name: string): string | undefined {
  if (!answer || answer.status === "success") return undefined;
  const value = answer.result.initialValue?.[name];
  return typeof value === "string" ? value : undefined;
}
