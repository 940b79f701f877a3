import { useState } from "react";
import { Send } from "lucide-react";
import { ErrorSummary, Field, FormMessage, SubmitButton, inputProps, textareaProps } from "~/components/forms/FormParts";
import { upperCaseAsTyped } from "~/components/forms/upper-case";
import { toFieldErrors, useSchemaForm } from "~/components/forms/useSchemaForm";
import { postForm } from "~/features/submissions/intake/client";
import type { FormActionData } from "~/features/submissions/intake/form-result";
import { Honeypot, honeypotValue } from "~/features/submissions/intake/Honeypot";
import { LIMITS, requestFormSchema, toCpaRequest, toMaterialRequest, type RequestFormKind } from "~/features/submissions/intake/schemas";
import { MEMBER_ID_MAX, PHONE_MAX } from "~/features/submissions/intake/fields";
import { httpFailure, requestFailure } from "./messages";

const LABELS = {
  fullName: "Full Name",
  email: "Email Address",
  phone: "Phone Number",
  memberId: "Membership ID",
  materials_requested: "Materials Requested",
  notes: "Additional Information",
};

/** The homeowner variant's mailing address, for printed materials. */
const ADDRESS_LABELS = {
  address1: "Street Address",
  address2: "Apartment, Suite or Unit",
  city: "City",
  state: "State",
  zip: "ZIP Code",
};

function fieldsFor(kind: RequestFormKind): Record<string, string> {
  const { materials_requested, ...common } = LABELS;
  if (kind === "cpa") return common;
  const { notes, ...rest } = common;
  return { ...rest, materials_requested, ...ADDRESS_LABELS, notes };
}

