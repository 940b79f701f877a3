import { LoaderCircle } from "lucide-react";
import { useEffect, useState, type ComponentType } from "react";
import { Modal } from "~/components/Modal";
import {
  MESSAGES,
  type Assignee,
  type SubmissionDetail,
  type SubmissionNote,
  type SubmissionStatus,
  type SubmissionSummary,
} from "../contract";
import { usePublicConfig } from "~/components/usePublicConfig";
import { displayFieldValue, formatSubmittedAt } from "../display";
import { errorText, submissionsApi } from "./api-client";
import { EmailText } from "./EmailText";
import { StatusSelect } from "./StatusControls";
import { InternalNotes, ReplyForm, StatusHistory } from "./SubmissionActivity";

/** What an application's detail shows of its member, drawn by the applications feature. */
export interface MembershipSectionProps {
  applicationId: number;
  status: SubmissionStatus;
  membership: NonNullable<SubmissionDetail["membership"]>;
  onChanged: (membership: NonNullable<SubmissionDetail["membership"]>) => void;
}

/**
 * The screen that puts submissions and applications together (the admin dashboard) passes the
 * applications' section in, so submissions, which applications are stored through, never
 * imports them back.
 */
export type MembershipSectionComponent = ComponentType<MembershipSectionProps>;

const EMAIL_COLUMNS = new Set(["email", "co_email", "beneficiary_email"]);

/**
 * One submission: every stored field and, for an application, its signature images; its
 * status history, staff's notes and, when the site can send mail, a reply to the sender.
 */
