import { useEffect, useMemo, useState } from "react";
import { BadgeDollarSign, Ban, RotateCcw, Save, Undo2 } from "lucide-react";
import { FormDialog } from "~/components/admin/FormDialog";
import { ConfirmDialog } from "~/components/admin/Feedback";
import { Field, FieldError, inputProps, selectProps, textareaProps } from "~/components/forms/FormParts";
import { isIsoDate } from "~/platform/dates";
import { ApiError, errorReason } from "~/platform/json-client";
import { formatCents, formatLongDay } from "../coverage";
import {
  BILLING_LABELS,
  MEMBERSHIP_MESSAGES as M,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  cancelSchema,
  paymentSchemaOn,
  planSchemaOn,
  refundSchemaOn,
  reinstateSchemaOn,
  type EarlierPayments,
  type MembershipAnswer,
  type MembershipView,
  type PaymentView,
} from "../contract";
import { BILLINGS, type Coverage } from "../coverage";
import { leftOfPayment, refundEffectText, refundOutcome, reinstatementPreview, unusedMonthsRefund } from "../ledger";
import type { ReinstateBody } from "./api-client";

/** The membership's own Record payment button, where the focus returns when a form's opener is gone. */
export const RECORD_PAYMENT_ID = "membership-record-payment";

/** Cents back to the dollars the API reads ("19.95"): the forms hand over checked values in cents. */
export const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The form open over the membership: one at a time. */
export type MembershipForm =
  | { kind: "payment" }
  /** `beforePayment`: asked for by Record payment on a member without a plan; the payment's form follows. */
  | { kind: "plan"; beforePayment?: boolean }
  | { kind: "refund"; payment: PaymentView }
  | { kind: "cancel" }
  | { kind: "reinstate" }
  // CoInsured.tsx
  | { kind: "co-insured" }
  | { kind: "remove-co-insured" };

/** The cancellation dialogs' way out that changes nothing: beside "Cancel membership", "Cancel" would read as doing it. */
export const KEEP_MEMBERSHIP = "Keep membership";

/** A change waiting for its confirmation. */
interface Pending {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel?: string;
  busyLabel: string;
  run: () => Promise<MembershipAnswer>;
  done: (view: MembershipView) => string;
}

/** What the forms report back: the new membership and the message to show with it. */
export interface FormsProps {
  form: MembershipForm | null;
  view: MembershipView | null;
  certificate: string;
  /** The member's first name, or the certificate number: what the refund's confirmation calls them. */
  memberName: string;
  api: {
    recordPayment: (body: { amount: string; paidOn: string; method: string; reference: string | null }) => Promise<MembershipAnswer>;
    setPlan: (body: Record<string, unknown>) => Promise<MembershipAnswer>;
    refund: (paymentId: number, body: { amount: string | null; refundedOn: string; reason: string }) => Promise<MembershipAnswer>;
    cancel: (body: { cancelledOn: string; reason: string }) => Promise<MembershipAnswer>;
    reinstate: (body: ReinstateBody) => Promise<MembershipAnswer>;
  };
  onClose: () => void;
  onDone: (view: MembershipView, message: string, paymentId?: number) => void;
}

export function serverFieldErrors(err: unknown): Record<string, string> | null {
  const details = err instanceof ApiError ? err.body?.details : undefined;
  if (!details || typeof details !== "object") return null;
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(details)) if (typeof message === "string") out[name] = message;
  return Object.keys(out).length ? out : null;
}

const newestPaymentId = (view: MembershipView) => view.payments.reduce((max, p) => Math.max(max, p.id), 0);

/**
 * The dialogs that change a membership: Record payment, the plan, a refund, cancellation and
 * reinstatement. A refund, a cancellation and a reinstatement are confirmed before they are
 * sent; the server's refusal stays in the open form, by the field it is about.
 */