/** The API's snake_case field names back to this form's fields. */
const API_FIELD: Record<string, string> = { first_name: "fullName", last_name: "fullName", member_id: "memberId" };
function toFormDetails(details: Record<string, string>) {
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
export function RequestForm({ kind, result, onSubmitted }: { kind: RequestFormKind; result?: FormActionData; onSubmitted: () => void }) {
  const labels = fieldsFor(kind);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(result?.status === "failed" ? requestFailure(result.message) : null);
  const { form, fields, formProps, summaryShown, showErrors, reset, failureId, announceFailure } = useSchemaForm({
    id: `request-${kind}`,
    schema: requestFormSchema,
    lastResult: result && result.status !== "success" ? result.result : undefined,
    async onValid(request, submission, element) {
      const body = kind === "cpa" ? toCpaRequest(request) : toMaterialRequest(request);
      setBusy(true);
      setFailure(null);
      try {
        const answer = await postForm(API_PATH[kind], { ...body, website: honeypotValue(element) });
        if (answer.ok) {
          reset();
          onSubmitted();
          return;
        }
        if (answer.status === 400 && answer.details) {
          showErrors(submission, toFieldErrors(toFormDetails(answer.details), Object.keys(labels)));
        }
        setFailure(requestFailure(httpFailure(answer.status, answer.error)));
        announceFailure();
      } catch (err) {
        setFailure(requestFailure(err instanceof Error && err.message ? err.message : "Unknown error"));
        announceFailure();
      } finally {
        setBusy(false);
      }
    },
  });

  const memberHint = "Printed on your membership certificate.";
  return (
    <form method="post" action="/form-requests" {...formProps} aria-busy={busy} className="relative space-y-5">
      <input type="hidden" name="form" value={kind} />
      {failure ? (
        <FormMessage tone="error" testId="request-failure" id={failureId}>
          <p className="font-medium">{failure}</p>
        </FormMessage>
      ) : null}
      <ErrorSummary form={form} labels={labels} shown={summaryShown} />

      <div className="grid gap-5 sm:grid-cols-2">
        <Field meta={fields.fullName} label={LABELS.fullName} hint="First name first, e.g. Jordan Lee.">
          {(aria) => (
            <input
              {...inputProps(fields.fullName, { type: "text", ...aria })}
              autoComplete="name"
              required
              maxLength={LIMITS.name}
              className="field-input"
            />
          )}
        </Field>
        <Field meta={fields.email} label={LABELS.email} hint="We send updates about your request here.">
          {(aria) => (
            <input
              {...inputProps(fields.email, { type: "email", ...aria })}
              autoComplete="email"
              required
              maxLength={254}
              className="field-input"
            />
          )}
        </Field>
        <Field meta={fields.phone} label={LABELS.phone} optional>
          {(aria) => (
            <input
              {...inputProps(fields.phone, { type: "tel", ...aria })}
              autoComplete="tel"
              maxLength={PHONE_MAX}
              className="field-input"
            />
          )}
        </Field>
        <Field meta={fields.memberId} label={LABELS.memberId} optional hint={memberHint}>
          {(aria) => (
            <input
              {...inputProps(fields.memberId, { type: "text", ...aria })}
              onChange={upperCaseAsTyped}
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={MEMBER_ID_MAX}
              className="field-input"
            />
          )}
        </Field>
      </div>
      {kind === "homeowner" ? (
        <Field
          meta={fields.materials_requested}
          label={LABELS.materials_requested}
          optional
          hint="For example: home maintenance checklist, coverage brochure, hurricane preparation guide."
        >
          {(aria) => (
            <textarea
              {...textareaProps(fields.materials_requested, aria)}
              rows={3}
              maxLength={LIMITS.materials}
              className="field-input resize-y"
            />
          )}
        </Field>
      ) : null}
      {kind === "homeowner" ? (
        <fieldset className="space-y-5 rounded-xl border border-slate-200 p-4 sm:p-5" aria-describedby="mailing-address-hint">
          <legend className="px-1 text-base font-semibold text-brand-900">Mailing Address (optional)</legend>
          <p id="mailing-address-hint" className="-mt-2 text-sm text-slate-600">
            Where we should mail printed materials. Leave it empty to receive them by e-mail.
          </p>
          <Field meta={fields.address1} label={ADDRESS_LABELS.address1}>
            {(aria) => (
              <input
                {...inputProps(fields.address1, { type: "text", ...aria })}
                autoComplete="address-line1"
                maxLength={LIMITS.address}
                className="field-input"
              />
            )}
          </Field>
          <Field meta={fields.address2} label={ADDRESS_LABELS.address2}>
            {(aria) => (
              <input
                {...inputProps(fields.address2, { type: "text", ...aria })}
                autoComplete="address-line2"
                maxLength={LIMITS.address}
                className="field-input"
              />
            )}
          </Field>
          <div className="grid gap-5 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
            <Field meta={fields.city} label={ADDRESS_LABELS.city} hint="Town or city">
              {(aria) => (
                <input
                  {...inputProps(fields.city, { type: "text", ...aria })}
                  autoComplete="address-level2"
                  maxLength={LIMITS.city}
                  className="field-input"
                />
              )}
            </Field>
            <Field meta={fields.state} label={ADDRESS_LABELS.state} hint="2 letters, e.g. CT">
              {(aria) => (
                <input
                  {...inputProps(fields.state, { type: "text", ...aria })}
                  autoComplete="address-level1"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={2}
                  className="field-input uppercase"
                />
              )}
            </Field>
            <Field meta={fields.zip} label={ADDRESS_LABELS.zip} hint="5 or 9 digits">
              {(aria) => (
                <input
                  {...inputProps(fields.zip, { type: "text", ...aria })}
                  autoComplete="postal-code"
                  inputMode="numeric"
                  maxLength={10}
                  className="field-input"
                />
              )}
            </Field>
          </div>
        </fieldset>
      ) : null}
      <Field
        meta={fields.notes}
        label={LABELS.notes}
        optional
        hint={
          kind === "cpa"
            ? "Which statements or documents does your CPA need, and for which tax year? Include your CPA's name or firm if we should send copies to them."
            : "Anything else we should know."
        }
      >
        {(aria) => <textarea {...textareaProps(fields.notes, aria)} rows={4} maxLength={LIMITS.notes} className="field-input resize-y" />}
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
