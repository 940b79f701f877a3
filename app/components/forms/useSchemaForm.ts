import { useEffect, useRef, useState, type FormEvent } from "react";
import { getFormProps, useForm, type DefaultValue, type Submission } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "~/platform/zod";
import { focusAndReveal } from "./focus";
import { parseForm, type FormResult, type FormSchema } from "./parse-form";

/**
 * The HTML constraints (required, maxLength...) of a form's fields. Conform reads an object
 * schema; one transformed as a whole (the payment's summary) is read from its input side.
 */
function constraintOf(schema: FormSchema) {
  let fieldsSchema: z.core.$ZodType = schema;
  while (fieldsSchema._zod.def.type === "pipe") {
    const { in: input, out } = (fieldsSchema as z.core.$ZodPipe)._zod.def;
    fieldsSchema = out._zod.def.type === "transform" ? input : out;
  }
  return getZodConstraint(fieldsSchema);
}

/** The id of a form's error summary, which takes the focus after a failed send. */
export const errorSummaryId = (formId: string) => `${formId}-error-summary`;

/** Conform submits its own intents (validate a field, update, reset) through a button of this name. */
const CONFORM_INTENT = "__intent__";

function isConformIntent(event: FormEvent<HTMLFormElement>) {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  return submitter?.getAttribute("name") === CONFORM_INTENT;
}

/** The message of each field, from a server's 400 `details`, as Conform's field errors. */
export function toFieldErrors(details: Record<string, string>, known: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, message] of Object.entries(details)) if (known.includes(name) && !out[name]) out[name] = [message];
  return out;
}

export interface SchemaFormOptions<S extends FormSchema> {
  /** The form's id, and the prefix of every control's id ("contact" gives "contact-email"). */
  id: string;
  schema: S;
  /** What the page's action answered when the form was posted without JavaScript. */
  lastResult?: FormResult | null;
  /** Initial values of fields the page fills in (a date, say). */
  defaultValue?: DefaultValue<z.input<S>>;
  /** Where the error summary scrolls to when it takes the focus ("start" for a long one, with a scroll margin). */
  summaryBlock?: ScrollLogicalPosition;
  /**
   * Called with the checked values when the form is sent with JavaScript; the browser's own
   * post is always prevented (each form posts itself, to the JSON API or a dialog).
   */
  onValid: (data: z.output<S>, submission: Submission<z.input<S>, string[], z.output<S>>, form: HTMLFormElement) => void;
}

/**
 * A form on Conform with the team's conventions: the zod schema checks the browser's values
 * (a field when it is left, then again as it is typed in) and the page's action uses the same
 * schema. After a failed send, the error summary shows and takes the focus; it stays, kept up
 * to date, until the form is sent. Errors the server answered are shown beside their fields
 * with `showErrors`.
 */
export function useSchemaForm<S extends FormSchema>({ id, schema, lastResult, defaultValue, summaryBlock, onValid }: SchemaFormOptions<S>) {
  // The last answer shown: the page action's, then the JSON API's errors (see showErrors).
  const [result, setResult] = useState<FormResult | null | undefined>(lastResult);
  const [summaryShown, setSummaryShown] = useState(lastResult?.status === "error");
  const [summaryFocus, setSummaryFocus] = useState(0);
  const valid = useRef(false);
  const [constraint] = useState(() => constraintOf(schema));

  const [form, fields] = useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult: result,
    defaultValue,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, schema),
    onSubmit(event, { submission }) {
      event.preventDefault();
      valid.current = true;
      if (submission?.status !== "success") return;
      setSummaryShown(false);
      onValid(submission.value, submission, event.currentTarget);
    },
  });

  // After Conform has reported the errors (and focused the first field), the summary takes the focus.
  useEffect(() => {
    if (summaryFocus) focusAndReveal(document.getElementById(errorSummaryId(id)), summaryBlock);
  }, [summaryFocus, id, summaryBlock]);

  function showSummary() {
    setSummaryShown(true);
    setSummaryFocus((n) => n + 1);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const intent = isConformIntent(event);
    valid.current = false;
    form.onSubmit(event);
    if (!intent && !valid.current) showSummary();
  }

  return {
    form,
    fields,
    /** Spread on the <form>: id, noValidate (the schema's messages replace the browser's) and the submit handler. */
    formProps: { ...getFormProps(form), onSubmit },
    /** Whether the error summary shows (see ErrorSummary). */
    summaryShown,
    /** Shows errors the server answered for a submission, beside their fields and in the summary. */
    showErrors(submission: Submission<z.input<S>, string[], z.output<S>>, fieldErrors: Record<string, string[]>, formErrors?: string[]) {
      setResult(submission.reply({ fieldErrors, formErrors }));
      if (Object.keys(fieldErrors).length) showSummary();
    },
    /** Empties the form (after a successful send, or a discarded draft). */
    reset() {
      setSummaryShown(false);
      form.reset();
    },
  };
}

export type SchemaForm = ReturnType<typeof useSchemaForm>;
