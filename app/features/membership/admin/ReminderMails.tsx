import { CircleAlert, LoaderCircle, MailX, RefreshCw } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { useAssociationTime } from "~/components/useAssociationTime";
import { errorReason, jsonClient } from "~/platform/json-client";
import type { MemberRemindersAnswer, MembersWithoutEmailAnswer, ReminderView } from "../contract";

const call = jsonClient();

/** Loads `path` once per `reload`; an answer to an older request never replaces a newer one. */
export function useAnswer<T>(path: string) {
  const [reload, setReload] = useState(0);
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null } | null>(null);
  const key = `${path}#${reload}`;
  useEffect(() => {
    const controller = new AbortController();
    call<T>(path, { signal: controller.signal }).then(
      (data) => !controller.signal.aborted && setState({ key, data, error: null }),
      (err) => !controller.signal.aborted && setState({ key, data: null, error: errorReason(err) }),
    );
    return () => controller.abort();
  }, [path, key]);
  const current = state?.key === key ? state : null;
  return { data: current?.data ?? null, error: current?.error ?? null, loading: !current, retry: () => setReload((n) => n + 1) };
}

const BADGE: Record<ReminderView["status"], string> = {
  queued: "bg-sky-100 text-sky-900",
  sent: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
  dropped: "bg-slate-200 text-slate-800",
};

/** The state in words: "Sent", "Queued", "Failed", "Not sent". */
function statusText(r: ReminderView): string {
  if (r.status === "queued") return r.sending ? "Sending" : "Queued";
  return { sent: "Sent", failed: "Failed", dropped: "Not sent" }[r.status];
}

/** What staff need to know beside the state: where and when it went, or why not and when it is tried again. */
function detailText(r: ReminderView, zoned: (iso: string | null) => string | null): string {
  const when = (iso: string | null) => zoned(iso) ?? "";
  switch (r.status) {
    case "sent":
      return `To ${r.sentTo} on ${when(r.sentAt)}`;
    case "queued":
      return `Queued ${when(r.createdAt)}`;
    case "failed":
      return `${r.lastError ?? "The mail server did not take it"}. ${r.nextAttemptAt ? `Next try ${when(r.nextAttemptAt)}` : `Not tried again after ${r.attempts} tries`}.`;
    case "dropped":
      return `${r.lastError ?? "No longer due"}.`;
  }
}

/** Loading, failure with a retry, or the content. */
export function Loaded<T>({
  answer,
  what,
  children,
}: {
  answer: ReturnType<typeof useAnswer<T>>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (answer.loading)
    return (
      <p role="status" className="flex items-center gap-2 py-3 text-sm text-slate-600">
        <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
        Loading {what}...
      </p>
    );
  if (!answer.data)
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
      >
        <CircleAlert className="h-4 w-4 shrink-0" aria-hidden />
        <span className="flex-1">
          The {what} could not be loaded: {answer.error}
        </span>
        <button type="button" className="btn-outline px-3 py-1 text-sm" onClick={answer.retry}>
          <RefreshCw className="h-4 w-4" aria-hidden />
          Try Again
        </button>
      </div>
    );
  return <>{children(answer.data)}</>;
}

/**
 * A member's membership reminder e-mails (first payment awaited, due soon, past due, lapsed)
 * and receipts of payments made online, each with what it is about and its state: queued, sent (to which address, when), failed (why, and when it is
 * tried again) or not sent (no longer due, no address). Staff only.
 */
export function ReminderMails({ memberId, headingLevel = 3 }: { memberId: number; headingLevel?: 2 | 3 | 4 }) {
  const answer = useAnswer<MemberRemindersAnswer>(`/api/admin/members/${memberId}/membership/reminders`);
  const zoned = useAssociationTime();
  const Heading = `h${headingLevel}` as const;
  const headingId = `reminder-mails-${memberId}`;
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <Heading id={headingId} className="text-base font-semibold text-brand-900">
        Payment reminders
      </Heading>
      <Loaded answer={answer} what="payment reminders">
        {(data) => (
          <>
            {!data.hasEmail ? (
              <p className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                <MailX className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                No e-mail address on file: this member gets no reminders. Add one with Edit.
              </p>
            ) : null}
            {!data.enabled ? <p className="text-sm text-slate-600">This site sends no reminders: mail is not configured.</p> : null}
            {data.reminders.length === 0 ? (
              <p className="text-sm text-slate-600">No reminders yet.</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" data-testid="reminder-mails">
                {data.reminders.map((r) => (
                  <li key={r.id} className="flex flex-col gap-1 px-3 py-2 text-sm sm:flex-row sm:items-start sm:gap-3">
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold text-slate-900">
                        {r.label} <span className="font-normal text-slate-600">({r.about})</span>
                      </p>
                      <p className="break-words text-slate-700">{detailText(r, zoned)}</p>
                    </div>
                    <span className={`inline-flex w-fit rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[r.status]}`}>
                      {statusText(r)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** Members with a plan and no e-mail address, who get no reminders (the first 100 and how many). */
export function MembersWithoutEmail() {
  const answer = useAnswer<MembersWithoutEmailAnswer>("/api/admin/membership/reminders/without-email");
  return (
    <section aria-labelledby="members-without-email" className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="members-without-email" className="text-lg font-semibold text-brand-900">
        Members without an e-mail address
      </h2>
      <p className="mt-1 text-sm text-slate-600">They have a plan but get no payment reminders until an address is added.</p>
      <div className="mt-3">
        <Loaded answer={answer} what="members without an e-mail address">
          {(data) =>
            data.total === 0 ? (
              <p className="text-sm text-slate-700">Every member with a plan has an e-mail address.</p>
            ) : (
              <>
                <p className="text-sm font-semibold text-slate-900">
                  {data.total} {data.total === 1 ? "member" : "members"}
                  {data.total > data.members.length ? `, the first ${data.members.length} shown` : ""}
                </p>
                <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
                  {data.members.map((m) => (
                    <li key={m.id}>
                      <span className="font-medium">{m.certificateNumber ?? `Member ${m.id}`}</span>
                      {m.firstName || m.lastName ? (
                        <span className="text-slate-600"> {[m.firstName, m.lastName].filter(Boolean).join(" ")}</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </Loaded>
      </div>
    </section>
  );
}
