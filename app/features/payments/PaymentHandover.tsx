import { Link } from "react-router";
import { ExternalLink } from "lucide-react";
import { useHydrated } from "~/components/useHydrated";
import { PaymentDetails, portalInstructions } from "./PaymentDetails";
import type { PaymentSummary } from "./payment";
import { paymentPortalHref } from "./portal";

/**
 * The 'Leaving Our Site' step shown in the page when the form was posted without
 * JavaScript (with JavaScript the same words appear in the site's dialog).
 */
export function PaymentHandover({ summary, portalUrl }: { summary: PaymentSummary; portalUrl: string }) {
  const hydrated = useHydrated();
  return (
    <section
      aria-labelledby="handover-title"
      data-testid="payment-handover"
      className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white shadow-lg"
    >
      <div className="border-b border-slate-200 px-6 py-5">
        <h2 id="handover-title" className="text-xl font-semibold text-brand-900">
          Leaving Our Site
        </h2>
        <p className="mt-1 text-sm text-slate-600">You will be redirected to our secure payment portal to complete your payment.</p>
      </div>
      <div className="space-y-4 px-6 py-5 text-slate-700">
        <PaymentDetails summary={summary} portalTemplate={portalUrl} />
        <p className="text-sm">
          Payments are handled by our payment partner on a separate, secure website. {portalInstructions(summary, portalUrl, hydrated)} We
          never ask for card details on this site.
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 px-6 py-4">
        <Link to="/make-payment" className="btn-ghost" reloadDocument>
          Cancel
        </Link>
        <a href={paymentPortalHref(portalUrl, summary)} target="_blank" rel="noopener noreferrer" className="btn-primary">
          Continue to Payment <ExternalLink className="h-4 w-4" aria-hidden />
        </a>
      </div>
    </section>
  );
}
