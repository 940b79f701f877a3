import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { BadgeDollarSign, Ban, IdCard, LoaderCircle, Pencil, RotateCcw, Undo2 } from "lucide-react";
import { Modal } from "~/components/Modal";
import { FlashBanner } from "~/components/admin/Feedback";
import { useFlashMessage } from "~/components/admin/useFlashMessage";
import { errorReason } from "~/platform/json-client";
import { formatCents, formatLongDay, type CoverageState } from "../coverage";
import { BILLING_LABELS, PAYMENT_METHOD_LABELS, type MembershipView, type PaymentView, type TermEventView } from "../contract";
import type { CoInsuredInput } from "../co-insured";
import { leftOfPayment } from "../ledger";
import { membershipApi, type ReinstateBody } from "./api-client";
import { MembershipForms, RECORD_PAYMENT_ID, type MembershipForm } from "./MembershipDialogs";
import { CoInsuredActions, CoInsuredForms, coInsuredRows, noCoInsuredText } from "./CoInsured";
import { ReminderMails } from "./ReminderMails";

/** The member a membership dialog is about. */
export interface MembershipMember {
  id: number;
  certificate: string;
  name: string;
}

/** Record payment: a payment is recorded against a plan, so a member without one is given one first. */
const paymentForm = (view: MembershipView): MembershipForm => (view.plan ? { kind: "payment" } : { kind: "plan", beforePayment: true });

/** Opens a member's membership; `payment` opens the Record payment form over it at once. */
export type OpenMembership = (member: MembershipMember, payment: boolean) => void;

/** The row's two membership actions: the membership itself, and Record payment. */
export function MembershipRowActions({
  member,
  onOpen,
  disabled,
}: {
  member: MembershipMember;
  onOpen: OpenMembership;
  disabled?: boolean;
}) {
  return (
    <>
      <button
        type="button"
        className="btn-ghost px-2.5"
        onClick={() => onOpen(member, false)}
        disabled={disabled}
        aria-label={`Membership ${member.certificate}`}
      >
        <IdCard className="h-4 w-4" aria-hidden />
        <span aria-hidden>Membership</span>
      </button>
      <button
        type="button"
        className="btn-ghost px-2.5"
        onClick={() => onOpen(member, true)}
        disabled={disabled}
        aria-label={`Record payment ${member.certificate}`}
      >
        <BadgeDollarSign className="h-4 w-4" aria-hidden />
        <span aria-hidden>Record payment</span>
      </button>
    </>
  );
}

const STATE_STYLES: Record<CoverageState["kind"], string> = {
  "no-plan": "bg-slate-100 text-slate-800",
  "awaiting-first-payment": "bg-amber-100 text-amber-900",
  starts: "bg-sky-100 text-sky-900",
  covered: "bg-green-100 text-green-900",
  "past-due": "bg-amber-100 text-amber-900",
  lapsed: "bg-red-100 text-red-900",
  cancelled: "bg-red-100 text-red-900",
};

const day = (value: string | null | undefined, none = "Not yet") => (value ? formatLongDay(value) : none);

/**
 * A member's membership for staff: the plan, the dates computed from it (status, coverage
 * effective, paid through, next payment due), the payments with their refunds, and the
 * cancellations. Any admin records payments and refunds and sets the plan; only a super_admin
 * is offered Cancel and Reinstate (the API refuses anyone else).
 */
