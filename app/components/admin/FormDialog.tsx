import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { DefaultValue } from "@conform-to/react";
import { LoaderCircle } from "lucide-react";
import type { z } from "~/platform/zod";
import { Modal } from "~/components/Modal";
import type { FormSchema } from "~/components/forms/parse-form";
import { FormFailure } from "~/components/forms/FormParts";
import { toFieldErrors, useSchemaForm } from "~/components/forms/useSchemaForm";

type SchemaFields<S extends FormSchema> = ReturnType<typeof useSchemaForm<S>>["fields"];

export interface FormDialogProps<S extends FormSchema> {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** The contract's schema for what the form posts; its messages show beside the fields. */
  schema: S;
  /** The values the form opens with (the record being edited). */
  defaultValue?: DefaultValue<z.input<S>>;
  busy: boolean;
  /** The server's refusal of the last attempt, shown in the dialog so nothing typed is lost. */
  error: string | null;
  /** The server's messages for single fields of the last attempt ({ field: message }), shown by their fields. */
  fieldErrors?: Record<string, string> | null;
  submitLabel: string;
  busyLabel: string;
  submitIcon?: ReactNode;
  /** The button that closes the dialog without sending ("Cancel"; named otherwise where the submit button itself says cancel). */
  cancelLabel?: string;
  /** Where the focus goes on closing when the button that opened the dialog is gone (see Modal). */
  returnFocus?: () => HTMLElement | null;
  /** Whether the submit button is enabled for the values as they stand (e.g. the required fields are filled). */
  canSubmit?: (value: Record<string, unknown> | undefined) => boolean;
  onClose: () => void;
  /** Called with the checked values; the caller sends them and closes the dialog. */
  onSubmit: (data: z.output<S>) => void;
  /** The fields, built with FormParts (Field, inputProps, selectProps...). */
  /** The form's fields; `form` to set a value from a button (Conform's `form.update`). */
  children: (fields: SchemaFields<S>, form: ReturnType<typeof useSchemaForm<S>>["form"]) => ReactNode;
}

/**
 * The add/edit dialog of the admin screens: a Conform form on the contract's schema (checked
 * when a field is left and again on submit), the server's refusal on top, Cancel and the
 * submit button in the footer. Each opening starts from `defaultValue`.
 */
export function FormDialog<S extends FormSchema>(props: FormDialogProps<S>) {
  // A new form for each opening (React's "state from the previous render" pattern): what was
  // typed into a cancelled dialog never comes back.
  const [opening, setOpening] = useState(0);
  const [wasOpen, setWasOpen] = useState(props.open);
  if (props.open !== wasOpen) {
    setWasOpen(props.open);
    if (props.open) setOpening((n) => n + 1);
  }
  return <FormDialogOpening key={opening} {...props} />;
}

function FormDialogOpening<S extends FormSchema>({
  open,
  title,
  description,
  schema,
  defaultValue,
  busy,
  error,
  fieldErrors,
  submitLabel,
  busyLabel,
  submitIcon,
  cancelLabel = "Cancel",
  canSubmit,
  returnFocus,
  onClose,
  onSubmit,
  children,
}: FormDialogProps<S>) {
  const id = useId();
  const lastSubmission = useRef<Parameters<typeof showErrors>[0] | null>(null);
  const { form, fields, formProps, failureId, announceFailure, showErrors } = useSchemaForm({
    id: `form${id.replace(/[^a-zA-Z0-9]/g, "")}`,
    schema,
    defaultValue,
    onValid: (data, submission) => {
      lastSubmission.current = submission;
      if (!busy) onSubmit(data);
    },
  });
  // The server's messages for fields go beside them (the same place the schema's own go).
  useEffect(() => {
    if (!fieldErrors || !lastSubmission.current) return;
    // The schema's own fields (Conform's `fields` is a proxy that lists none).
    const known = "shape" in schema && schema.shape && typeof schema.shape === "object" ? Object.keys(schema.shape) : [];
    showErrors(lastSubmission.current, toFieldErrors(fieldErrors, known));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- shown once per answer
  }, [fieldErrors]);
  // The server's refusal takes the focus, so it is read out and seen.
  useEffect(() => {
    if (error) announceFailure();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- announceFailure only counts a state up
  }, [error]);
  const enabled = !busy && (canSubmit ? canSubmit(form.value as Record<string, unknown> | undefined) : true);
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && !busy && onClose()}
      title={title}
      description={description}
      returnFocus={returnFocus}
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="submit" form={form.id} className="btn-primary" disabled={!enabled}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : submitIcon}
            {busy ? busyLabel : submitLabel}
          </button>
        </>
      }
    >
      <form {...formProps} className="space-y-4">
        {error ? <FormFailure id={failureId}>{error}</FormFailure> : null}
        {children(fields, form)}
      </form>
    </Modal>
  );
}
