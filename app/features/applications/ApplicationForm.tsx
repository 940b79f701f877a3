import { useEffect, useRef, useState, type ReactNode } from "react";
import { getInputProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { AlertCircle, CheckCircle2, Info, Loader2, Send } from "lucide-react";
import { clearDraft, loadDraft, pickDraft, saveDraft, useDraftKey } from "~/components/forms/draft";
import { Field, FieldError, inputProps, selectProps } from "~/components/forms/FormParts";
import { LeaveWarning } from "~/components/forms/LeaveWarning";
import { focusAndReveal } from "~/components/forms/focus";
import { upperCaseAsTyped } from "~/components/forms/upper-case";
import { errorSummaryId, toFieldErrors, useSchemaForm } from "~/components/forms/useSchemaForm";
import {
  applicationSchema,
  ERROR_ORDER,
  ERROR_SUMMARY_TITLE,
  FIELD_LABELS,
  LIMITS,
  type ApplicationField,
  type ApplicationInput,
  type CaseApplicant,
} from "./contract";
import { formatCoverage, formatPhone } from "~/domain/formats";
import { GENDER_OPTIONS, localIsoDate, RELATIONSHIP_OPTIONS } from "~/domain/people";
import { CASE_STATUS_TEXT, useCaseLookup } from "./case-lookup-client";
import { SignatureField } from "./SignatureField";
import { postApplication } from "./submit-client";
import { APPLICATION_DRAFT_FIELDS, APPLICATION_DRAFT_FORM, hasUnsentInput } from "./draft";

type Fields = ReturnType<typeof useSchemaForm<typeof applicationSchema>>["fields"];
type Meta = FieldMetadata<unknown, ApplicationInput, string[]>;

export const SUCCESS_MESSAGE =
  "Thank you! Your membership application has been submitted. A member of our team will contact you to complete your enrollment.";

/** What the case lookup may fill in, and how it is shown in the field. */
const LOOKUP_FILLS: [keyof CaseApplicant, ApplicationField, (v: string) => string][] = [
  ["applicantName", "applicantName", (v) => v],
  ["coverage", "amountOfCoverage", formatCoverage],
  ["email", "email", (v) => v],
  ["phone", "phone", formatPhone],
  ["address1", "address1", (v) => v],
  ["city", "city", (v) => v],
  ["state", "state", (v) => v.toUpperCase()],
  ["zip", "zip", (v) => v],
  ["gender", "gender", (v) => v],
];

/**
 * The membership application (public-side spec, section 2): Conform wires the shared zod
 * schema to the inputs (checked when a field is left, re-checked as it is corrected); on
 * submit every problem is listed under 'Please correct the following:' and beside its
 * field. Sent as JSON to POST /api/applications; a failure keeps everything, signatures too.
 */
export function ApplicationForm({
  today,
  posted,
}: {
  today: string;
  /** The page action's answer when the form was posted before JavaScript loaded. */
  posted?: { result: SubmissionResult<string[]>; submitted: boolean; failure: string | null };
}) {
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(posted?.failure ?? null);
  const [succeeded, setSucceeded] = useState(posted?.submitted ?? false);
  const [signatureKey, setSignatureKey] = useState(0);
  const bannerRef = useRef<HTMLDivElement>(null);
  const draftKey = useDraftKey(APPLICATION_DRAFT_FORM);
  const [draftRestored, setDraftRestored] = useState(false);

  // The summary stays from a failed send until the next successful one, kept up to date as
  // fields are corrected.
  const { form, fields, formProps, summaryShown, showErrors, reset, failureId, announceFailure } = useSchemaForm({
    id: "application",
    schema: applicationSchema,
    lastResult: posted?.result,
    defaultValue: { todaysDate: today },
    summaryBlock: "start",
    async onValid(value, submission) {
      setSending(true);
      setFailure(null);
      setSucceeded(false);
      const outcome = await postApplication(value);
      setSending(false);
      if (outcome.ok) {
        clearDraft(draftKey);
        setDraftRestored(false);
        reset();
        setSignatureKey((k) => k + 1);
        setSucceeded(true);
        return;
      }
      setFailure(outcome.message);
      if (outcome.fields) showErrors(submission, toFieldErrors(outcome.fields as Record<string, string>, ERROR_ORDER));
      announceFailure();
    },
  });

  // The date input shows the visitor's own today, not the server's.
  useEffect(() => {
    const local = localIsoDate();
    const input = document.getElementById(fields.todaysDate.id) as HTMLInputElement | null;
    if (input && input.value === today && local !== today) form.update({ name: fields.todaysDate.name, value: local });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration
  }, []);

  // A draft kept on this computer (a reload, a page left) comes back, without its signatures.
  useEffect(() => {
    if (posted) return;
    const draft = loadDraft(draftKey, APPLICATION_DRAFT_FIELDS);
    if (!draft) return;
    form.update({ value: { ...draft, todaysDate: localIsoDate() } });
    setDraftRestored(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration
  }, []);

  // What is typed is kept as the draft until the application is sent.
  const draftJson = JSON.stringify(pickDraft(form.value as Record<string, unknown> | undefined, APPLICATION_DRAFT_FIELDS));
  const firstDraftJson = useRef<string | null>(draftJson);
  useEffect(() => {
    if (draftJson === firstDraftJson.current) return;
    firstDraftJson.current = null;
    const draft = JSON.parse(draftJson) as Record<string, string>;
    if (Object.values(draft).some((v) => v.trim())) saveDraft(draftKey, draft);
    else clearDraft(draftKey);
  }, [draftJson, draftKey]);
  const dirty = hasUnsentInput(form.value as Record<string, unknown> | undefined);

  function discardDraft() {
    clearDraft(draftKey);
    setDraftRestored(false);
    reset();
    setSignatureKey((k) => k + 1);
  }

  useEffect(() => {
    if (!succeeded) return;
    window.scrollTo({ top: 0, behavior: "smooth" });
    bannerRef.current?.focus({ preventScroll: true });
  }, [succeeded]);

  const lookup = useCaseLookup((applicant) => {
    const element = document.forms.namedItem(form.id);
    if (!element) return;
    const fills: { input: HTMLInputElement | HTMLSelectElement; name: ApplicationField; value: string }[] = [];
    for (const [from, to, show] of LOOKUP_FILLS) {
      const value = applicant[from];
      const input = element.elements.namedItem(to) as HTMLInputElement | HTMLSelectElement | null;
      // Looked-up values fill only empty fields; what the visitor typed stays.
      if (value && input && !input.value.trim()) fills.push({ input, name: to, value: show(value) });
    }
    // Each update checks the form again as it stands in the page: every value goes in first,
    // or the later checks would bring back the "required" errors of the fields filled before.
    for (const fill of fills) fill.input.value = fill.value;
    for (const fill of fills) form.update({ name: fill.name, value: fill.value });
  });

  const errors = form.allErrors;
  const problems = ERROR_ORDER.filter((name) => errors[name]?.length);
  const showSummary = summaryShown && problems.length > 0;
  const signatureChanged = (name: ApplicationField) => () => {
    // After a failed send, a signature drawn or cleared is checked at once (Conform's "error"
    // status ends with the first field corrected, so it cannot tell).
    if (summaryShown) form.validate({ name });
  };
  const f = fields as unknown as Record<ApplicationField, Meta>;
  const formatOnBlur = (name: ApplicationField, format: (v: string) => string) => (e: React.FocusEvent<HTMLInputElement>) => {
    const shown = format(e.currentTarget.value);
    if (shown !== e.currentTarget.value) form.update({ name, value: shown });
  };

  return (
    <div className="space-y-8">
      {succeeded ? (
        <div
          ref={bannerRef}
          tabIndex={-1}
          role="status"
          data-testid="application-success"
          className="flex items-start gap-3 rounded-lg border border-green-300 bg-green-50 px-4 py-4 text-green-900 focus:outline-none"
        >
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-green-700" aria-hidden />
          <p className="font-medium">{SUCCESS_MESSAGE}</p>
        </div>
      ) : null}

      <div className="flex items-start gap-3 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
        <Info className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden />
        <p data-testid="preview-statement">
          <strong>This is a preview form.</strong> No payment is processed on this site. After you submit it, our member services team will
          contact you to collect your ACH (bank account) and credit card details. Never enter a card or account number here.
        </p>
      </div>

      <LeaveWarning dirty={dirty} title="Leave the application?">
        <p>
          Your application has not been sent. What you typed stays on this computer as a draft until you sign out, but your signatures do
          not: you would sign again.
        </p>
      </LeaveWarning>

      <form {...formProps} method="post" aria-busy={sending} className="space-y-10">
        {draftRestored ? (
          <div
            role="status"
            data-testid="application-draft-restored"
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            <p>
              We restored the application you were filling in. It has not been sent yet, and signatures are never kept: please sign again.
            </p>
            <button type="button" className="font-semibold underline underline-offset-2 hover:text-amber-950" onClick={discardDraft}>
              Discard draft
            </button>
          </div>
        ) : null}
        {failure ? (
          <div
            id={failureId}
            tabIndex={-1}
            role="alert"
            data-testid="application-failure"
            className="flex items-start gap-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
          >
            <AlertCircle className="mt-0.5 h-5 w-5 shrink-0 text-red-700" aria-hidden />
            <p>Submission failed: {failure}</p>
          </div>
        ) : null}

        {showSummary ? (
          <div
            id={errorSummaryId(form.id)}
            tabIndex={-1}
            aria-labelledby="application-error-summary-title"
            data-testid="error-summary"
            className="rounded-lg border-2 border-red-700 bg-red-50 p-4 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
          >
            <p id="application-error-summary-title" className="flex items-center gap-2 font-semibold text-red-800">
              <AlertCircle className="h-5 w-5" aria-hidden />
              {ERROR_SUMMARY_TITLE}
            </p>
            <ul className="mt-2 list-disc space-y-1 pl-9 text-sm">
              {problems.map((name) => (
                <li key={name}>
                  <a
                    href={`#${f[name].id}`}
                    className="text-red-800 underline underline-offset-2 hover:text-red-900"
                    onClick={(e) => {
                      const target = document.getElementById(f[name].id);
                      if (!target) return;
                      e.preventDefault();
                      focusAndReveal(target);
                    }}
                  >
                    {errors[name]![0]}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <Section title="A. Fill Out and Sign Application">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              meta={fields.caseNumber}
              label={FIELD_LABELS.caseNumber}
              optional
              hint="Have a case number? We fill in what we have on file."
            >
              <input
                {...inputProps(fields.caseNumber, {
                  type: "text",
                  ariaDescribedBy: `${fields.caseNumber.descriptionId} application-case-status`,
                })}
                inputMode="numeric"
                autoComplete="off"
                maxLength={LIMITS.caseNumber}
                onInput={(e) => {
                  const digits = e.currentTarget.value.replace(/\D/g, "");
                  if (digits !== e.currentTarget.value) e.currentTarget.value = digits;
                  lookup.changed(digits);
                }}
                className="field-input"
              />
              <p
                id="application-case-status"
                role="status"
                aria-live="polite"
                data-testid="case-status"
                className="mt-1 min-h-5 text-sm text-slate-700"
              >
                {lookup.status === "loading" ? (
                  <span className="inline-flex items-center gap-1.5">
                    <Loader2 className="h-3.5 w-3.5 animate-spin" aria-hidden />
                    {CASE_STATUS_TEXT.loading}
                  </span>
                ) : lookup.status !== "idle" ? (
                  <span className={lookup.status === "success" ? "text-green-800" : lookup.status === "error" ? "text-red-700" : ""}>
                    {CASE_STATUS_TEXT[lookup.status]}
                  </span>
                ) : null}
              </p>
            </Field>
            <Field meta={fields.amountOfCoverage} label={FIELD_LABELS.amountOfCoverage} required hint="In US dollars, e.g. $250,000.00">
              <input
                {...inputProps(fields.amountOfCoverage, { type: "text", ariaDescribedBy: fields.amountOfCoverage.descriptionId })}
                inputMode="decimal"
                maxLength={30}
                onBlur={formatOnBlur("amountOfCoverage", formatCoverage)}
                className="field-input"
              />
            </Field>
          </div>

          <Group title="Applicant">
            <PersonFields
              names={{ name: "applicantName", dob: "dob", gender: "gender", email: "email", phone: "phone" }}
              fields={fields}
              required
              formatPhoneOnBlur={formatOnBlur("phone", formatPhone)}
            />
          </Group>
          <Group title="Co-Applicant" note="Only if someone applies with you.">
            <PersonFields
              names={{ name: "coApplicantName", dob: "coDob", gender: "coGender", email: "coEmail", phone: "coPhone" }}
              fields={fields}
              formatPhoneOnBlur={formatOnBlur("coPhone", formatPhone)}
            />
          </Group>

          <div className="grid gap-5 sm:grid-cols-2">
            <Field meta={fields.todaysDate} label={FIELD_LABELS.todaysDate} required>
              <input {...inputProps(fields.todaysDate, { type: "date" })} className="field-input" />
            </Field>
          </div>

          <Group title="Address">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field meta={fields.address1} label={FIELD_LABELS.address1} optional>
                <input
                  {...inputProps(fields.address1, { type: "text" })}
                  autoComplete="address-line1"
                  maxLength={LIMITS.address}
                  className="field-input"
                />
              </Field>
              <Field meta={fields.address2} label={FIELD_LABELS.address2} optional>
                <input
                  {...inputProps(fields.address2, { type: "text" })}
                  autoComplete="address-line2"
                  maxLength={LIMITS.address}
                  className="field-input"
                />
              </Field>
              <Field meta={fields.city} label={FIELD_LABELS.city} optional>
                <input
                  {...inputProps(fields.city, { type: "text" })}
                  autoComplete="address-level2"
                  maxLength={LIMITS.city}
                  className="field-input"
                />
              </Field>
              <div className="grid grid-cols-2 gap-5">
                <Field meta={fields.state} label={FIELD_LABELS.state} optional>
                  <input
                    {...inputProps(fields.state, { type: "text" })}
                    autoComplete="address-level1"
                    maxLength={LIMITS.state}
                    onChange={upperCaseAsTyped}
                    className="field-input"
                  />
                </Field>
                <Field meta={fields.zip} label={FIELD_LABELS.zip} optional>
                  <input
                    {...inputProps(fields.zip, { type: "text" })}
                    autoComplete="postal-code"
                    inputMode="numeric"
                    maxLength={LIMITS.zip}
                    className="field-input"
                  />
                </Field>
              </div>
            </div>
          </Group>

          <Group title="Signatures">
            <div className="grid gap-6 lg:grid-cols-2">
              <SignatureField
                key={`a${signatureKey}`}
                id={fields.applicantSignature.id}
                errorId={fields.applicantSignature.errorId}
                name={fields.applicantSignature.name}
                label={FIELD_LABELS.applicantSignature}
                required
                error={fields.applicantSignature.errors?.[0]}
                onChange={signatureChanged("applicantSignature")}
              />
              <SignatureField
                key={`c${signatureKey}`}
                id={fields.coApplicantSignature.id}
                errorId={fields.coApplicantSignature.errorId}
                name={fields.coApplicantSignature.name}
                label={FIELD_LABELS.coApplicantSignature}
                hint="Needed when a co-applicant is listed."
                error={fields.coApplicantSignature.errors?.[0]}
                onChange={signatureChanged("coApplicantSignature")}
              />
            </div>
          </Group>
        </Section>

        <Section title="Beneficiary Information">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field meta={fields.beneficiaryName} label={FIELD_LABELS.beneficiaryName} optional>
              <input {...inputProps(fields.beneficiaryName, { type: "text" })} maxLength={LIMITS.name} className="field-input" />
            </Field>
            <Field meta={fields.beneficiaryRelationship} label={FIELD_LABELS.beneficiaryRelationship} optional>
              <select {...selectProps(fields.beneficiaryRelationship)} className="field-input">
                <option value="">Select a relationship</option>
                {RELATIONSHIP_OPTIONS.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field meta={fields.beneficiaryPhone} label={FIELD_LABELS.beneficiaryPhone} optional>
              <input
                {...inputProps(fields.beneficiaryPhone, { type: "tel" })}
                maxLength={LIMITS.phone}
                onBlur={formatOnBlur("beneficiaryPhone", formatPhone)}
                className="field-input"
              />
            </Field>
            <Field meta={fields.beneficiaryEmail} label={FIELD_LABELS.beneficiaryEmail} optional>
              <input {...inputProps(fields.beneficiaryEmail, { type: "email" })} maxLength={LIMITS.email} className="field-input" />
            </Field>
          </div>
        </Section>

        <Section title="Payment Options">
          <fieldset aria-describedby={fields.paymentMonthlyBilling.errors ? fields.paymentMonthlyBilling.errorId : undefined}>
            <legend className="field-label">Choose at least one payment option</legend>
            <div className="mt-2 grid gap-3 sm:grid-cols-3">
              <Checkbox meta={fields.paymentMonthlyBilling} label={FIELD_LABELS.paymentMonthlyBilling} errorShownBelow />
              <Checkbox meta={fields.paymentAutomaticChecking} label={FIELD_LABELS.paymentAutomaticChecking} errorShownBelow />
              <Checkbox meta={fields.paymentUseCreditCard} label={FIELD_LABELS.paymentUseCreditCard} errorShownBelow />
            </div>
            <FieldError meta={fields.paymentMonthlyBilling} />
          </fieldset>
          <p className="text-sm text-slate-600">
            Card number, expiry date and CVV are never asked for on this site: we collect card and bank details by contact after we receive
            your application.
          </p>

          <Group title="Automatic Checking (ACH) authorization" note="Sign here if you choose Automatic Checking.">
            <div className="grid gap-6 lg:grid-cols-2">
              <SignatureField
                key={`aa${signatureKey}`}
                id={fields.achApplicantSignature.id}
                errorId={fields.achApplicantSignature.errorId}
                name={fields.achApplicantSignature.name}
                label={FIELD_LABELS.achApplicantSignature}
                error={fields.achApplicantSignature.errors?.[0]}
                onChange={signatureChanged("achApplicantSignature")}
              />
              <SignatureField
                key={`ac${signatureKey}`}
                id={fields.achCoApplicantSignature.id}
                errorId={fields.achCoApplicantSignature.errorId}
                name={fields.achCoApplicantSignature.name}
                label={FIELD_LABELS.achCoApplicantSignature}
                hint="Needed for Automatic Checking when a co-applicant is listed."
                error={fields.achCoApplicantSignature.errors?.[0]}
                onChange={signatureChanged("achCoApplicantSignature")}
              />
            </div>
          </Group>

          <Group title="Credit card authorization" note="Fill in if you choose Use Credit Card.">
            <div className="grid gap-5 sm:grid-cols-3">
              <Field meta={fields.ccNameOnCard} label={FIELD_LABELS.ccNameOnCard}>
                <input
                  {...inputProps(fields.ccNameOnCard, { type: "text" })}
                  autoComplete="cc-name"
                  maxLength={LIMITS.name}
                  className="field-input"
                />
              </Field>
              <Field meta={fields.ccCardholderSignature} label={FIELD_LABELS.ccCardholderSignature} optional>
                <input
                  {...inputProps(fields.ccCardholderSignature, { type: "text" })}
                  maxLength={LIMITS.name}
                  className="field-input font-serif italic"
                />
              </Field>
              <Field meta={fields.ccProcessDate} label={FIELD_LABELS.ccProcessDate} optional>
                <input {...inputProps(fields.ccProcessDate, { type: "date" })} className="field-input" />
              </Field>
            </div>
          </Group>
        </Section>

        <div className="space-y-4 border-t border-slate-200 pt-6">
          <Checkbox meta={fields.confirmAccuracy} label={FIELD_LABELS.confirmAccuracy} required />
          <button type="submit" className="btn-primary w-full px-6 py-3 text-base sm:w-auto" disabled={sending}>
            {sending ? (
              <>
                <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Submitting...
              </>
            ) : (
              <>
                <Send className="h-4 w-4" aria-hidden /> Submit Application
              </>
            )}
          </button>
        </div>
      </form>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <h2 id={id} className="font-serif text-2xl font-bold text-brand-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Group({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <div className="space-y-4">
      <div>
        <h3 className="text-lg font-semibold text-brand-800">{title}</h3>
        {note ? <p className="text-sm text-slate-600">{note}</p> : null}
      </div>
      {children}
    </div>
  );
}

function Checkbox({
  meta,
  label,
  required,
  errorShownBelow,
}: {
  meta: Meta;
  label: string;
  required?: boolean;
  errorShownBelow?: boolean;
}) {
  const { key: _key, ...props } = getInputProps(meta, { type: "checkbox", ariaAttributes: !errorShownBelow });
  return (
    <div>
      <label
        htmlFor={meta.id}
        className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 px-3 py-2.5 hover:bg-slate-50"
      >
        <input {...props} aria-required={required || undefined} className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700" />
        <span className="text-sm font-medium text-slate-800">
          {label}
          {required ? (
            <span className="text-red-700" aria-hidden>
              {" "}
              *
            </span>
          ) : null}
        </span>
      </label>
      {errorShownBelow ? null : <FieldError meta={meta} />}
    </div>
  );
}

function PersonFields({
  names,
  fields,
  required,
  formatPhoneOnBlur,
}: {
  names: { name: ApplicationField; dob: ApplicationField; gender: ApplicationField; email: ApplicationField; phone: ApplicationField };
  fields: Fields;
  required?: boolean;
  formatPhoneOnBlur: (e: React.FocusEvent<HTMLInputElement>) => void;
}) {
  const f = fields as unknown as Record<ApplicationField, Meta>;
  const mark = { required, optional: !required };
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field meta={f[names.name]} label={FIELD_LABELS[names.name]} {...mark}>
        <input
          {...inputProps(f[names.name], { type: "text" })}
          autoComplete={required ? "name" : "off"}
          maxLength={LIMITS.name}
          aria-required={required || undefined}
          className="field-input"
        />
      </Field>
      <Field meta={f[names.dob]} label={FIELD_LABELS[names.dob]} {...mark}>
        <input
          {...inputProps(f[names.dob], { type: "date" })}
          autoComplete={required ? "bday" : "off"}
          aria-required={required || undefined}
          className="field-input"
        />
      </Field>
      <Field meta={f[names.gender]} label={FIELD_LABELS[names.gender]} {...mark}>
        <select {...selectProps(f[names.gender])} aria-required={required || undefined} className="field-input">
          <option value="">Select</option>
          {GENDER_OPTIONS.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </Field>
      <Field meta={f[names.email]} label={FIELD_LABELS[names.email]} {...mark}>
        <input
          {...inputProps(f[names.email], { type: "email" })}
          autoComplete={required ? "email" : "off"}
          maxLength={LIMITS.email}
          aria-required={required || undefined}
          className="field-input"
        />
      </Field>
      <Field meta={f[names.phone]} label={FIELD_LABELS[names.phone]} {...mark}>
        <input
          {...inputProps(f[names.phone], { type: "tel" })}
          autoComplete={required ? "tel" : "off"}
          maxLength={LIMITS.phone}
          aria-required={required || undefined}
          onBlur={formatPhoneOnBlur}
          className="field-input"
        />
      </Field>
    </div>
  );
}
