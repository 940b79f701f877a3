import { useEffect, useState } from "react";
import { BadgeDollarSign, Ban, RotateCcw, Save, Undo2 } from "lucide-react";
import { FormDialog } from "~/components/admin/FormDialog";
import { ConfirmDialog } from "~/components/admin/Feedback";
import { Field, inputProps, selectProps, textareaProps } from "~/components/forms/FormParts";
import { ApiError, errorReason } from "~/platform/json-client";
import { formatCents, formatLongDay } from "../coverage";
import {
  BILLING_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  cancelSchema,
  paymentSchema,
  planSchema,
  refundSchema,
  reinstateSchema,
  type MembershipAnswer,
  type MembershipView,
  type PaymentView,
} from "../contract";
import { BILLINGS } from "../coverage";

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
  | { kind: "reinstate" };

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
  api: {
    recordPayment: (body: { amount: string; paidOn: string; method: string; reference: string | null }) => Promise<MembershipAnswer>;
    setPlan: (body: Record<string, unknown>) => Promise<MembershipAnswer>;
    refund: (paymentId: number, body: { amount: string | null; refundedOn: string; reason: string }) => Promise<MembershipAnswer>;
    cancel: (body: { cancelledOn: string; reason: string }) => Promise<MembershipAnswer>;
    reinstate: (body: { reinstatedOn: string; reason: string | null }) => Promise<MembershipAnswer>;
  };
  onClose: () => void;
  onDone: (view: MembershipView, message: string, paymentId?: number) => void;
}

function serverFieldErrors(err: unknown): Record<string, string> | null {
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
export function MembershipForms({ form, view, certificate, api, onClose, onDone }: FormsProps) {
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
  const common = { busy, error, fieldErrors, onClose, returnFocus: () => document.getElementById(RECORD_PAYMENT_ID) };

  return (
    <>
      <FormDialog
        {...common}
        open={formKind === "payment"}
        title="Record payment"
        description={`Certificate number ${certificate}. A payment is never edited: a mistake is paid back with a refund.`}
        schema={paymentSchema}
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
        schema={planSchema}
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
          form?.kind === "refund"
            ? `${formatCents(form.payment.amountCents)} paid on ${formatLongDay(form.payment.paidOn)}${form.payment.reference ? ` (${form.payment.reference})` : ""}`
            : undefined
        }
        schema={refundSchema}
        defaultValue={{ amount: "", refundedOn: today, reason: "" }}
        submitLabel="Refund"
        busyLabel="Refunding..."
        submitIcon={<Undo2 className="h-4 w-4" aria-hidden />}
        onSubmit={(data) => {
          if (form?.kind !== "refund") return;
          const payment = form.payment;
          const cents = data.amount ?? payment.amountCents;
          setPending({
            title: "Confirm refund",
            text: `Refund ${formatCents(cents)} of the payment of ${formatLongDay(payment.paidOn)}? The refund is recorded for good: it cannot be edited or removed.`,
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
        {(fields) => (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <DollarsField meta={fields.amount} label="Amount" optional hint="Blank refunds the whole payment" />
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
        schema={reinstateSchema}
        defaultValue={{ reinstatedOn: today, reason: "" }}
        submitLabel="Reinstate"
        busyLabel="Reinstating..."
        submitIcon={<RotateCcw className="h-4 w-4" aria-hidden />}
        onSubmit={(data) =>
          setPending({
            title: "Confirm reinstatement",
            text: `Reinstate the membership of ${certificate} as of ${formatLongDay(data.reinstatedOn)}?`,
            confirmLabel: "Reinstate",
            busyLabel: "Reinstating...",
            run: () => api.reinstate({ reinstatedOn: data.reinstatedOn, reason: data.reason }),
            done: (v) => `Membership reinstated. Status: ${v.coverage.label}.`,
          })
        }
      >
        {(fields) => (
          <>
            <Field meta={fields.reinstatedOn} label="Reinstated on" required>
              <input {...inputProps(fields.reinstatedOn, { type: "date" })} className="field-input" />
            </Field>
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
