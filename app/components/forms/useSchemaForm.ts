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

/** The id of a form's failure alert (the server refused or could not be reached), which takes the focus. */
export const failureAlertId = (formId: string) => `${formId}-failure`;

/** Conform submits its own intents (validate a field, update, reset) through a button of this name. */
const CONFORM_INTENT = "__intent__";

function isConformIntent(event: FormEvent<HTMLFormElement>) {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  return submitter?.getAttribute("name") === CONFORM_INTENT;
}

/*
 * Conform checks a field when it is left by submitting the form with an intent button. A field
 * that has the focus when its form leaves the page (the thank-you replaces the form sent with
 * Enter) is left while React takes the form down, when React no longer handles its submit
 * event: the browser then posted the page with the intent, which reloaded it with the form
 * still filled in. An intent is never a page post while the page runs: the document refuses it.
 */
let intentGuardInstalled = false;
function refuseIntentPosts() {
  if (intentGuardInstalled) return;
  intentGuardInstalled = true;
  document.addEventListener(
    "submit",
    (event) => {
      if (event.submitter?.getAttribute("name") === CONFORM_INTENT) event.preventDefault();
    },
    true,
  );
}

/*
 * Whether a mouse button (or pen) is pressed, and what waits for its release. A field left by
 * pressing the mouse on a button is checked once the click is over: an error drawn under the
 * field between the press and the release pushes the button down, and the release then lands
 * beside it, which loses the click.
 */
let pointerPressed = false;
let afterRelease: (() => void)[] = [];
let pointerTrackerInstalled = false;
function trackPointer() {
  if (pointerTrackerInstalled) return;
  pointerTrackerInstalled = true;
  const released = () => {
    pointerPressed = false;
    const waiting = afterRelease;
    afterRelease = [];
    // The click follows the release in the same task: run after it.
    if (waiting.length) setTimeout(() => waiting.forEach((run) => run()));
  };
  document.addEventListener("pointerdown", () => (pointerPressed = true), true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
}

/**
 * Focuses and reveals an element once it is drawn: an alert drawn from Conform's state (the
 * form's own errors) appears a render after the one that asked for it.
 */
function revealWhenShown(elementId: string, block: ScrollLogicalPosition) {
  let frames = 0;
  const attempt = () => {
    const element = document.getElementById(elementId);
    if (element) focusAndReveal(element, block);
    else if (frames++ < 10) requestAnimationFrame(attempt);
  };
  attempt();
}

function isNamedField(target: EventTarget | null): target is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  return (
    (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) &&
    target.name !== "" &&
    !(target instanceof HTMLInputElement && ["submit", "button", "reset", "hidden"].includes(target.type))
  );
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
  /** Where the error summary scrolls to when it takes the focus: by default its top, just below the sticky header. */
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
 * with `showErrors`. A refusal (or no answer) is shown in the form's alert, with the id
 * `failureAlertId`, and `announceFailure` moves the focus to it, below the sticky header.
 */
export function useSchemaForm<S extends FormSchema>({
  id,
  schema,
  lastResult,
  defaultValue,
  summaryBlock = "start",
  onValid,
}: SchemaFormOptions<S>) {
  // The last answer shown: the page action's, then the JSON API's errors (see showErrors).
  const [result, setResult] = useState<FormResult | null | undefined>(lastResult);
  const [summaryShown, setSummaryShown] = useState(lastResult?.status === "error");
  const [summaryFocus, setSummaryFocus] = useState(0);
  const [failureFocus, setFailureFocus] = useState(0);
  const focused = useRef({ summary: 0, failure: 0 });
  const sends = useRef(0);
  // Like Conform's own check on leaving: a field is checked when left until it has been checked
  // once (then it is checked as it is typed in), and not at all after a send, which checks every
  // field (and may have brought the server's messages, which leaving the field must not erase).
  const checkedOnLeaving = useRef(new Set<string>());
  const everyFieldChecked = useRef(lastResult?.status === "error");
  const valid = useRef(false);
  const [constraint] = useState(() => constraintOf(schema));

  const [form, fields] = useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult: result,
    defaultValue,
    constraint,
    // A field is checked when it is left by the focusout listener below (not by Conform's own,
    // which cannot wait for a click to end), then again as it is typed in.
    shouldValidate: "onSubmit",
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

  // After Conform has reported the errors (and focused the first field), the summary takes the
  // focus; a failure alert shown at the same time takes it instead (it sits above the summary).
  useEffect(() => {
    const last = focused.current;
    focused.current = { summary: summaryFocus, failure: failureFocus };
    if (failureFocus !== last.failure) revealWhenShown(failureAlertId(id), "start");
    else if (summaryFocus !== last.summary) revealWhenShown(errorSummaryId(id), summaryBlock);
  }, [summaryFocus, failureFocus, id, summaryBlock]);

  // A field is checked when it is left; when it is left for a press of the mouse, once the
  // click is over, and not at all when that click sent the form (the send checks every field).
  const validateField = useRef(form.validate);
  validateField.current = form.validate;
  useEffect(() => {
    refuseIntentPosts();
    trackPointer();
    function onFocusOut(event: FocusEvent) {
      const field = event.target;
      if (!isNamedField(field) || !field.form || field.form.id !== id) return;
      const check = () => {
        if (!field.isConnected || field.form?.id !== id) return;
        if (everyFieldChecked.current || checkedOnLeaving.current.has(field.name)) return;
        checkedOnLeaving.current.add(field.name);
        validateField.current({ name: field.name });
      };
      if (!pointerPressed) return check();
      const sendsBefore = sends.current;
      afterRelease.push(() => {
        if (sends.current === sendsBefore) check();
      });
    }
    document.addEventListener("focusout", onFocusOut);
    return () => document.removeEventListener("focusout", onFocusOut);
  }, [id]);

  function showSummary() {
    setSummaryShown(true);
    setSummaryFocus((n) => n + 1);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const intent = isConformIntent(event);
    if (!intent) {
      sends.current += 1;
      everyFieldChecked.current = true;
    }
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
    /** The id for the form's failure alert (role="alert", tabIndex -1). */
    failureId: failureAlertId(id),
    /** After a refused or failed send: the failure alert takes the focus and comes into view below the sticky header. */
    announceFailure() {
      setFailureFocus((n) => n + 1);
    },
    /** Empties the form (after a successful send, or a discarded draft). */
    reset() {
      checkedOnLeaving.current.clear();
      everyFieldChecked.current = false;
      setSummaryShown(false);
      form.reset();
    },
  };
}

export type SchemaForm = ReturnType<typeof useSchemaForm>;
