import type { ReactNode } from "react";
import { ApplyNowProvider } from "~/features/marketing/ApplyNow";
import { PaymentDialogProvider } from "~/features/payments/PaymentDialog";

/** The dialogs any page may open: 'Apply Now' and 'Leaving Our Site'. */
export function SiteDialogsProvider({ paymentPortalUrl, children }: { paymentPortalUrl: string; children: ReactNode }) {
  return (
    <PaymentDialogProvider portalUrl={paymentPortalUrl}>
      <ApplyNowProvider>{children}</ApplyNowProvider>
    </PaymentDialogProvider>
  );
}
