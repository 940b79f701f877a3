import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { RotateCcw, Send } from "lucide-react";
import { clearDraft, loadDraft, saveDraft, useDraftKey, type Draft } from "~/components/forms/draft";
import { focusAndReveal } from "~/components/forms/focus";
import { ErrorSummary, Field, FormMessage, SubmitButton, inputProps, selectProps, textareaProps } from "~/components/forms/FormParts";
import { toFieldErrors, useSchemaForm } from "~/components/forms/useSchemaForm";
import { useHydrated } from "~/components/useHydrated";
import { ConnectionLostError } from "~/platform/json-client";
import { postForm } from "~/features/submissions/intake/client";
import type { FormActionData } from "~/features/submissions/intake/form-result";
import { Honeypot, honeypotValue } from "~/features/submissions/intake/Honeypot";
import { CONTACT_SUBJECTS, LIMITS, contactSchema } from "~/features/submissions/intake/schemas";
import { CONTACT_FAILURE, CONTACT_FAILURE_NO_SCRIPT, CONTACT_SUCCESS } from "./contact-info";
import { CONTACT_DRAFT_FIELDS, CONTACT_DRAFT_FORM } from "./draft";

const FIELDS = {
  name: "Full Name",
  email: "Email Address",
  phone: "Phone Number",
  subject: "Subject",
  message: "Message",
};
const FIELD_NAMES = Object.keys(FIELDS);

type Phase = "editing" | "sending" | "sent" | "failed";

/** The form's current text fields, as the draft keeps them. */
function draftOf(value: Record<string, unknown> | undefined): Draft {
  const draft: Draft = {};
  for (const name of CONTACT_DRAFT_FIELDS) draft[name] = typeof value?.[name] === "string" ? (value[name] as string) : "";
  return draft;
}

/**
 * The contact form. With JavaScript it posts to /api/forms; a message that could not be
 * sent is kept in local storage and restored on the next visit until it is sent. Without
 * JavaScript it posts to the page's action, which answers with the page and its messages.
 */
