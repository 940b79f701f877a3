import { useState, type FormEvent } from "react";
import { Send } from "lucide-react";
import { ErrorSummary, Field, FormMessage, SubmitButton } from "~/components/forms/FormParts";
import { useZodForm } from "~/components/forms/useZodForm";
import { postForm } from "~/features/submissions/client";
import type { FormActionData } from "~/features/submissions/form-result";
import { Honeypot, honeypotValue } from "~/features/submissions/Honeypot";
import { LIMITS, requestFormSchema, toCpaRequest, toMaterialRequest, type RequestFormKind } from "~/features/submissions/schemas";
import { MEMBER_ID_MAX, PHONE_MAX } from "~/features/submissions/fields";
import { httpFailure, requestFailure } from "./messages";

const LABELS = {
  fullName: "Full Name",
  email: "Email Address",
  phone: "Phone Number",
  memberId: "Membership ID",
  materials_requested: "Materials Requested",
  notes: "Additional Information",
};

function fieldsFor(kind: RequestFormKind): Record<string, string> {
  const { materials_requested, ...common } = LABELS;
  if (kind === "cpa") return common;
  const { notes, ...rest } = common;
  return { ...rest, materials_requested, notes };
}

/** The API's snake_case field names back to this form's fields. */
const API_FIELD: Record<string, string> = { first_name: "fullName", last_name: "fullName", member_id: "memberId" };
function toFormErrors(details: Record<string, string>) {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(details)) {
    const name = API_FIELD[key] ?? key;
    if (!(name in out)) out[name] = message;
  }
  return out;
}

const API_PATH: Record<RequestFormKind, string> = {
  cpa: "/api/submit-cpa-request",
  homeowner: "/api/submit-material-request",
};

/**
 * One request form. With JavaScript it posts the spec's API body (name split into first and
 * last name) and calls onSubmitted; without, it posts to the page's action.
 */
export function RequestForm({
  kind,
  result,
  onSubmitted,
}: {
  kind: RequestFormKind;
  result?: FormActionData;
  onSubmitted: () => void;
}) {
  const fields = fieldsFor(kind);
  const form = useZodForm({
    id: `request-${kind}`,
    schema: requestFormSchema,
    fields,
    initialValues: result && result.status !== "success" ? result.values : undefined,
    initialErrors: result?.status === "invalid" ? result.errors : undefined,
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(result?.status === "failed" ? requestFailure(result.message) : null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = form.validate();
    if (!checked.ok) return;
    const body = kind === "cpa" ? toCpaRequest(checked.data) : toMaterialRequest(checked.data);
    setBusy(true);
    setFailure(null);
    try {
      const answer = await postForm(API_PATH[kind], { ...body, website: honeypotValue(event.currentTarget) });
      if (answer.ok) {
        form.reset();
        onSubmitted();
        return;
      }
      if (answer.status === 400 && answer.details) form.showServerErrors(toFormErrors(answer.details));
      setFailure(requestFailure(httpFailure(answer.status, answer.error)));
    } catch (err) {
      setFailure(requestFailure(err instanceof Error && err.message ? err.message : "Unknown error"));
    } finally {
      setBusy(false);
    }
  }

  const memberHint = "Printed on your membership certificate.";
  return (
    <form
      method="post"
      action="/form-requests"
      noValidate={form.hydrated}
      onSubmit={onSubmit}
      aria-busy={busy}
      className="relative space-y-5"
    >
      <input type="hidden" name="form" value={kind} />
      {failure ? (
        <FormMessage tone="error" testId="request-failure">
          <p className="font-medium">{failure}</p>
        </FormMessage>
      ) : null}
      <ErrorSummary form={form} />

      <div className="grid gap-5 sm:grid-cols-2">
        <Field form={form} name="fullName" label={LABELS.fullName} hint="First name first, e.g. Jordan Lee.">
          {(p) => <input {...p} type="text" autoComplete="name" required maxLength={LIMITS.name} className="field-input" />}
        </Field>
        <Field form={form} name="email" label={LABELS.email} hint="We send updates about your request here.">
          {(p) => <input {...p} type="email" autoComplete="email" required maxLength={254} className="field-input" />}
        </Field>
        <Field form={form} name="phone" label={LABELS.phone} optional>
          {(p) => <input {...p} type="tel" autoComplete="tel" maxLength={PHONE_MAX} className="field-input" />}
        </Field>
        <Field form={form} name="memberId" label={LABELS.memberId} optional hint={memberHint}>
          {(p) => <input {...p} type="text" autoCapitalize="characters" spellCheck={false} maxLength={MEMBER_ID_MAX} className="field-input" />}
        </Field>
      </div>
      {kind === "homeowner" ? (
        <Field
          form={form}
          name="materials_requested"
          label={LABELS.materials_requested}
          optional
          hint="For example: home maintenance checklist, coverage brochure, hurricane preparation guide."
        >
          {(p) => <textarea {...p} rows={3} maxLength={LIMITS.materials} className="field-input resize-y" />}
        </Field>
      ) : null}
      <Field
        form={form}
        name="notes"
        label={LABELS.notes}
        optional
        hint={
          kind === "cpa"
            ? "Which statements or documents does your CPA need, and for which tax year? Include your CPA's name or firm if we should send copies to them."
            : "Anything else we should know, such as a mailing address if you would like printed copies."
        }
      >
        {(p) => <textarea {...p} rows={4} maxLength={LIMITS.notes} className="field-input resize-y" />}
      </Field>
      <Honeypot formId={`request-${kind}`} />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">We will e-mail you once your request has been processed.</p>
        <SubmitButton busy={busy} busyLabel="Submitting...">
          <Send className="h-4 w-4" aria-hidden /> Submit Request
        </SubmitButton>
      </div>
    </form>
  );
}
