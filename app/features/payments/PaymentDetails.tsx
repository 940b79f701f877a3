import { CopyButton } from "~/components/CopyButton";
import { useHydrated } from "~/components/useHydrated";
import type { PaymentSummary } from "./payment";
import { formatUsd, portalAmount, portalCarries } from "./portal";

/**
 * What is being paid, for the 'Leaving Our Site' step. A detail the portal's address does not
 * carry (PAYMENT_PORTAL_URL without its placeholder) gets a Copy button, so the payer can paste
 * it at the portal instead of typing it again.
 */
export function PaymentDetails({ summary, portalTemplate }: { summary: PaymentSummary; portalTemplate: string }) {
  const hydrated = useHydrated();
  const carries = portalCarries(portalTemplate);
  return (
    <dl className="divide-y divide-slate-200 rounded-lg bg-slate-50 px-4 text-sm" data-testid="payment-details">
      <div className="flex items-center justify-between gap-4 py-2.5">
        <dt className="text-slate-600">Payment for</dt>
        <dd className="text-right font-medium text-slate-900">{summary.title}</dd>
      </div>
      <div className="flex items-center justify-between gap-4 py-2.5">
        <dt className="text-slate-600">Membership ID</dt>
        <dd className="flex min-w-0 items-center justify-end gap-2 text-right font-medium text-slate-900">
          <span
            // A usual ID stays whole (the label wraps instead); a long one may break anywhere.
            className={summary.memberId && summary.memberId.length <= 16 ? "whitespace-nowrap" : "[overflow-wrap:anywhere]"}
            data-testid="payment-member-id"
          >
            {summary.memberId ?? "Not provided"}
          </span>
          {hydrated && summary.memberId && !carries.memberId ? <CopyButton value={summary.memberId} label="Membership ID" /> : null}
        </dd>
      </div>
      <div className="flex items-center justify-between gap-4 py-2.5">
        <dt className="font-semibold text-slate-800">Amount</dt>
        <dd className="flex items-center justify-end gap-2">
          <span className="text-lg font-bold text-brand-900" data-testid="payment-amount">
            {formatUsd(summary.amount)}
          </span>
          {hydrated && !carries.amount ? <CopyButton value={portalAmount(summary.amount)} label="Amount" /> : null}
        </dd>
      </div>
    </dl>
  );
}

/** The sentence under the details: what the payer still has to enter at the portal. */
export function portalInstructions(summary: PaymentSummary | null, portalTemplate: string, canCopy: boolean): string {
  if (!summary) return "Payments are handled by our payment partner on a separate, secure website that opens in a new tab.";
  const carries = portalCarries(portalTemplate);
  const missing = [!carries.amount && "the amount", summary.memberId && !carries.memberId && "your membership ID"].filter(Boolean);
  if (!missing.length) return "The portal opens in a new tab with these details filled in.";
  return canCopy
    ? `The portal opens in a new tab. Paste ${missing.join(" and ")} there (use the Copy buttons above).`
    : `The portal opens in a new tab. Enter ${missing.join(" and ")} shown above there.`;
}