export function ContactForm({ result }: { result?: FormActionData }) {
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<Phase>(result?.status === "success" ? "sent" : "editing");
  const [failureReason, setFailureReason] = useState<string | null>(null);
  const [draftRestored, setDraftRestored] = useState(false);
  const [draftKept, setDraftKept] = useState(false);
  const sentRef = useRef<HTMLDivElement>(null);
  const draftKey = useDraftKey(CONTACT_DRAFT_FORM);

  const { form, fields, formProps, summaryShown, showErrors, reset, failureId, announceFailure } = useSchemaForm({
    id: "contact",
    schema: contactSchema,
    lastResult: result && result.status !== "success" ? result.result : undefined,
    async onValid(message, submission, element) {
      setPhase("sending");
      setFailureReason(null);
      try {
        const answer = await postForm("/api/forms", { ...message, website: honeypotValue(element) });
        if (answer.ok) {
          clearDraft(draftKey);
          setDraftKept(false);
          setDraftRestored(false);
          reset();
          setPhase("sent");
          return;
        }
        if (answer.details) showErrors(submission, toFieldErrors(answer.details, FIELD_NAMES));
        setFailureReason(answer.status === 400 && answer.details ? null : answer.error);
      } catch (err) {
        setFailureReason(err instanceof ConnectionLostError ? err.message : null);
      }
      saveDraft(draftKey, draftOf(submission.payload));
      setDraftKept(true);
      setPhase("failed");
      announceFailure();
    },
  });

  // A message kept after a failed send comes back when the page is opened again.
  useEffect(() => {
    if (result) return;
    const draft = loadDraft(draftKey, CONTACT_DRAFT_FIELDS);
    if (!draft) return;
    form.update({ value: draft });
    setDraftRestored(true);
    setDraftKept(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration
  }, []);

  // While a draft is kept, it follows what is typed, until the message is sent.
  const current = JSON.stringify(draftOf(form.value));
  useEffect(() => {
    if (draftKept) saveDraft(draftKey, JSON.parse(current) as Draft);
  }, [draftKept, current, draftKey]);

  useEffect(() => {
    if (phase === "sent") focusAndReveal(sentRef.current);
  }, [phase]);

  function discardDraft() {
    clearDraft(draftKey);
    setDraftKept(false);
    setDraftRestored(false);
    reset();
  }

  if (phase === "sent") {
    return (
      <div ref={sentRef} tabIndex={-1} className="space-y-6 focus:outline-none">
        <FormMessage tone="success" testId="contact-success">
          <p className="font-medium">{CONTACT_SUCCESS}</p>
        </FormMessage>
        <p className="text-slate-700">
          A member of our team will reply to the e-mail address you gave us. If your question is urgent, please call us during business
          hours.
        </p>
        {hydrated ? (
          <button type="button" className="btn-outline" onClick={() => setPhase("editing")}>
            <RotateCcw className="h-4 w-4" aria-hidden /> Send another message
          </button>
        ) : (
          <Link to="/contact-us" className="btn-outline" reloadDocument>
            <RotateCcw className="h-4 w-4" aria-hidden /> Send another message
          </Link>
        )}
      </div>
    );
  }

  const failedWithoutScript = result?.status === "failed" && phase === "editing";

  return (
    <form method="post" {...formProps} aria-busy={phase === "sending"} className="relative space-y-5">
      {phase === "failed" ? (
        <FormMessage tone="error" testId="contact-failure" id={failureId}>
          <p className="font-medium">{CONTACT_FAILURE}</p>
          {failureReason ? <p>{failureReason}</p> : null}
        </FormMessage>
      ) : null}
      {failedWithoutScript ? (
        <FormMessage tone="error" testId="contact-failure">
          <p className="font-medium">{CONTACT_FAILURE_NO_SCRIPT}</p>
          <p>{result.message}</p>
        </FormMessage>
      ) : null}
      {draftRestored && phase === "editing" ? (
        <div
          role="status"
          data-testid="contact-draft-restored"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p>We restored the message you were writing. It has not been sent yet.</p>
          <button type="button" className="font-semibold underline underline-offset-2 hover:text-amber-950" onClick={discardDraft}>
            Discard draft
          </button>
        </div>
      ) : null}
      <ErrorSummary form={form} labels={FIELDS} shown={summaryShown} />

      <div className="grid gap-5 sm:grid-cols-2">
        <Field meta={fields.name} label={FIELDS.name}>
          {(aria) => (
            <input
              {...inputProps(fields.name, { type: "text", ...aria })}
              autoComplete="name"
              required
              maxLength={LIMITS.name}
              className="field-input"
            />
          )}
        </Field>
        <Field meta={fields.email} label={FIELDS.email}>
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
        <Field meta={fields.phone} label={FIELDS.phone} optional>
          {(aria) => (
            <input {...inputProps(fields.phone, { type: "tel", ...aria })} autoComplete="tel" maxLength={30} className="field-input" />
          )}
        </Field>
        <Field meta={fields.subject} label={FIELDS.subject}>
          {(aria) => (
            <select {...selectProps(fields.subject, aria)} required className="field-input">
              <option value="">Select a subject</option>
              {CONTACT_SUBJECTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field
        meta={fields.message}
        label={FIELDS.message}
        hint={`How can we help? Please include your membership ID if you have one. Up to ${LIMITS.message.toLocaleString("en-US")} characters.`}
      >
        {(aria) => (
          <textarea
            {...textareaProps(fields.message, aria)}
            required
            rows={6}
            maxLength={LIMITS.message}
            className="field-input min-h-36 resize-y"
          />
        )}
      </Field>
      <Honeypot formId="contact" />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">We reply within 24 hours. We never share your details.</p>
        <SubmitButton busy={phase === "sending"} busyLabel="Sending...">
          <Send className="h-4 w-4" aria-hidden /> Send Message
        </SubmitButton>
      </div>
    </form>
  );
}
