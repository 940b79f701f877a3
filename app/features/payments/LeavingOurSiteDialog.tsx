import { ExternalLink } from "lucide-react";
import { Modal } from "~/components/Modal";
import { PaymentDetails, portalInstructions } from "./PaymentDetails";
import type { PaymentSummary } from "./payment";
import { paymentPortalHref } from "./portal";

/** 'Leaving Our Site': the hand-over to the payment portal (PaymentDialog.tsx opens it). */
export function PaymentDialog({
  open,
  onOpenChange,
  portalUrl,
  payment = null,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** PAYMENT_PORTAL_URL, possibly with {amount}, {memberId} and {option} placeholders. */
  portalUrl: string;
  payment?: PaymentSummary | null;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Leaving Our Site"
      description="You will be redirected to our secure payment portal to complete your payment."
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <a
            href={paymentPortalHref(portalUrl, payment)}
            target="_blank"
            rel="noopener noreferrer"
            className="btn-primary"
            onClick={() => onOpenChange(false)}
          >
            Continue to Payment <ExternalLink className="h-4 w-4" aria-hidden />
          </a>
        </>
      }
    >
      {payment ? (
        <div className="space-y-4">
          <PaymentDetails summary={payment} portalTemplate={portalUrl} />
          <p>{portalInstructions(payment, portalUrl, true)} We never ask for card details on this site.</p>
        </div>
      ) : (
        <p>
          Payments are handled by our payment partner on a separate, secure website that opens in a new tab. We never ask for card details
          on this site.
        </p>
      )}
    </Modal>
  );
}