export function MembershipDialog({
  member,
  startWithPayment,
  superAdmin,
  onClose,
  onChanged,
}: {
  member: MembershipMember | null;
  startWithPayment: boolean;
  superAdmin: boolean;
  onClose: () => void;
  /** A change was saved (the list may show the member's status). */
  onChanged: () => void;
}) {
  const [loaded, setLoaded] = useState<{ id: number; view: MembershipView } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [form, setForm] = useState<MembershipForm | null>(null);
  const [highlight, setHighlight] = useState<number | null>(null);
  const { flash, show, clear } = useFlashMessage();
  // The Record payment form opened from the row: closing it unsaved closes the membership too.
  const fromRow = useRef(false);
  const memberId = member?.id ?? null;
  // Each opening loads afresh: what an earlier opening showed (and the forms' amounts and days
  // taken from it) may be out of date.
  const [openedFor, setOpenedFor] = useState(memberId);
  if (openedFor !== memberId) {
    setOpenedFor(memberId);
    setLoaded(null);
  }
  const view = loaded && loaded.id === memberId ? loaded.view : null;

  useEffect(() => {
    setForm(null);
    setHighlight(null);
    setFailed(null);
    clear();
    fromRow.current = false;
  }, [memberId, clear]);

  useEffect(() => {
    if (memberId === null) return;
    const controller = new AbortController();
    membershipApi
      .view(memberId, controller.signal)
      .then((answer) => {
        if (controller.signal.aborted) return;
        setLoaded({ id: memberId, view: answer });
        setFailed(null);
      })
      .catch((err) => {
        if (!controller.signal.aborted) setFailed(errorReason(err));
      });
    return () => controller.abort();
  }, [memberId, reload]);

  // Record payment from the row: the form opens over the membership once it has loaded (its
  // amount and day come from it), so what it records shows under it at once.
  const wantsPayment = useRef(false);
  useEffect(() => {
    wantsPayment.current = startWithPayment;
  }, [member, startWithPayment]);
  useEffect(() => {
    if (view && wantsPayment.current) {
      wantsPayment.current = false;
      fromRow.current = true;
      setForm(paymentForm(view));
    }
  }, [view]);

  const api = useMemo(
    () =>
      memberId === null
        ? null
        : {
            recordPayment: (body: { amount: string; paidOn: string; method: string; reference: string | null }) =>
              membershipApi.recordPayment(memberId, body as Parameters<typeof membershipApi.recordPayment>[1]),
            setPlan: (body: Record<string, unknown>) =>
              membershipApi.setPlan(memberId, body as Parameters<typeof membershipApi.setPlan>[1]),
            refund: membershipApi.refund,
            cancel: (body: { cancelledOn: string; reason: string }) => membershipApi.cancel(memberId, body),
            reinstate: (body: ReinstateBody) => membershipApi.reinstate(memberId, body),
            coInsured: {
              set: (body: CoInsuredInput) => membershipApi.setCoInsured(memberId, body),
              remove: () => membershipApi.removeCoInsured(memberId),
            },
          },
    [memberId],
  );

  function open(next: MembershipForm) {
    fromRow.current = false;
    setForm(next);
  }

  const state = view?.coverage.state.kind;
  return (
    <Modal
      open={member !== null}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title={member ? `Membership of ${member.name || member.certificate}` : ""}
      description={member ? `Certificate number ${member.certificate}` : undefined}
    >
      {member && api ? (
        <div data-testid="membership" aria-busy={!view && !failed}>
          <FlashBanner flash={flash} onDismiss={clear} testId="membership-message" />
          {!view ? (
            failed ? (
              <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
                <p>The membership could not be loaded: {failed}</p>
                <button type="button" className="btn-outline mt-3" onClick={() => setReload((n) => n + 1)}>
                  Try again
                </button>
              </div>
            ) : (
              <p className="flex items-center gap-2 text-sm text-slate-600">
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                Loading membership...
              </p>
            )
          ) : (
            <div className="space-y-6">
              <div className="flex flex-wrap items-center gap-3">
                <span className="text-sm font-medium text-slate-600">Status</span>
                <span
                  data-testid="membership-status"
                  className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ${STATE_STYLES[view.coverage.state.kind]}`}
                >
                  {view.coverage.label}
                </span>
              </div>

              <div className="grid gap-6 md:grid-cols-2">
                <Section
                  title="Plan"
                  action={
                    <button type="button" className="btn-outline" onClick={() => open({ kind: "plan" })}>
                      <Pencil className="h-4 w-4" aria-hidden />
                      {view.plan ? "Change plan" : "Give plan"}
                    </button>
                  }
                >
                  {view.plan ? (
                    <Facts
                      testId="membership-plan"
                      rows={[
                        ["Billing", BILLING_LABELS[view.plan.billing]],
                        ["Coverage amount", view.plan.coverageCents === null ? "Not given" : formatCents(view.plan.coverageCents)],
                        [
                          "Beneficiary",
                          view.plan.beneficiaryName
                            ? `${view.plan.beneficiaryName}${view.plan.beneficiaryRelationship ? ` (${view.plan.beneficiaryRelationship})` : ""}`
                            : "Not given",
                        ],
                        ["Approved on", day(view.plan.approvedOn, "Not given")],
                        ...(view.plan.carriedPaidThrough
                          ? ([["Paid through when imported", day(view.plan.carriedPaidThrough)]] as [string, string][])
                          : []),
                      ]}
                    />
                  ) : (
                    <p className="text-sm text-slate-600">No plan on record. Give the member a plan before recording payments.</p>
                  )}
                </Section>
                <Section title="Dates">
                  <Facts
                    testId="membership-dates"
                    rows={[
                      ["Status", view.coverage.label],
                      ["Coverage effective", day(view.coverage.effectiveOn, view.coverage.paidThrough ? "Carried over" : "Not yet")],
                      ["Paid through", day(view.coverage.paidThrough)],
                      [
                        "Next payment due",
                        view.coverage.nextDue
                          ? `${formatCents(view.coverage.nextDue.amountCents)} on ${formatLongDay(view.coverage.nextDue.on)}`
                          : "None",
                      ],
                    ]}
                  />
                </Section>
                <Section title="Co-insured" action={<CoInsuredActions view={view} onOpen={open} />}>
                  {view.coInsured ? (
                    <Facts testId="membership-co-insured" rows={coInsuredRows(view.coInsured)} />
                  ) : (
                    <p className="text-sm text-slate-600">{noCoInsuredText(view)}</p>
                  )}
                </Section>
              </div>

              <Section
                title="Payments"
                action={
                  <button id={RECORD_PAYMENT_ID} type="button" className="btn-primary" onClick={() => open(paymentForm(view))}>
                    <BadgeDollarSign className="h-4 w-4" aria-hidden />
                    Record payment
                  </button>
                }
              >
                <PaymentHistory
                  payments={view.payments}
                  events={view.events}
                  highlight={highlight}
                  onRefund={(payment) => open({ kind: "refund", payment })}
                />
              </Section>

              {superAdmin || view.events.length ? (
                <Section
                  title="Cancellation"
                  action={
                    superAdmin && view.plan ? (
                      state === "cancelled" ? (
                        <button type="button" className="btn-outline" onClick={() => open({ kind: "reinstate" })}>
                          <RotateCcw className="h-4 w-4" aria-hidden />
                          Reinstate
                        </button>
                      ) : (
                        <button type="button" className="btn-outline text-red-700 hover:bg-red-50" onClick={() => open({ kind: "cancel" })}>
                          <Ban className="h-4 w-4" aria-hidden />
                          Cancel membership
                        </button>
                      )
                    ) : null
                  }
                >
                  {view.events.length ? (
                    <ul className="space-y-1 text-sm" data-testid="membership-events">
                      {view.events.map((e) => (
                        <li key={e.id}>
                          <span className="font-semibold">{e.kind === "cancelled" ? "Cancelled" : "Reinstated"}</span> on{" "}
                          {formatLongDay(e.on)}
                          {e.reason ? `: ${e.reason}` : ""}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-slate-600">Never cancelled.</p>
                  )}
                </Section>
              ) : null}

              <div className="rounded-lg border border-slate-200 p-4">
                <ReminderMails memberId={member.id} />
              </div>
            </div>
          )}
          <MembershipForms
            form={form}
            view={view}
            certificate={member.certificate}
            memberName={member.name.trim().split(/\s+/)[0] || member.certificate}
            api={api}
            onClose={() => {
              setForm(null);
              if (fromRow.current) onClose();
            }}
            onDone={(next, message, paymentId) => {
              // A plan given for Record payment: the payment's form follows.
              const thenPayment = form?.kind === "plan" && form.beforePayment === true && next.plan !== null;
              if (!thenPayment) fromRow.current = false;
              setLoaded({ id: member.id, view: next });
              setForm(thenPayment ? { kind: "payment" } : null);
              setHighlight(paymentId ?? null);
              show("success", message);
              onChanged();
            }}
          />
          <CoInsuredForms
            form={form}
            view={view}
            certificate={member.certificate}
            api={api.coInsured}
            onClose={() => setForm(null)}
            onDone={(next, message) => {
              setLoaded({ id: member.id, view: next });
              setForm(null);
              setHighlight(null);
              show("success", message);
              onChanged();
            }}
          />
        </div>
      ) : null}
    </Modal>
  );
}

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 p-4" aria-label={title}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-brand-900">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}

function Facts({ rows, testId }: { rows: [string, string][]; testId: string }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[minmax(0,10rem)_1fr] sm:gap-y-2" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="mb-2 text-slate-900 sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Payments and refunds, oldest first; a refund sits under the payment it pays back. */
function PaymentHistory({
  payments,
  events,
  highlight,
  onRefund,
}: {
  payments: PaymentView[];
  events: TermEventView[];
  highlight: number | null;
  onRefund: (payment: PaymentView) => void;
}) {
  if (!payments.length) return <p className="text-sm text-slate-600">No payments recorded yet.</p>;
  const byId = new Map(payments.map((p) => [p.id, p]));
  const reinstatedOn = new Map(events.map((e) => [e.id, e.on]));
  return (
    <ul className="divide-y divide-slate-200" data-testid="payment-history">
      {payments.map((p) => {
        const from = p.refundOf === null ? null : byId.get(p.refundOf);
        const ofPayment = from ? `the payment of ${formatLongDay(from.paidOn)}` : "a payment";
        const isNew = p.id === highlight;
        const left = leftOfPayment(p, payments);
        const carriedOn = p.carriedWith === null ? undefined : reinstatedOn.get(p.carriedWith);
        const term = carriedOn ? `the term reinstated on ${formatLongDay(carriedOn)}` : "the new term";
        return (
          <li
            key={p.id}
            data-testid="payment"
            data-new={isNew || undefined}
            className={`flex flex-wrap items-center gap-x-4 gap-y-1 py-2.5 text-sm ${isNew ? "-mx-2 rounded-md bg-green-50 px-2" : ""}`}
          >
            <span className="w-36 font-medium text-slate-900">{formatLongDay(p.paidOn)}</span>
            <span className={`w-24 font-semibold ${p.amountCents < 0 ? "text-red-800" : "text-slate-900"}`}>
              {formatCents(p.amountCents)}
            </span>
            {p.carriedWith !== null ? (
              <span className="min-w-48 flex-1 text-slate-700">
                {p.refundOf !== null ? `Carried out of ${ofPayment} into ${term}` : `Carried from the earlier term into ${term}`}
              </span>
            ) : p.refundOf !== null ? (
              <span className="min-w-48 flex-1 text-slate-700">
                Refund of {ofPayment}
                {p.note ? `: ${p.note}` : ""}
              </span>
            ) : (
              <span className="min-w-48 flex-1 text-slate-700">
                {PAYMENT_METHOD_LABELS[p.method]}
                {p.reference ? <span className="ml-2 font-mono text-xs text-slate-600">{p.reference}</span> : null}
              </span>
            )}
            {isNew ? (
              <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">Just recorded</span>
            ) : null}
            {p.refundOf === null && p.refundedCents > 0 ? (
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700" data-testid="payment-refunded">
                {p.refundedCents >= p.amountCents
                  ? "Refunded"
                  : `${formatCents(p.refundedCents)} of ${formatCents(p.amountCents)} refunded`}
              </span>
            ) : null}
            {p.refundOf === null && p.carriedOutCents > 0 ? (
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
                {formatCents(p.carriedOutCents)} carried into the new term
              </span>
            ) : null}
            {left > 0 ? (
              <button
                type="button"
                className="btn-ghost px-2.5"
                onClick={() => onRefund(p)}
                aria-label={`Refund the payment of ${formatLongDay(p.paidOn)}${p.reference ? ` (${p.reference})` : ""}`}
              >
                <Undo2 className="h-4 w-4" aria-hidden />
                <span aria-hidden>Refund</span>
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
