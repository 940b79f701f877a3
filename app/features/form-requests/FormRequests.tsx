import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { focusAndReveal } from "~/components/forms/focus";
import { formAfterPage } from "~/components/forms/afterPage";
import { FormMessage } from "~/components/forms/FormMessage";
import type { FormActionData } from "~/features/submissions/intake/form-result";
import { REQUEST_FORMS, type RequestFormKind } from "~/features/submissions/intake/request-forms";
import { FormChooser } from "./FormChooser";
import { INVALID_FORM_SELECTION, REQUEST_SUCCESS } from "./messages";

/** The form's code (zod, Conform, the schema) comes after the page: components/forms/afterPage. */
const RequestForm = formAfterPage(() => import("./RequestForm").then((m) => m.RequestForm));

export type FormSelection = RequestFormKind | "invalid" | null;

/**
 * No form chosen ('Select a Form'), then a chosen form, then submitted: the success
 * message shows, the form resets and the selection clears.
 */
export function FormRequests({ selection, result }: { selection: FormSelection; result?: FormActionData }) {
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(result?.status === "success");
  const successRef = useRef<HTMLDivElement>(null);
  const formTitleRef = useRef<HTMLHeadingElement>(null);
  const previous = useRef(selection);

  const chosen = selection === "cpa" || selection === "homeowner" ? selection : null;

  useEffect(() => {
    if (previous.current === selection) return;
    previous.current = selection;
    if (chosen) {
      // A form chosen on this page: hide the last success and bring the form into view.
      setSubmitted(false);
      focusAndReveal(formTitleRef.current, "start");
    }
  }, [selection, chosen]);

  useEffect(() => {
    if (submitted) focusAndReveal(successRef.current);
  }, [submitted]);

  function onSubmitted() {
    setSubmitted(true);
    navigate("/form-requests", { replace: true, preventScrollReset: true });
  }

  return (
    <div className="space-y-8">
      {submitted ? (
        <div ref={successRef} tabIndex={-1} className="focus:outline-none">
          <FormMessage tone="success" testId="request-success">
            <p className="font-medium">{REQUEST_SUCCESS}</p>
          </FormMessage>
        </div>
      ) : null}
      {selection === "invalid" ? (
        <FormMessage tone="error" testId="request-invalid">
          <p className="font-medium">{INVALID_FORM_SELECTION}</p>
        </FormMessage>
      ) : null}

      <FormChooser selected={chosen} />

      {chosen ? (
        <section aria-labelledby="request-form-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h2
            id="request-form-title"
            ref={formTitleRef}
            tabIndex={-1}
            className="font-serif text-2xl font-bold text-brand-900 focus:outline-none"
          >
            {REQUEST_FORMS[chosen].title}
          </h2>
          <p className="mt-1 text-slate-700">{REQUEST_FORMS[chosen].summary}</p>
          <p className="mt-1 text-sm text-slate-600">Your full name and email address are required; everything else is optional.</p>
          <div className="mt-6">
            <RequestForm key={chosen} kind={chosen} result={result} onSubmitted={onSubmitted} />
          </div>
        </section>
      ) : null}
    </div>
  );
}
