import { Fragment, type ReactNode } from "react";
import { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { AlertCircle, Loader2 } from "lucide-react";
import { focusAndReveal } from "./focus";

// Its own module: a page shows it without loading the forms' code (components/forms/afterPage).
export { FormMessage } from "./FormMessage";
import { errorSummaryId } from "./useSchemaForm";

/** What these parts read of Conform's field metadata. */
interface FieldMeta {
  id: string;
  key: string | undefined;
  errorId: string;
  descriptionId: string;
  errors: string[] | undefined;
}
/** What the error summary reads of Conform's form metadata. */
interface FormMeta {
  id: string;
  allErrors: Record<string, string[]>;
}

/*
 * Conform's props for a control (id, name, default value, constraint and aria attributes),
 * without its `key`: React refuses a key spread into JSX, so Field puts the key on the control.
 */
function withoutKey<T extends { key?: unknown }>({ key: _key, ...props }: T): Omit<T, "key"> {
  return props;
}
export const inputProps = (...args: Parameters<typeof getInputProps>) => withoutKey(getInputProps(...args));
export const selectProps = (...args: Parameters<typeof getSelectProps>) => withoutKey(getSelectProps(...args));
export const textareaProps = (...args: Parameters<typeof getTextareaProps>) => withoutKey(getTextareaProps(...args));

/** What a control adds to Conform's aria attributes: the id of the field's hint, when it has one. */
export interface ControlAria {
  ariaDescribedBy?: string;
}

/**
 * Label (with '*' when required, or '(optional)'), optional hint, the control (rendered by the
 * caller with inputProps, selectProps or textareaProps; a function receives the hint's id for
 * its aria-describedby) and the field's error under it.
 */
export function Field({
  meta,
  label,
  hint,
  optional,
  required,
  children,
}: {
  meta: FieldMeta;
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  required?: boolean;
  children: ReactNode | ((aria: ControlAria) => ReactNode);
}) {
  return (
    <div>
      <label htmlFor={meta.id} className="field-label">
        {label}
        {required ? (
          <span className="text-red-700" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
        {optional ? <span className="font-normal text-slate-600"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={meta.descriptionId} className="mb-1.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {/* A new key (after a reset or a restored draft) renders the control afresh with its new value. */}
      <Fragment key={meta.key}>
        {typeof children === "function" ? children({ ariaDescribedBy: hint ? meta.descriptionId : undefined }) : children}
      </Fragment>
      <FieldError meta={meta} />
    </div>
  );
}

/** A field's first error, with the id its control's aria-describedby points to. */
export function FieldError({ meta }: { meta: FieldMeta }) {
  const error = meta.errors?.[0];
  if (!error) return null;
  return (
    <p id={meta.errorId} className="field-error flex items-start gap-1.5">
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{error}</span>
    </p>
  );
}

/**
 * Every problem of the form in one list, each linking to its field; shown after a failed send
 * (with or without JavaScript) and focused then. `labels`: the fields in display order.
 */
export function ErrorSummary({ form, labels, shown }: { form: FormMeta; labels: Record<string, string>; shown: boolean }) {
  const errors = form.allErrors;
  const problems = Object.keys(labels).filter((name) => errors[name]?.length);
  if (!shown || problems.length === 0) return null;
  const titleId = `${form.id}-error-summary-title`;
  const controlId = (name: string) => `${form.id}-${name}`;
  return (
    <div
      id={errorSummaryId(form.id)}
      tabIndex={-1}
      aria-labelledby={titleId}
      data-testid="error-summary"
      className="rounded-lg border-2 border-red-700 bg-red-50 p-4 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
    >
      <p id={titleId} className="flex items-center gap-2 font-semibold text-red-800">
        <AlertCircle className="h-5 w-5" aria-hidden />
        {problems.length === 1 ? "Please correct 1 field" : `Please correct ${problems.length} fields`}
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-9 text-sm">
        {problems.map((name) => (
          <li key={name}>
            <a
              href={`#${controlId(name)}`}
              className="text-red-800 underline underline-offset-2 hover:text-red-900"
              onClick={(e) => {
                const target = document.getElementById(controlId(name));
                if (target) {
                  e.preventDefault();
                  focusAndReveal(target);
                }
              }}
            >
              {labels[name]}: {errors[name][0]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className="btn-primary w-full px-6 py-3 text-base sm:w-auto" disabled={busy}>
      {busy ? (
        <>
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/**
 * The compact failure alert of a small form (a dialog's, a panel's): announced at once
 * (role="alert") and given the focus by `announceFailure` through the form's `failureId`.
 */
export function FormFailure({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p
      id={id}
      tabIndex={-1}
      role="alert"
      className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
    >
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}
