import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { ExternalLink } from "lucide-react";
import { Modal } from "~/components/Modal";
import { PaymentDetails, portalInstructions } from "./PaymentDetails";
import { paymentPortalHref, type PaymentSummary } from "./payment";

type OpenPayment = (payment?: PaymentSummary) => void;

const PaymentDialogContext = createContext<OpenPayment | null>(null);

/**
 * Opens 'Leaving Our Site'; with the payment page's choice, the portal address carries it (or
 * it can be copied).
 */
export function usePaymentDialog(): OpenPayment {
  const open = useContext(PaymentDialogContext);
  if (!open) throw new Error("usePaymentDialog outside PaymentDialogProvider");
  return open;
}

export function PaymentDialogProvider({ portalUrl, children }: { portalUrl: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [payment, setPayment] = useState<PaymentSummary | null>(null);
  const openPayment = useCallback((details?: PaymentSummary) => {
    setPayment(details ?? null);
    setOpen(true);
  }, []);
  return (
    <PaymentDialogContext.Provider value={openPayment}>
      {children}
      <PaymentDialog open={open} onOpenChange={setOpen} portalUrl={portalUrl} payment={payment} />
    </PaymentDialogContext.Provider>
  );
}

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
