import { CheckCircle2, UserPlus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { FormDialog } from "~/components/admin/FormDialog";
import { useAssociationTime } from "~/components/useAssociationTime";
import { usePublicConfig } from "~/components/usePublicConfig";
import { Field, inputProps, textareaProps } from "~/components/forms/FormParts";
import { ApiError, errorReason, jsonClient } from "~/platform/json-client";
import { formatCents } from "../coverage";
import { assignSchema, handledSchema, type UnmatchedPaymentsAnswer, type UnmatchedPaymentView } from "../online/contract";
import { Loaded, useAnswer } from "./ReminderMails";

const call = jsonClient();
const PATH = "/api/admin/membership/unmatched-payments";

const TYPE_LABELS: Record<string, string> = {
  "checkout.session.completed": "Checkout",
  "checkout.session.async_payment_succeeded": "Checkout",
  "invoice.paid": "Renewal",
  "charge.refunded": "Refund",
  "invoice.payment_failed": "Failed renewal",
  "customer.subscription.updated": "Autopay change",
  "customer.subscription.deleted": "Autopay ended",
};

const amountOf = (e: UnmatchedPaymentView) =>
  e.amountCents === null
    ? "—"
    : (e.currency ?? "usd").toLowerCase() === "usd"
      ? formatCents(e.amountCents)
      : `${(e.amountCents / 100).toFixed(2)} ${(e.currency ?? "").toUpperCase()}`;

/**
 * Unmatched payments (issue 40): what the payment provider told the site that matched no
 * member, or is not in USD, or is not a whole number of the plan's periods, and what still
 * waits for what it refers to. Any staff member reads the list; super_admin records a payment
 * for the member it belongs to, or marks it handled, each in the audit log.
 */
export function UnmatchedPayments({ superAdmin }: { superAdmin: boolean }) {
  const answer = useAnswer<UnmatchedPaymentsAnswer>(PATH);
  const when = useAssociationTime();
  const [acting, setActing] = useState<{ kind: "assign" | "handled"; event: UnmatchedPaymentView } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> | null } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const send = async (path: string, json: unknown, message: string) => {
    setBusy(true);
    setError(null);
    try {
      await call(path, { method: "POST", json });
      setActing(null);
      setDone(message);
      answer.retry();
    } catch (err) {
      const details =
        err instanceof ApiError && err.body?.details && typeof err.body.details === "object"
          ? (err.body.details as Record<string, string>)
          : null;
      setError({ message: errorReason(err), fields: details });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="unmatched-payments" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="unmatched-payments" className="text-lg font-semibold text-brand-900">
        Unmatched payments
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Online payments the site could not record by itself, and events waiting for the payment or checkout they refer to. Nothing here is
        attached to a member by name or e-mail.
      </p>
      {superAdmin ? null : (
        <p className="mt-2 text-sm text-slate-700" data-testid="unmatched-who">
          {UNMATCHED_WHO}
        </p>
      )}
      {done ? (
        <p role="status" className="mt-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {done}
        </p>
      ) : null}
      <div className="mt-3">
        <Loaded answer={answer} what="unmatched payments">
          {(data) =>
            data.events.length === 0 ? (
              <p className="text-sm text-slate-700">Every online payment has been recorded.</p>
            ) : (
              <>
                <p className="text-sm font-semibold text-slate-900">
                  {data.unmatched} unmatched, {data.pending} waiting
                </p>
                <ul className="mt-2 divide-y divide-slate-100 border-y border-slate-100 text-sm" aria-label="Unmatched payments">
                  {data.events.map((e) => (
                    <li
                      key={e.id}
                      className="grid gap-1 py-3 sm:grid-cols-[11rem_minmax(0,1fr)_6rem_minmax(0,2fr)_auto] sm:items-start sm:gap-3"
                    >
                      <span className="text-slate-600 sm:text-slate-900">{when(e.occurredAt)}</span>
                      <span>
                        <span className="font-medium">{TYPE_LABELS[e.type] ?? e.type}</span>
                        <span className="block break-all text-xs text-slate-500">{e.paymentId ?? e.subscriptionId ?? e.id}</span>
                        {e.member ? <span className="block text-xs text-slate-600">Member {e.member.certificateNumber}</span> : null}
                      </span>
                      <span className="font-semibold sm:font-normal">{amountOf(e)}</span>
                      <span>
                        <span
                          className={`mr-2 inline-block rounded px-1.5 py-0.5 text-xs font-semibold ${e.state === "pending" ? "bg-sky-100 text-sky-900" : "bg-amber-100 text-amber-900"}`}
                        >
                          {e.state === "pending" ? "Waiting" : "Unmatched"}
                        </span>
                        {e.reason}
                      </span>
                      {superAdmin ? (
                        <span className="mt-1 flex flex-wrap gap-2 sm:mt-0 sm:justify-end">
                          {e.assignable ? (
                            <button
                              type="button"
                              className="btn-outline px-2 py-1 text-xs"
                              onClick={() => {
                                setError(null);
                                setActing({ kind: "assign", event: e });
                              }}
                            >
                              <UserPlus className="h-4 w-4" aria-hidden />
                              Assign
                            </button>
                          ) : null}
                          <button
                            type="button"
                            className="btn-outline px-2 py-1 text-xs"
                            onClick={() => {
                              setError(null);
                              setActing({ kind: "handled", event: e });
                            }}
                          >
                            <CheckCircle2 className="h-4 w-4" aria-hidden />
                            Mark handled
                          </button>
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </Loaded>
      </div>
      <FormDialog
        open={acting?.kind === "assign"}
        title="Assign payment"
        description={acting ? `Record ${amountOf(acting.event)} for the member with this Membership ID, as a payment by card online.` : ""}
        schema={assignSchema}
        busy={busy}
        error={error?.message ?? null}
        fieldErrors={error?.fields ?? null}
        submitLabel="Record Payment"
        busyLabel="Recording..."
        onClose={() => setActing(null)}
        onSubmit={(data) =>
          acting &&
          void send(`${PATH}/${acting.event.id}/assign`, data, `Recorded ${amountOf(acting.event)} for ${data.certificateNumber}.`)
        }
      >
        {(fields) => (
          <Field meta={fields.certificateNumber} label="Membership ID" required>
            <input {...inputProps(fields.certificateNumber, { type: "text" })} className="field-input" autoComplete="off" maxLength={50} />
          </Field>
        )}
      </FormDialog>
      <FormDialog
        open={acting?.kind === "handled"}
        title="Mark handled"
        description="Nothing is recorded for a member. Say what was done (refunded in the provider's dashboard, not a dues payment...)."
        schema={handledSchema}
        busy={busy}
        error={error?.message ?? null}
        fieldErrors={error?.fields ?? null}
        submitLabel="Mark Handled"
        busyLabel="Saving..."
        onClose={() => setActing(null)}
        onSubmit={(data) => acting && void send(`${PATH}/${acting.event.id}/handled`, data, "Marked handled.")}
      >
        {(fields) => (
          <Field meta={fields.note} label="What was done" required>
            <textarea {...textareaProps(fields.note)} className="field-input" rows={3} maxLength={500} />
          </Field>
        )}
      </FormDialog>
    </section>
  );
}

/** Why a limited admin sees the list and no action on it (issue 48). */
export const UNMATCHED_WHO = "A super admin assigns these payments to their members or marks them handled.";

/**
 * The dashboard's line: how many online payments wait for staff, with a link to them (nothing
 * when none); a limited admin is told that a super admin assigns them.
 */
export function UnmatchedPaymentsCount({ superAdmin }: { superAdmin: boolean }) {
  return usePublicConfig().onlinePayments ? <UnmatchedPaymentsCountShown superAdmin={superAdmin} /> : null;
}

function UnmatchedPaymentsCountShown({ superAdmin }: { superAdmin: boolean }) {
  const answer = useAnswer<UnmatchedPaymentsAnswer>(PATH);
  const n = answer.data?.unmatched ?? 0;
  if (!n) return null;
  return (
    <p role="status" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <Link to="/admin/members?tab=unmatched" className="font-semibold underline">
        {n} unmatched online {n === 1 ? "payment" : "payments"}
      </Link>{" "}
      {superAdmin
        ? `${n === 1 ? "waits" : "wait"} for staff.`
        : `${n === 1 ? "waits" : "wait"} for a super admin to assign ${n === 1 ? "it" : "them"}.`}
    </p>
  );
}
