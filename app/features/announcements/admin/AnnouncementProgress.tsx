import { ArrowLeft, Download, LoaderCircle, XCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { AdminPanel } from "~/components/AdminPanel";
import { ConfirmDialog } from "~/components/admin/Feedback";
import { FormFailure } from "~/components/forms/FormParts";
import { useAssociationTime } from "~/components/useAssociationTime";
import type { AnnouncementDetail } from "../contract";
import { announcementsApi, errorText } from "./api-client";
import { audienceSummary, donePercent, formatCount, sentOf, skippedTotal } from "./display";
import { ProgressBar, StatusLabel } from "./parts";

/** How often the page of an announcement being sent asks again. */
const POLL_MS = 3000;

function Figure({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className={`text-2xl font-bold ${tone ?? "text-brand-900"}`}>{formatCount(value)}</dd>
    </div>
  );
}

/**
 * One announcement being sent, sent or cancelled (read-only): its text, its audience and its
 * progress (sent, waiting, failed, skipped by reason), asked again every few seconds while it
 * is sending; the failed and skipped recipients, all of them in the CSV.
 */
export function AnnouncementProgressView({ id, onBack }: { id: number; onBack: (message?: string) => void }) {
  const [a, setA] = useState<AnnouncementDetail | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const when = useAssociationTime();

  const load = useCallback(async () => {
    try {
      setA(await announcementsApi.get(id));
      setFailure(null);
    } catch (err) {
      setFailure(`The announcement could not be loaded: ${errorText(err)}`);
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);
  const sending = a?.status === "sending";
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [sending, load]);

  async function cancel() {
    setBusy(true);
    try {
      const done = await announcementsApi.cancel(id);
      setA(done);
      onBack(`“${done.subject}” was cancelled; what was sent stays sent.`);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setBusy(false);
      setConfirm(false);
    }
  }

  const back = (
    <button type="button" className="btn-outline" onClick={() => onBack()}>
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Back to announcements
    </button>
  );
  if (!a)
    return failure ? (
      <AdminPanel title="Announcement" description="" actions={back}>
        <FormFailure id="announcement-failure">{failure}</FormFailure>
        <button type="button" className="btn-primary mt-4" onClick={() => void load()}>
          Try Again
        </button>
      </AdminPanel>
    ) : (
      <p role="status" className="flex items-center justify-center gap-2 py-12 text-slate-600">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden />
        Loading the announcement...
      </p>
    );

  const p = a.progress;
  const skipped = p ? skippedTotal(p) : 0;
  return (
    <AdminPanel title={a.subject} description={audienceSummary(a.audience)} actions={back}>
      <div className="space-y-6">
        {failure ? <FormFailure id="announcement-failure">{failure}</FormFailure> : null}
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <StatusLabel status={a.status} testId="announcement-status" />
          {a.startedAt ? <span>Started {when(a.startedAt)}</span> : null}
          {a.finishedAt ? <span>Finished {when(a.finishedAt)}</span> : null}
          {a.cancelledAt ? <span>Cancelled {when(a.cancelledAt)}</span> : null}
          {a.sentBy ? <span>by {a.sentBy}</span> : null}
          {a.status === "sending" ? (
            <button type="button" className="btn-ghost ml-auto text-red-700 hover:bg-red-50" onClick={() => setConfirm(true)}>
              <XCircle className="h-4 w-4" aria-hidden />
              Cancel sending
            </button>
          ) : null}
        </div>

        {p ? (
          <section aria-label="Progress" data-testid="announcement-progress" className="space-y-3">
            <p className="font-semibold text-brand-900" data-testid="announcement-sent-of">
              {sentOf(p)[0].toUpperCase() + sentOf(p).slice(1)}
            </p>
            <ProgressBar percent={donePercent(p)} label="Progress" />
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <Figure label="Sent" value={p.sent} tone="text-green-800" />
              <Figure label="Waiting" value={p.waiting} />
              <Figure label="Failed" value={p.failed} tone={p.failed ? "text-red-700" : undefined} />
              <Figure label="Skipped" value={skipped} />
            </dl>
            {skipped ? (
              <div>
                <h3 className="text-sm font-semibold text-slate-800">Skipped, by reason</h3>
                <ul className="mt-1 list-inside list-disc text-sm text-slate-700">
                  {Object.entries(p.skipped)
                    .filter(([, n]) => n > 0)
                    .map(([reason, n]) => (
                      <li key={reason}>
                        {reason}: {formatCount(n)}
                      </li>
                    ))}
                </ul>
              </div>
            ) : null}
          </section>
        ) : (
          <p className="text-sm text-slate-600">Sending has not started.</p>
        )}

        {a.problems.length ? (
          <section aria-labelledby="announcement-problems" className="space-y-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id="announcement-problems" className="font-semibold text-brand-900">
                Failed and skipped recipients
              </h3>
              <a className="btn-outline" href={announcementsApi.problemsHref(a.id)} download>
                <Download className="h-4 w-4" aria-hidden />
                Download CSV
              </a>
            </div>
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 text-sm">
              {a.problems.map((r) => (
                <li key={`${r.memberId}-${r.status}`} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-3 py-2">
                  <span>
                    <span className="font-medium">{r.name || "(no name)"}</span>
                    {r.certificateNumber ? <span className="text-slate-600"> · {r.certificateNumber}</span> : null}
                  </span>
                  <span className={r.status === "failed" ? "text-red-700" : "text-slate-700"}>
                    {r.status === "failed" ? `Failed after ${r.attempts} ${r.attempts === 1 ? "try" : "tries"}` : "Skipped"}: {r.reason}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="announcement-text" className="space-y-2">
          <h3 id="announcement-text" className="font-semibold text-brand-900">
            Message
          </h3>
          <pre className="whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-slate-50 p-3 font-sans text-sm text-slate-900">
            {a.body}
          </pre>
        </section>
      </div>
      <ConfirmDialog
        open={confirm}
        title="Cancel sending"
        confirmLabel="Cancel sending"
        cancelLabel="Keep sending"
        busyLabel="Cancelling..."
        busy={busy}
        onCancel={() => setConfirm(false)}
        onConfirm={() => void cancel()}
      >
        <p>Stop sending “{a.subject}”? What was sent stays sent; the rest is not sent.</p>
      </ConfirmDialog>
    </AdminPanel>
  );
}
