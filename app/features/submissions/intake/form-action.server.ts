import { data } from "react-router";
import { parseForm, type FormSchema } from "~/components/forms/parse-form";
import { expectedError } from "~/platform/http.server";
import type { Logger } from "~/platform/logger.server";
import type { FormActionData } from "./form-result";
import { isHoneypotFilled } from "./schemas";

/** The posted fields as strings (files and repeated names are not part of these forms): what the service reads. */
export function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/**
 * A public form posted without JavaScript: checked with the form's schema (the browser's),
 * then run through the same service as the JSON API. Answers with what the page shows:
 * success, the field errors, or a failure; the last two hand the typed values back.
 */
export async function submitPostedForm(
  formData: FormData,
  schema: FormSchema,
  logger: Logger,
  submit: (raw: Record<string, string>) => Promise<{ id: number }>,
) {
  const raw = formValues(formData);
  const submission = parseForm(formData, schema);
  // A filled bot trap goes straight to the service, which refuses it whatever the fields say.
  if (submission.status !== "success" && !isHoneypotFilled(raw)) {
    return data<FormActionData>({ status: "invalid", result: submission.reply() }, { status: 400 });
  }
  try {
    const row = await submit(raw);
    return data<FormActionData>({ status: "success", id: row.id });
  } catch (err) {
    const refused = expectedError(err);
    if (refused && refused.status < 500) {
      if (refused.status === 400 && refused.details && typeof refused.details === "object") {
        const fieldErrors = Object.fromEntries(
          Object.entries(refused.details as Record<string, string>).map(([name, message]) => [name, [message]]),
        );
        return data<FormActionData>({ status: "invalid", result: submission.reply({ fieldErrors }) }, { status: 400 });
      }
      return data<FormActionData>(
        { status: "failed", result: submission.reply(), message: refused.message },
        { status: refused.status, headers: refused.headers },
      );
    }
    logger.error({ err }, "form submission failed");
    return data<FormActionData>(
      { status: "failed", result: submission.reply(), message: "The server could not save your submission" },
      { status: 500 },
    );
  }
}
