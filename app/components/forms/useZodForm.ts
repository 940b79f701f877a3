import { useEffect, useRef, useState, type ChangeEvent } from "react";
import type { z } from "zod";
import { focusAndReveal } from "./focus";

/** One message per field (the first), keyed by the field's path, like the API's `details`. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

export type FormValues = Record<string, string>;
export type FormErrors = Record<string, string>;

export interface ZodFormOptions<S extends z.ZodType> {
  /** Prefix of every control's id ("contact" gives "contact-email"). */
  id: string;
  schema: S;
  /** Field names in display order, with the label the error summary uses. */
  fields: Record<string, string>;
  initialValues?: FormValues;
  /** Errors the server answered (a form posted without JavaScript). */
  initialErrors?: FormErrors;
}

export type ValidationResult<S extends z.ZodType> = { ok: true; data: z.output<S> } | { ok: false };

/**
 * A form's values and errors checked with its zod schema as the visitor types: a field is
 * checked when it is left (if something was typed) and re-checked on every change once it
 * has shown an error or the form was submitted. Controlled inputs, so the same markup works
 * server-rendered without JavaScript and can be restored from a draft or reset.
 */
export function useZodForm<S extends z.ZodType>(options: ZodFormOptions<S>) {
  const { id, schema, fields } = options;
  const empty = () => Object.fromEntries(Object.keys(fields).map((name) => [name, ""]));
  const [values, setValues] = useState<FormValues>(() => ({ ...empty(), ...options.initialValues }));
  const [errors, setErrors] = useState<FormErrors>(options.initialErrors ?? {});
  const [watched, setWatched] = useState<Record<string, boolean>>({});
  const [summaryVisible, setSummaryVisible] = useState(Object.keys(options.initialErrors ?? {}).length > 0);
  const [focusSummary, setFocusSummary] = useState(0);
  const [hydrated, setHydrated] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (focusSummary) focusAndReveal(summaryRef.current);
  }, [focusSummary]);

  const check = (next: FormValues): FormErrors => {
    const result = schema.safeParse(next);
    return result.success ? {} : fieldErrors(result.error);
  };

  const refreshField = (name: string, next: FormValues) => {
    const message = check(next)[name];
    setErrors((prev) => {
      if (prev[name] === message) return prev;
      const copy = { ...prev };
      if (message) copy[name] = message;
      else delete copy[name];
      return copy;
    });
  };

  function setValue(name: string, value: string) {
    const next = { ...values, [name]: value };
    setValues(next);
    if (watched[name] || summaryVisible || errors[name]) refreshField(name, next);
    // A rule may tie fields together (e.g. an amount that depends on the chosen option).
    for (const other of Object.keys(errors)) if (other !== name) refreshField(other, next);
  }

  function leave(name: string) {
    if (!values[name]?.trim() && !errors[name]) return;
    setWatched((w) => (w[name] ? w : { ...w, [name]: true }));
    refreshField(name, values);
  }

  /** Checks every field; on failure shows the summary and moves focus to it. */
  function validate(): ValidationResult<S> {
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      setSummaryVisible(false);
      return { ok: true, data: result.data };
    }
    setErrors(fieldErrors(result.error));
    setSummaryVisible(true);
    setFocusSummary((n) => n + 1);
    return { ok: false };
  }

  /** Shows errors the server answered (its 400 `details`), mapped to this form's field names. */
  function showServerErrors(details: FormErrors) {
    const known = Object.fromEntries(Object.entries(details).filter(([name]) => name in fields));
    if (!Object.keys(known).length) return;
    setErrors(known);
    setSummaryVisible(true);
    setFocusSummary((n) => n + 1);
  }

  function reset(next: FormValues = {}) {
    setValues({ ...empty(), ...next });
    setErrors({});
    setWatched({});
    setSummaryVisible(false);
  }

  const controlId = (name: string) => `${id}-${name}`;

  /** Props for one control: id, name, value, handlers and the aria state of its error. */
  function control(name: string) {
    const error = errors[name];
    return {
      id: controlId(name),
      name,
      value: values[name] ?? "",
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setValue(name, e.target.value),
      onBlur: () => leave(name),
      "aria-invalid": error ? (true as const) : undefined,
    };
  }

  return {
    id,
    fields,
    values,
    errors,
    hydrated,
    summaryVisible,
    summaryRef,
    controlId,
    errorId: (name: string) => `${controlId(name)}-error`,
    control,
    setValue,
    setValues: (next: FormValues) => setValues({ ...empty(), ...next }),
    validate,
    showServerErrors,
    reset,
  };
}

export type ZodForm = ReturnType<typeof useZodForm>;