export function SubmissionDetailDialog({
  summary,
  onClose,
  busy,
  onStatus,
  onAssigned,
  returnFocus,
  membershipSection: MembershipSection,
}: {
  summary: SubmissionSummary | null;
  onClose: () => void;
  /** Where focus goes on closing when the opener is gone. */
  returnFocus?: () => HTMLElement | null;
  busy: boolean;
  onStatus: (status: SubmissionStatus) => void;
  onAssigned: (assignee: Assignee | null) => void;
  membershipSection?: MembershipSectionComponent;
}) {
  const { timeZone } = usePublicConfig();
  // What was loaded, for which id: another submission's answer is never shown.
  const [loaded, setLoaded] = useState<{ id: string; detail: SubmissionDetail | null; error: string | null } | null>(null);
  const id = summary?.id ?? null;
  // Loaded again after a status change, so its history shows the change.
  const shownStatus = summary?.status ?? null;

  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    submissionsApi
      .detail(id, controller.signal)
      .then((detail) => setLoaded({ id, detail, error: null }))
      .catch((err) => {
        if (!controller.signal.aborted) setLoaded({ id, detail: null, error: errorText(err) });
      });
    return () => controller.abort();
  }, [id, shownStatus]);
  const detail = loaded?.id === id ? loaded.detail : null;
  const addNote = (note: SubmissionNote) =>
    setLoaded((l) => (l?.id === id && l.detail ? { ...l, detail: { ...l.detail, notes: [...l.detail.notes, note] } } : l));
  const error = loaded?.id === id ? loaded.error : null;

  const status = summary?.status ?? "pending";
  return (
    <Modal
      open={summary !== null}
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      returnFocus={returnFocus}
      title={summary ? `${summary.formType}: ${summary.applicantName || summary.id}` : ""}
      description={summary ? `${summary.id} · submitted ${formatSubmittedAt(summary.submissionDate, timeZone)}` : undefined}
    >
      {summary ? (
        <div className="space-y-6" data-testid="submission-detail">
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-sm font-semibold text-slate-700">Status</span>
            <StatusSelect value={status} label="Submission status" busy={busy} onChange={onStatus} />
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin text-brand-700" aria-label="Updating" role="img" /> : null}
            {detail ? (
              <AssigneeSelect
                submissionId={detail.id}
                assignedTo={summary.assignedTo ?? null}
                assignees={detail.assignees}
                onAssigned={onAssigned}
              />
            ) : null}
          </div>
          {error ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
              {error}
            </p>
          ) : !detail ? (
            <p role="status" className="text-slate-600">
              Loading submission...
            </p>
          ) : (
            <>
              <section aria-labelledby="submission-fields-heading">
                <h3 id="submission-fields-heading" className="mb-3 font-semibold text-brand-900">
                  Submitted information
                </h3>
                <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
                  {/* The status is the dropdown above. */}
                  {detail.fields
                    .filter((f) => f.key !== "status")
                    .map((f) => (
                      <div key={f.key} className="min-w-0">
                        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{f.label}</dt>
                        <dd className="whitespace-pre-wrap break-words text-slate-900">
                          {EMAIL_COLUMNS.has(f.key) && typeof f.value === "string" && f.value ? (
                            <EmailText email={f.value} />
                          ) : (
                            displayFieldValue(detail.table, f, timeZone)
                          )}
                        </dd>
                      </div>
                    ))}
                </dl>
              </section>
              {detail.signatures.length ? (
                <section aria-labelledby="submission-signatures-heading">
                  <h3 id="submission-signatures-heading" className="mb-3 font-semibold text-brand-900">
                    Signatures
                  </h3>
                  <div className="grid gap-4 sm:grid-cols-2">
                    {detail.signatures.map((s) => (
                      <figure key={s.key} className="rounded-lg border border-slate-200 p-3">
                        <img src={s.dataUrl} alt={s.label} className="h-32 w-full bg-white object-contain" />
                        <figcaption className="mt-2 text-sm text-slate-700">{s.label}</figcaption>
                      </figure>
                    ))}
                  </div>
                </section>
              ) : null}
              {detail.membership && MembershipSection ? (
                <MembershipSection
                  applicationId={detail.rowId}
                  status={status}
                  membership={detail.membership}
                  onChanged={(membership) =>
                    setLoaded((l) => (l?.id === id && l.detail ? { ...l, detail: { ...l.detail, membership } } : l))
                  }
                />
              ) : null}
              <StatusHistory history={detail.history} />
              <InternalNotes submissionId={detail.id} notes={detail.notes} onAdded={addNote} />
              {detail.replyTo ? (
                <ReplyForm
                  submissionId={detail.id}
                  to={detail.replyTo}
                  defaultSubject={`Re: your ${detail.formType.toLowerCase()}`}
                  onSent={addNote}
                />
              ) : null}
            </>
          )}
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * Who the submission is assigned to: any active staff member, or nobody. A staff member no
 * longer active stays listed while the submission is theirs.
 */
function AssigneeSelect({
  submissionId,
  assignedTo,
  assignees,
  onAssigned,
}: {
  submissionId: string;
  assignedTo: Assignee | null;
  assignees: Assignee[];
  onAssigned: (assignee: Assignee | null) => void;
}) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options = assignedTo && !assignees.some((a) => a.id === assignedTo.id) ? [assignedTo, ...assignees] : assignees;

  async function change(value: string) {
    setSaving(true);
    setError(null);
    try {
      onAssigned(await submissionsApi.assign(submissionId, value ? Number(value) : null));
    } catch (err) {
      setError(`${MESSAGES.assignFailed} (${errorText(err)})`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3 sm:ml-auto">
      <label htmlFor="submission-assignee" className="text-sm font-semibold text-slate-700">
        Assigned to
      </label>
      <select
        id="submission-assignee"
        className="field-input w-auto min-w-40"
        value={assignedTo ? String(assignedTo.id) : ""}
        disabled={saving}
        onChange={(e) => void change(e.target.value)}
      >
        <option value="">Nobody</option>
        {options.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {saving ? <LoaderCircle className="h-4 w-4 animate-spin text-brand-700" aria-label="Saving" role="img" /> : null}
      {error ? (
        <p role="alert" className="basis-full text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