export function MembershipForms({ form, view, certificate, memberName, api, onClose, onDone }: FormsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string> | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const formKind = form?.kind ?? null;
  useEffect(() => {
    setError(null);
    setFieldErrors(null);
    setPending(null);
  }, [form]);

  async function send(run: () => Promise<MembershipAnswer>, done: (view: MembershipView) => string, highlight = false) {
    setBusy(true);
    setError(null);
    setFieldErrors(null);
    try {
      const answer = await run();
      setPending(null);
      onDone(answer, done(answer), highlight ? newestPaymentId(answer) : undefined);
    } catch (err) {
      setPending(null);
      setError(errorReason(err));
      setFieldErrors(serverFieldErrors(err));
    } finally {
      setBusy(false);
    }
  }

  const today = view?.today ?? "";
  // A refunded payment's Refund button is gone when its dialog closes: the focus goes to Record payment.
  // While its confirmation is open a form stays: the second press of a double click on Refund
  // came before the confirmation took the clicks, landed beside the form and closed it (and the
  // confirmation with it), losing what was typed (issue 48).
  const common = {
    busy,
    error,
    fieldErrors,
    onClose: () => pending === null && onClose(),
    returnFocus: () => document.getElementById(RECORD_PAYMENT_ID),
  };

  // The payment being refunded and what is left of it: more than that is refused by its field
  // before a confirmation is asked (the server decides again, with the payment locked).
  const refunding =
    form?.kind === "refund" && view
      ? {
          payment: form.payment,
          left: leftOfPayment(form.payment, view.payments),
          // Refund the unused months: what keeps the member covered to the end of this month (ledger.ts).
          unused: view.today ? unusedMonthsRefund(view, form.payment, view.today) : null,
        }
      : null;
  const refundLeft = refunding?.left ?? null;
  const refundWhole = refunding?.left === refunding?.payment.amountCents;
  // The days' ranges are the server's, on the association's today (the view's).
  const on = today || null;
  const dayForms = useMemo(
    () => ({ payment: paymentSchemaOn(on), plan: planSchemaOn(on), refund: refundSchemaOn(on), reinstate: reinstateSchemaOn(on) }),
    [on],
  );
  const refundForm = useMemo(
    () =>
      refundLeft === null
        ? dayForms.refund
        : dayForms.refund.extend({
            amount: dayForms.refund.shape.amount.refine(
              (cents) => cents === null || cents <= refundLeft,
              refundWhole ? M.refundTooMuch : M.refundMoreThanLeft(formatCents(refundLeft)),
            ),
          }),
    [refundLeft, refundWhole, dayForms],
  );
  // Money left from the earlier term needs staff's choice, asked by its field before the confirmation.
  const reinstateForm = useMemo(
    () =>
      dayForms.reinstate.superRefine((value, ctx) => {
        const left = view ? (reinstatementPreview(view, value.reinstatedOn, today)?.left.leftCents ?? 0) : 0;
        if (left > 0 && !value.earlierPayments)
          ctx.addIssue({ code: "custom", path: ["earlierPayments"], message: M.earlierPayments(formatCents(left)) });
      }),
    [view, today, dayForms],
  );

  return (
    <>
      <FormDialog
        {...common}
        open={formKind === "payment"}
        title="Record payment"
        description={`Certificate number ${certificate}. A payment is never edited: a mistake is paid back with a refund.`}
        schema={dayForms.payment}
        defaultValue={{
          amount: view?.coverage.nextDue ? dollars(view.coverage.nextDue.amountCents) : "",
          paidOn: today,
          method: "",
          reference: "",
        }}
        submitLabel="Record payment"
        busyLabel="Recording..."
        submitIcon={<BadgeDollarSign className="h-4 w-4" aria-hidden />}
        onSubmit={(data) =>
          void send(
            () => api.recordPayment({ amount: dollars(data.amount), paidOn: data.paidOn, method: data.method, reference: data.reference }),
            (v) => `Payment of ${formatCents(data.amount)} recorded. Status: ${v.coverage.label}.`,
            true,
          )
        }
      >
        {(fields) => (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <DollarsField meta={fields.amount} label="Amount" required hint="In dollars, like 19.95" />
              <Field meta={fields.paidOn} label="Paid on" required>
                <input {...inputProps(fields.paidOn, { type: "date" })} className="field-input" />
              </Field>
            </div>
            <Field meta={fields.method} label="Method" required>
              <select {...selectProps(fields.method)} className="field-input">
                <option value="">Choose how it was paid</option>
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {PAYMENT_METHOD_LABELS[m]}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              meta={fields.reference}
              label="Reference"
              optional
              hint="The portal's transaction id or the check number. Each is recorded once."
            >
              {({ ariaDescribedBy }) => (
                <input {...inputProps(fields.reference, { type: "text", ariaDescribedBy })} className="field-input" autoComplete="off" />
              )}
            </Field>
          </>
        )}
      </FormDialog>

      <FormDialog
        {...common}
        open={formKind === "plan"}
        title={view?.plan ? "Change plan" : "Give plan"}
        description={
          form?.kind === "plan" && form.beforePayment
            ? `Certificate number ${certificate}. A payment is recorded against a plan, and this member has none yet: give one, then record the payment.`
            : `Certificate number ${certificate}`
        }
        schema={dayForms.plan}
        defaultValue={{
          billing: view?.plan?.billing ?? "",
          coverageAmount: view?.plan?.coverageCents != null ? dollars(view.plan.coverageCents) : "",
          beneficiaryName: view?.plan?.beneficiaryName ?? "",
          beneficiaryRelationship: view?.plan?.beneficiaryRelationship ?? "",
          approvedOn: view?.plan?.approvedOn ?? today,
        }}
        submitLabel="Save plan"
        busyLabel="Saving..."
        submitIcon={<Save className="h-4 w-4" aria-hidden />}
        onSubmit={(data) =>
          void send(
            () =>
              api.setPlan({
                ...data,
                coverageAmount: data.coverageAmount === null ? null : dollars(data.coverageAmount),
              }),
            (v) => `Plan saved. Status: ${v.coverage.label}.`,
          )
        }
      >
        {(fields) => (
          <>
            <Field meta={fields.billing} label="Billing" required>
              <select {...selectProps(fields.billing)} className="field-input">
                <option value="">Choose monthly or annual</option>
                {BILLINGS.map((b) => (
                  <option key={b} value={b}>
                    {BILLING_LABELS[b]}
                  </option>
                ))}
              </select>
            </Field>
            <DollarsField meta={fields.coverageAmount} label="Coverage amount" optional hint="In dollars, like 250000" />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field meta={fields.beneficiaryName} label="Beneficiary" optional>
                <input {...inputProps(fields.beneficiaryName, { type: "text" })} className="field-input" autoComplete="off" />
              </Field>
              <Field meta={fields.beneficiaryRelationship} label="Relationship" optional>
                <input {...inputProps(fields.beneficiaryRelationship, { type: "text" })} className="field-input" autoComplete="off" />
              </Field>
            </div>
            <Field
              meta={fields.approvedOn}
              label="Approved on"
              required
              hint="Coverage starts the 1st of the month after this day and the first payment."
            >
              {({ ariaDescribedBy }) => (
                <input {...inputProps(fields.approvedOn, { type: "date", ariaDescribedBy })} className="field-input" />
              )}
            </Field>
          </>
        )}
      </FormDialog>

      <FormDialog
        {...common}
        open={formKind === "refund"}
        title="Refund payment"
        description={
          refunding
            ? `${formatCents(refunding.payment.amountCents)} paid on ${formatLongDay(refunding.payment.paidOn)}${refunding.payment.reference ? ` (${refunding.payment.reference})` : ""}.${
                refunding.left < refunding.payment.amountCents ? ` ${formatCents(refunding.left)} of it is left to refund.` : ""
              }`
            : undefined
        }
        schema={refundForm}
        defaultValue={{ amount: "", refundedOn: today, reason: "" }}
        submitLabel="Refund"
        busyLabel="Refunding..."
        submitIcon={<Undo2 className="h-4 w-4" aria-hidden />}
        onSubmit={(data) => {
          if (!refunding) return;
          const { payment, left } = refunding;
          const cents = data.amount ?? left;
          const rest = left - cents;
          // What it does to the membership, by the same rule (issue 48: a partial refund ended a paid member's coverage unsaid).
          const { before, after } = refundOutcome(view!, payment, cents, data.refundedOn, today);
          setPending({
            title: "Confirm refund",
            text: `Refund ${formatCents(cents)} of the payment of ${formatLongDay(payment.paidOn)}? ${refundEffectText(memberName, before, after, today)}${rest > 0 ? ` ${formatCents(rest)} of it stays refundable.` : ""} The refund is recorded for good: it cannot be edited or removed.`,
            confirmLabel: "Refund",
            busyLabel: "Refunding...",
            run: () =>
              api.refund(payment.id, {
                amount: data.amount === null ? null : dollars(data.amount),
                refundedOn: data.refundedOn,
                reason: data.reason,
              }),
            done: (v) => `Refund of ${formatCents(cents)} recorded. Status: ${v.coverage.label}.`,
          });
        }}
      >
        {(fields, refundFormState) => (
          <>
            {refunding ? (
              <UnusedMonths
                name={memberName}
                unused={refunding.unused}
                billing={view?.plan?.billing ?? null}
                onChoose={(cents) => refundFormState.update({ name: fields.amount.name, value: dollars(cents) })}
              />
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <DollarsField
                meta={fields.amount}
                label="Amount"
                optional
                hint={
                  refunding && refunding.left < refunding.payment.amountCents
                    ? `Blank refunds the ${formatCents(refunding.left)} left`
                    : "Blank refunds the whole payment"
                }
              />
              <Field meta={fields.refundedOn} label="Refunded on" required>
                <input {...inputProps(fields.refundedOn, { type: "date" })} className="field-input" />
              </Field>
            </div>
            <Field meta={fields.reason} label="Reason" required>
              <textarea {...textareaProps(fields.reason)} rows={2} className="field-input" />
            </Field>
          </>
        )}
      </FormDialog>

      <FormDialog
        {...common}
        open={formKind === "cancel"}
        title="Cancel membership"
        description={`Certificate number ${certificate}. The member's proof-of-coverage card stops verifying.`}
        schema={cancelSchema}
        defaultValue={{ cancelledOn: today, reason: "" }}
        submitLabel="Cancel membership"
        busyLabel="Cancelling..."
        cancelLabel={KEEP_MEMBERSHIP}
        submitIcon={<Ban className="h-4 w-4" aria-hidden />}
        onSubmit={(data) =>
          setPending({
            title: "Confirm cancellation",
            text: `Cancel the membership of ${certificate} as of ${formatLongDay(data.cancelledOn)}? Coverage ends then; a super admin can reinstate it later.`,
            confirmLabel: "Cancel membership",
            cancelLabel: KEEP_MEMBERSHIP,
            busyLabel: "Cancelling...",
            run: () => api.cancel({ cancelledOn: data.cancelledOn, reason: data.reason }),
            done: (v) => `Membership cancelled. Status: ${v.coverage.label}.`,
          })
        }
      >
        {(fields) => (
          <>
            <Field meta={fields.cancelledOn} label="Cancelled on" required>
              <input {...inputProps(fields.cancelledOn, { type: "date" })} className="field-input" />
            </Field>
            <Field meta={fields.reason} label="Reason" required>
              <textarea {...textareaProps(fields.reason)} rows={2} className="field-input" />
            </Field>
          </>
        )}
      </FormDialog>

      <FormDialog
        {...common}
        open={formKind === "reinstate"}
        title="Reinstate membership"
        description={`Certificate number ${certificate}. A new term starts: coverage is effective the 1st of the month after this day and the first payment received from it.`}
        schema={reinstateForm}
        defaultValue={{ reinstatedOn: today, reason: "", earlierPayments: "" }}
        submitLabel="Reinstate"
        busyLabel="Reinstating..."
        submitIcon={<RotateCcw className="h-4 w-4" aria-hidden />}
        onSubmit={(data) => {
          const preview = view ? reinstatementPreview(view, data.reinstatedOn, today) : null;
          const left = preview?.left.leftCents ?? 0;
          const choice = left > 0 ? (data.earlierPayments ?? null) : null;
          const money = choice ? ` ${EARLIER_CHOICES[choice].confirm(formatCents(left))} ${outcomeText(preview!.outcomes[choice])}` : "";
          setPending({
            title: "Confirm reinstatement",
            text: `Reinstate the membership of ${certificate} as of ${formatLongDay(data.reinstatedOn)}?${money}`,
            confirmLabel: "Reinstate",
            busyLabel: "Reinstating...",
            run: () => api.reinstate({ reinstatedOn: data.reinstatedOn, reason: data.reason, earlierPayments: choice }),
            done: (v) =>
              `Membership reinstated.${choice ? ` ${EARLIER_CHOICES[choice].done(formatCents(left))}` : ""} Status: ${v.coverage.label}.`,
          });
        }}
      >
        {(fields) => (
          <>
            <Field meta={fields.reinstatedOn} label="Reinstated on" required>
              <input {...inputProps(fields.reinstatedOn, { type: "date" })} className="field-input" />
            </Field>
            {view ? (
              <EarlierTermMoney
                view={view}
                today={today}
                reinstatedOn={typeof fields.reinstatedOn.value === "string" ? fields.reinstatedOn.value : undefined}
                meta={fields.earlierPayments}
              />
            ) : null}
            <Field meta={fields.reason} label="Reason" optional>
              <textarea {...textareaProps(fields.reason)} rows={2} className="field-input" />
            </Field>
          </>
        )}
      </FormDialog>

      <ConfirmDialog
        open={pending !== null}
        title={pending?.title ?? ""}
        confirmLabel={pending?.confirmLabel ?? ""}
        cancelLabel={pending?.cancelLabel}
        busyLabel={pending?.busyLabel ?? ""}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void send(pending.run, pending.done)}
      >
        <p>{pending?.text}</p>
      </ConfirmDialog>
    </>
  );
}

/**
 * Refund the unused months: the amount that keeps the member covered to the end of this month
 * (ledger.ts, unusedMonthsRefund), put in the Amount field; or why there is none.
 */
function UnusedMonths({
  name,
  unused,
  billing,
  onChoose,
}: {
  name: string;
  unused: number | null;
  billing: MembershipView["coverage"]["billing"];
  onChoose: (cents: number) => void;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm" data-testid="unused-months">
      {unused !== null ? (
        <>
          <p className="text-slate-700">
            {formatCents(unused)} of it pays for coverage after this month: refunded, {name} stays covered to the end of this month.
          </p>
          <button type="button" className="btn-outline mt-2 px-3 py-1 text-sm" onClick={() => onChoose(unused)}>
            Refund the unused months
          </button>
        </>
      ) : (
        <p className="text-slate-700">
          No part of it can be refunded without ending {name}&apos;s coverage this month
          {billing === "annual" ? ": a year of dues is paid whole." : "."}
        </p>
      )}
    </div>
  );
}

/** An amount of money typed in dollars: a text field with the decimal keyboard on phones. */
function DollarsField({
  meta,
  label,
  hint,
  optional,
  required,
}: {
  meta: Parameters<typeof inputProps>[0];
  label: string;
  hint: string;
  optional?: boolean;
  required?: boolean;
}) {
  return (
    <Field meta={meta} label={label} optional={optional} required={required} hint={hint}>
      {({ ariaDescribedBy }) => (
        <input {...inputProps(meta, { type: "text", ariaDescribedBy })} inputMode="decimal" className="field-input" autoComplete="off" />
      )}
    </Field>
  );
}

/** The two things a reinstatement can do with money left from the earlier term, as staff read them. */
const EARLIER_CHOICES: Record<EarlierPayments, { label: string; confirm: (left: string) => string; done: (left: string) => string }> = {
  carry: {
    label: "Carry it into the new term",
    confirm: (left) => `The ${left} left from the earlier term is carried into the new term.`,
    done: (left) => `${left} carried into the new term.`,
  },
  refund: {
    label: "Refund it to the member",
    confirm: (left) => `The ${left} left from the earlier term is refunded to the member, recorded as refunds of its payments.`,
    done: (left) => `${left} refunded.`,
  },
};

/** What the new term's coverage would be: its dates by the rule, or what it still awaits. */
function outcomeText(coverage: Coverage): string {
  if (coverage.paidThrough && coverage.effectiveOn)
    return `Coverage effective ${formatLongDay(coverage.effectiveOn)}, paid through ${formatLongDay(coverage.paidThrough)}.`;
  if (coverage.nextDue)
    return coverage.creditCents > 0
      ? `The new term awaits ${formatCents(coverage.nextDue.amountCents)} more to complete its first payment.`
      : `The new term awaits its first payment of ${formatCents(coverage.nextDue.amountCents)}: coverage begins the 1st of the month after it.`;
  return `Status: ${coverage.label}.`;
}

/**
 * The Reinstate form's account of the earlier term's money on the day typed: what was paid,
 * what the coverage that began before the cancellation used, and what is left, with the choice
 * to carry it or refund it and the coverage either gives (the rule of coverage.ts).
 */
function EarlierTermMoney({
  view,
  today,
  reinstatedOn,
  meta,
}: {
  view: MembershipView;
  today: string;
  reinstatedOn: string | undefined;
  meta: Parameters<typeof inputProps>[0] & { errors: string[] | undefined; errorId: string };
}) {
  const preview = reinstatedOn && isIsoDate(reinstatedOn) ? reinstatementPreview(view, reinstatedOn, today) : null;
  if (!preview) return null;
  const { left } = preview;
  const months = (n: number) => `${n} ${view.plan?.billing === "annual" ? (n === 1 ? "year" : "years") : n === 1 ? "month" : "months"}`;
  const error = meta.errors?.[0];
  return (
    <fieldset
      className="rounded-lg border border-slate-200 p-4 text-sm"
      data-testid="earlier-term-money"
      aria-describedby={error ? meta.errorId : undefined}
    >
      <legend className="px-1 font-semibold text-brand-900">Money paid in the earlier term</legend>
      <p className="text-slate-700">
        {left.paidCents === 0
          ? "Nothing was paid in the earlier term: the new term starts unpaid."
          : `${formatCents(left.paidCents)} paid. ${
              left.usedPeriods
                ? `${formatCents(left.usedCents)} went to the ${months(left.usedPeriods)} of coverage begun before the cancellation on ${formatLongDay(left.cancelledOn)}`
                : `No coverage began before the cancellation on ${formatLongDay(left.cancelledOn)}`
            }; ${left.leftCents ? `${formatCents(left.leftCents)} is left.` : "nothing is left."}`}
      </p>
      {left.leftCents > 0 ? (
        <div className="mt-3 space-y-2">
          {(["carry", "refund"] as const).map((choice) => (
            <label key={choice} className="flex cursor-pointer items-start gap-2">
              <input
                {...inputProps(meta, { type: "radio", value: choice, ariaAttributes: false })}
                id={choice === "carry" ? meta.id : undefined}
                aria-invalid={error ? true : undefined}
                className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700"
              />
              <span>
                <span className="font-medium text-slate-900">{EARLIER_CHOICES[choice].label}</span>
                <span className="block text-slate-600">{outcomeText(preview.outcomes[choice])}</span>
              </span>
            </label>
          ))}
          <FieldError meta={meta} />
        </div>
      ) : null}
    </fieldset>
  );
}
