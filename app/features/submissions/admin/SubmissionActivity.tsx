import { LoaderCircle, MessageSquarePlus } from "lucide-react";
import { useState } from "react";
import { Field, textareaProps } from "~/components/forms/FormParts";
import { useSchemaForm } from "~/components/forms/useSchemaForm";
import { formatDateTime } from "~/platform/dates";
import { MAX_NOTE_LENGTH, STATUS_LABELS, noteSchema, type StatusChange, type SubmissionNote } from "../contract";
import { errorText, submissionsApi } from "./api-client";

const when = (iso: string) => formatDateTime(iso) ?? iso;

/** A submission's status changes, oldest first (from the audit log). */
export function StatusHistory({ history }: { history: StatusChange[] }) {
  return (
    <section aria-labelledby="submission-history-heading">
      <h3 id="submission-history-heading" className="mb-3 font-semibold text-brand-900">
        Status history
      </h3>
      {history.length ? (
        <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm" data-testid="status-history">
          {history.map((h, i) => (
            <li key={i}>
              <span className="font-medium text-slate-900">
                {STATUS_LABELS[h.from]} → {STATUS_LABELS[h.to]}
              </span>
              <span className="block text-slate-600">
                {h.by ? `${h.by}, ` : ""}
                {when(h.at)}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-slate-600">No status changes yet.</p>
      )}
    </section>
  );
}

/** Staff's internal notes on a submission, and a form to add one. Never shown to the sender. */
export function InternalNotes({
  submissionId,
  notes,
  onAdded,
}: {
  submissionId: string;
  notes: SubmissionNote[];
  onAdded: (note: SubmissionNote) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { fields, formProps, reset } = useSchemaForm({
    id: "submission-note",
    schema: noteSchema,
    onValid: (data) => {
      if (busy) return;
      setBusy(true);
      setError(null);
      submissionsApi
        .addNote(submissionId, data.body)
        .then((note) => {
          onAdded(note);
          reset();
        })
        .catch((err) => setError(errorText(err)))
        .finally(() => setBusy(false));
    },
  });
  return (
    <section aria-labelledby="submission-notes-heading">
      <h3 id="submission-notes-heading" className="mb-1 font-semibold text-brand-900">
        Internal notes
      </h3>
      <p className="mb-3 text-sm text-slate-600">Seen by staff only, never by the sender.</p>
      {notes.length ? (
        <ul className="mb-4 space-y-3" data-testid="submission-notes">
          {notes.map((n) => (
            <li key={n.id} className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
              <p className="whitespace-pre-wrap break-words text-slate-900">{n.body}</p>
              <p className="mt-1 text-xs text-slate-600">
                {n.author ?? "A removed account"}, {when(n.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-slate-600">No notes yet.</p>
      )}
      <form {...formProps} className="space-y-3">
        <Field meta={fields.body} label="Add a note" hint={`Up to ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters.`}>
          {({ ariaDescribedBy }) => (
            <textarea {...textareaProps(fields.body, { ariaDescribedBy })} rows={3} className="field-input" disabled={busy} />
          )}
        </Field>
        {error ? (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn-outline" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <MessageSquarePlus className="h-4 w-4" aria-hidden />}
          {busy ? "Saving..." : "Add note"}
        </button>
      </form>
    </section>
  );
}
