import { RefreshCw } from "lucide-react";
import { ConfirmDialog } from "~/components/admin/Feedback";
import { PROOF_TEXTS } from "./proof-texts";

/** Asks before the card's code is replaced (ProofOfCoverage.tsx loads it on first opening). */
export function RenewCodeDialog({
  open,
  onOpenChange,
  busy,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={PROOF_TEXTS.renewTitle}
      confirmIcon={<RefreshCw className="h-4 w-4" aria-hidden />}
      confirmLabel={PROOF_TEXTS.renewConfirm}
      busyLabel={PROOF_TEXTS.renewBusy}
      busy={busy}
      onCancel={() => onOpenChange(false)}
      onConfirm={onConfirm}
    >
      <p>{PROOF_TEXTS.renewBody}</p>
    </ConfirmDialog>
  );
}
