import { useRef } from "react";
import { ExternalLink, Lock, ShieldCheck } from "lucide-react";
import { ErrorSummary, Field, FieldError, inputProps } from "~/components/forms/FormParts";
import type { FormResult } from "~/components/forms/parse-form";
import { upperCaseAsTyped } from "~/components/forms/upper-case";
import { useSchemaForm } from "~/components/forms/useSchemaForm";
import { usePaymentDialog } from "./PaymentDialog";
import { useHydrated } from "~/components/useHydrated";
import { usePublicConfig } from "~/components/usePublicConfig";
import { MEMBER_ID_MAX } from "~/features/submissions/intake/fields";
import { MAX_PAYMENT, PAYMENT_OPTIONS, formatUsd, parseAmount, paymentOption, paymentSchema, portalHandoverNote } from "./payment";

const FIELDS = { option: "Payment for", memberId: "Membership ID", amount: "Amount" };

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The payment options, membership ID and amount, then the hand-over to the secure payment
 * portal through the 'Leaving Our Site' dialog. No card data is ever asked for here.
 * Without JavaScript the form posts to the page's action, which shows the hand-over inline.
 */
export function PaymentForm({ lastResult }: { lastResult?: FormResult }) {
  const hydrated = useHydrated();
  const openPayment = usePaymentDialog();
  const { paymentPortalUrl } = usePublicConfig();
  const { form, fields, formProps, summaryShown } = useSchemaForm({
    id: "payment",
    schema: paymentSchema,
    lastResult,
    onValid: (payment) => openPayment(payment),
  });
  const amountInput = useRef<HTMLInputElement>(null);
  const typedAmount = useRef("");
  const selected = paymentOption(text(fields.option.value));
  const fixed = selected?.fixedAmount ?? null;
  const parsedAmount = parseAmount(text(fields.amount.value));
  const amount = fixed ?? (parsedAmount !== null && parsedAmount > 0 ? parsedAmount : null);
  const optionError = fields.option.errors?.[0];

  /**
   * A yearly fee shows its fixed amount in the (read-only) amount field; what was typed for
   * another option comes back when one is chosen again. Runs before Conform reads the form.
   */
  function choose(value: string) {
    const input = amountInput.current;
    if (!input) return;
    const nextFixed = paymentOption(value)?.fixedAmount ?? null;
    if (nextFixed !== null) {
      if (!input.readOnly) typedAmount.current = input.value;
      input.value = nextFixed.toFixed(2);
    } else if (input.readOnly) {
      input.value = typedAmount.current;
    }
  }

  return (
    <form method="post" {...formProps} aria-label="Payment details" className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="space-y-8">
        <ErrorSummary form={form} labels={FIELDS} shown={summaryShown} />
        <fieldset aria-describedby={optionError ? fields.option.errorId : undefined}>
          <legend className="font-serif text-xl font-bold text-brand-900">1. What are you paying for?</legend>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {PAYMENT_OPTIONS.map((option, index) => {
              const checked = selected?.value === option.value;
              return (
                <label
                  key={option.value}
                  data-testid={`payment-option-${option.value}`}
                  className={`relative flex cursor-pointer flex-col rounded-xl border-2 bg-white p-5 shadow-sm transition hover:border-brand-500 has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 ${
                    checked ? "border-brand-700 ring-2 ring-brand-200" : optionError ? "border-red-600" : "border-slate-200"
                  }`}
                >
                  <span className="flex items-start justify-between gap-3">
                    <span className="text-base font-semibold text-brand-900">{option.title}</span>
                    <input
                      {...inputProps(fields.option, { type: "radio", value: option.value, ariaAttributes: false })}
                      id={index === 0 ? fields.option.id : undefined}
                      onChange={() => choose(option.value)}
                      aria-invalid={optionError ? true : undefined}
                      className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
                    />
                  </span>
                  <span className="mt-2 text-xl font-bold text-brand-800 sm:text-2xl">{option.price}</span>
                  <span className="mt-2 text-sm text-slate-600">{option.description}</span>
                </label>
              );
            })}
          </div>
          <FieldError meta={fields.option} />
        </fieldset>

        <fieldset className="space-y-5">
          <legend className="font-serif text-xl font-bold text-brand-900">2. Your details</legend>
          <Field
            meta={fields.memberId}
            label={FIELDS.memberId}
            optional
            hint="Printed on your membership certificate, e.g. AHA123456. It helps us match your payment to your account."
          >
            {(aria) => (
              <input
                {...inputProps(fields.memberId, { type: "text", ...aria })}
                onChange={upperCaseAsTyped}
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={MEMBER_ID_MAX}
                className="field-input mt-1 sm:max-w-sm"
              />
            )}
          </Field>
          <Field
            meta={fields.amount}
            label={`${FIELDS.amount} (USD)`}
            hint={
              !hydrated
                ? "Needed for Additional Services and Other Payment. Membership Fees and Home Warranty Premium are charged at their fixed amounts."
                : fixed !== null
                  ? `${selected!.title} is a fixed amount of ${formatUsd(fixed)} per year.`
                  : "Enter the amount in dollars and cents."
            }
          >
            {(aria) => (
              <div className="relative mt-1 sm:max-w-xs">
                <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-600" aria-hidden>
                  $
                </span>
                <input
                  {...inputProps(fields.amount, { type: "number", ...aria })}
                  ref={amountInput}
                  readOnly={hydrated && fixed !== null}
                  inputMode="decimal"
                  step="0.01"
                  min="0.01"
                  max={MAX_PAYMENT}
                  placeholder="0.00"
                  className="field-input pl-7 read-only:bg-slate-100 read-only:text-slate-700"
                />
              </div>
            )}
          </Field>
        </fieldset>
      </div>

      <aside aria-labelledby="payment-summary-title" className="lg:sticky lg:top-6 lg:self-start">
        <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6 shadow-sm">
          <h2 id="payment-summary-title" className="font-serif text-xl font-bold text-brand-900">
            3. Review and pay
          </h2>
          <dl className="mt-4 divide-y divide-slate-200 text-sm" data-testid="payment-summary">
            <div className="flex justify-between gap-4 py-2.5">
              <dt className="text-slate-600">Payment for</dt>
              <dd className="text-right font-medium text-slate-900">{selected?.title ?? "Not chosen yet"}</dd>
            </div>
            <div className="flex justify-between gap-4 py-2.5">
              <dt className="text-slate-600">Membership ID</dt>
              <dd className="break-all text-right font-medium text-slate-900">{text(fields.memberId.value).trim() || "Not provided"}</dd>
            </div>
            <div className="flex items-baseline justify-between gap-4 py-3">
              <dt className="font-semibold text-slate-800">Amount</dt>
              <dd className="text-right text-2xl font-bold text-brand-900">{amount !== null ? formatUsd(amount) : "—"}</dd>
            </div>
          </dl>
          <button type="submit" className="btn-accent mt-4 w-full py-3 text-base">
            <Lock className="h-4 w-4" aria-hidden /> Continue to Secure Payment
          </button>
          <ul className="mt-5 space-y-3 text-sm text-slate-700">
            <li className="flex gap-2">
              <ExternalLink className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" aria-hidden />
              <span data-testid="portal-handover-note">{portalHandoverNote(paymentPortalUrl)}</span>
            </li>
            <li className="flex gap-2">
              <ShieldCheck className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" aria-hidden />
              <span>Card and bank details are entered only on the portal. We never ask for them on this site.</span>
            </li>
          </ul>
        </div>
      </aside>
    </form>
  );
}
