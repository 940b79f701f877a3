import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { ExternalLink } from "lucide-react";
import { JoiningNote } from "./JoiningNote";
import { Modal } from "./Modal";
import { PaymentDetails, portalInstructions } from "~/features/payments/PaymentDetails";
import { paymentPortalHref, type PaymentSummary } from "~/features/payments/payment";

interface SiteDialogsApi {
  openApplyNow(): void;
  /** 'Leaving Our Site'; with the payment page's choice, the portal address carries it (or it can be copied). */
  openPayment(payment?: PaymentSummary): void;
}

const SiteDialogsContext = createContext<SiteDialogsApi | null>(null);

export function useSiteDialogs(): SiteDialogsApi {
  const ctx = useContext(SiteDialogsContext);
  if (!ctx) throw new Error("useSiteDialogs outside SiteDialogsProvider");
  return ctx;
}

/** The Apply Now and 'Leaving Our Site' dialogs shared by header, footer and pages. */
export function SiteDialogsProvider({ paymentPortalUrl, children }: { paymentPortalUrl: string; children: ReactNode }) {
  const [applyOpen, setApplyOpen] = useState(false);
  const [paymentOpen, setPaymentOpen] = useState(false);
  const [payment, setPayment] = useState<PaymentSummary | null>(null);
  const openApplyNow = useCallback(() => setApplyOpen(true), []);
  const openPayment = useCallback((details?: PaymentSummary) => {
    setPayment(details ?? null);
    setPaymentOpen(true);
  }, []);
  const api = useMemo(() => ({ openApplyNow, openPayment }), [openApplyNow, openPayment]);

  return (
    <SiteDialogsContext.Provider value={api}>
      {children}
      <ApplyNowDialog open={applyOpen} onOpenChange={setApplyOpen} />
      <PaymentDialog open={paymentOpen} onOpenChange={setPaymentOpen} portalUrl={paymentPortalUrl} payment={payment} />
    </SiteDialogsContext.Provider>
  );
}

export function ApplyNowDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Apply Now"
      description="Online applications are coming soon."
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={() => onOpenChange(false)}>
            Close
          </button>
          <Link to="/contact-us" className="btn-primary" onClick={() => onOpenChange(false)}>
            Contact Us
          </Link>
        </>
      }
    >
      <JoiningNote />
    </Modal>
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
