import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { lazyDialog } from "~/components/lazyDialog";
import type { PaymentSummary } from "./payment";

/** Its code (with the payment details it shows) is downloaded when it first opens. */
const PaymentDialog = lazyDialog(() => import("./LeavingOurSiteDialog").then((m) => m.PaymentDialog));

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
