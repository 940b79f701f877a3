import type { ReactNode } from "react";
import { AlertCircle, CheckCircle2, Loader2 } from "lucide-react";
import { focusAndReveal } from "./focus";
import type { ZodForm } from "./useZodForm";

export interface ControlProps {
  id: string;
  name: string;
  value: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>) => void;
  onBlur: () => void;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/** Label, optional hint, the control (rendered by the caller) and the field's error under it. */
export function Field({
  form,
  name,
  label,
  hint,
  optional,
  children,
}: {
  form: ZodForm;
  name: string;
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  children: (props: ControlProps) => ReactNode;
}) {
  const control = form.control(name);
  const error = form.errors[name];
  const hintId = hint ? `${control.id}-hint` : undefined;
  const describedBy = [hintId, error ? form.errorId(name) : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={control.id} className="field-label">
        {label}
        {optional ? <span className="font-normal text-slate-600"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className="mb-1.5 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {children({ ...control, "aria-describedby": describedBy })}
      {error ? (
        <p id={form.errorId(name)} className="field-error flex items-start gap-1.5">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}

/** Every problem of the form in one list, each linking to its field; focused after a failed submit. */
export function ErrorSummary({ form }: { form: ZodForm }) {
  const problems = Object.keys(form.fields).filter((name) => form.errors[name]);
  if (!form.summaryVisible || problems.length === 0) return null;
  const titleId = `${form.id}-error-summary-title`;
  return (
    <div
      ref={form.summaryRef}
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
              href={`#${form.controlId(name)}`}
              className="text-red-800 underline underline-offset-2 hover:text-red-900"
              onClick={(e) => {
                const target = document.getElementById(form.controlId(name));
                if (target) {
                  e.preventDefault();
                  focusAndReveal(target);
                }
              }}
            >
              {form.fields[name]}: {form.errors[name]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A success or error message about the whole form. Errors are announced at once (role="alert"). */
export function FormMessage({
  tone,
  children,
  testId,
}: {
  tone: "success" | "error";
  children: ReactNode;
  testId?: string;
}) {
  const success = tone === "success";
  const Icon = success ? CheckCircle2 : AlertCircle;
  return (
    <div
      role={success ? "status" : "alert"}
      data-testid={testId}
      className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${
        success ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"
      }`}
    >
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${success ? "text-green-700" : "text-red-700"}`} aria-hidden />
      <div className="space-y-1">{children}</div>
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
