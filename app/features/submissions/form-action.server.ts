import { data } from "react-router";
import { HttpError } from "~/platform/http.server";
import type { Logger } from "~/platform/logger.server";
import type { FormActionData } from "./form-result";
import { HONEYPOT_FIELD } from "./schemas";


/** The posted fields as strings (files and repeated names are not part of these forms). */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/**
 * Runs a submission through the same service as the JSON API and answers with what the
 * page shows: success, the field errors, or a failure that hands the typed values back so
 * nothing is lost.
 */
export async function submitPostedForm(
  raw: Record<string, string>,
  logger: Logger,
  submit: (raw: Record<string, string>) => Promise<{ id: number }>,
) {
  const { [HONEYPOT_FIELD]: _trap, ...values } = raw;
  try {
    const row = await submit(raw);
    return data<FormActionData>({ status: "success", id: row.id });
  } catch (err) {
    if (err instanceof HttpError && err.status < 500) {
      if (err.status === 400 && err.details && typeof err.details === "object") {
        return data<FormActionData>(
          { status: "invalid", values, errors: err.details as Record<string, string> },
          { status: 400 },
        );
      }
      return data<FormActionData>({ status: "failed", values, message: err.message }, { status: err.status, headers: err.headers });
    }
    logger.error({ err }, "form submission failed");
    return data<FormActionData>(
      { status: "failed", values, message: "The server could not save your submission" },
      { status: 500 },
    );
  }
}
