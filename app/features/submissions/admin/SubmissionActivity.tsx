import { LoaderCircle, Mail, MessageSquarePlus, Send } from "lucide-react";
import { useState } from "react";
import { Field, FormFailure, inputProps, textareaProps } from "~/components/forms/FormParts";
import { useSchemaForm } from "~/components/forms/useSchemaForm";
import { useAssociationTime } from "~/components/useAssociationTime";
import {
  MAX_NOTE_LENGTH,
  MAX_REPLY_SUBJECT,
  STATUS_LABELS,
  noteSchema,
  replySchema,
  type StatusChange,
  type SubmissionNote,
} from "../contract";
import { errorText, submissionsApi } from "./api-client";

/** An instant in the association's zone, named. */
function useWhen(): (iso: string) => string {
  const zoned = useAssociationTime();
  return (iso) => zoned(iso) ?? iso;
}

/** A submission's status changes, oldest first (from the audit log). */
export function StatusHistory({ history }: { history: StatusChange[] }) {
  const when = useWhen();
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

/** One note, or one e-mail reply with its subject and address. */
function NoteItem({ note }: { note: SubmissionNote }) {
  const when = useWhen();
  return (
    <li
      className={`rounded-lg border px-3 py-2 text-sm ${note.kind === "reply" ? "border-brand-200 bg-brand-50" : "border-slate-200 bg-slate-50"}`}
      data-kind={note.kind}
    >
      {note.kind === "reply" ? (
        <p className="mb-1 flex items-center gap-1.5 font-semibold text-brand-900">
          <Mail className="h-4 w-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">
            E-mail to {note.to ?? "the sender"}: {note.subject}
          </span>
        </p>
      ) : null}
      <p className="whitespace-pre-wrap break-words text-slate-900">{note.body}</p>
      <p className="mt-1 text-xs text-slate-600">
        {note.author ?? "A removed account"}, {when(note.createdAt)}
      </p>
    </li>
  );
}

/** The e-mail reply to the sender, shown only when the site can send mail and the submission has an address. */
export function ReplyForm({
  submissionId,
  to,
  defaultSubject,
  onSent,
}: {
  submissionId: string;
  to: string;
  defaultSubject: string;
  onSent: (note: SubmissionNote) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { fields, formProps, reset, failureId, announceFailure } = useSchemaForm({
    id: "submission-reply",
    schema: replySchema,
    defaultValue: { subject: defaultSubject },
    onValid: (data) => {
      if (busy) return;
      setBusy(true);
      setError(null);
      setSentTo(null);
      submissionsApi
        .reply(submissionId, data)
        .then((note) => {
          onSent(note);
          reset();
          setSentTo(note.to);
        })
        .catch((err) => {
          setError(errorText(err));
          announceFailure();
        })
        .finally(() => setBusy(false));
    },
  });
  return (
    <section aria-labelledby="submission-reply-heading">
      <h3 id="submission-reply-heading" className="mb-1 font-semibold text-brand-900">
        Reply by e-mail
      </h3>
      <p className="mb-3 text-sm text-slate-600">
        To <span className="font-medium text-slate-800">{to}</span>. The reply is kept with the notes.
      </p>
      <form {...formProps} className="space-y-3">
        <Field meta={fields.subject} label="Subject" required>
          <input {...inputProps(fields.subject, { type: "text" })} maxLength={MAX_REPLY_SUBJECT} className="field-input" disabled={busy} />
        </Field>
        <Field meta={fields.message} label="Message" required>
          <textarea {...textareaProps(fields.message)} rows={5} className="field-input" disabled={busy} />
        </Field>
        {error ? <FormFailure id={failureId}>{error}</FormFailure> : null}
        {sentTo ? (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
            E-mail sent to {sentTo}.
          </p>
        ) : null}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
          {busy ? "Sending..." : "Send e-mail"}
        </button>
      </form>
    </section>
  );
}

/** Staff's internal notes on a submission (and the replies sent), and a form to add a note. Never shown to the sender. */
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
  const { fields, formProps, reset, failureId, announceFailure } = useSchemaForm({
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
        .catch((err) => {
          setError(errorText(err));
          announceFailure();
        })
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
            <NoteItem key={`${n.kind}-${n.id}`} note={n} />
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-sm text-slate-600">No notes yet.</p>
      )}
      <form {...formProps} className="space-y-3">
        <Field meta={fields.body} label="Add a note" required hint={`Up to ${MAX_NOTE_LENGTH.toLocaleString("en-US")} characters.`}>
          {({ ariaDescribedBy }) => (
            <textarea {...textareaProps(fields.body, { ariaDescribedBy })} rows={3} className="field-input" disabled={busy} />
          )}
        </Field>
        {error ? <FormFailure id={failureId}>{error}</FormFailure> : null}
        <button type="submit" className="btn-outline" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <MessageSquarePlus className="h-4 w-4" aria-hidden />}
          {busy ? "Saving..." : "Add note"}
        </button>
      </form>
    </section>
  );
}
