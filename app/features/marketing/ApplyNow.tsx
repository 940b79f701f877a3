import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { lazyDialog } from "~/components/lazyDialog";

/** Its code is downloaded when it first opens. */
const ApplyNowDialog = lazyDialog(() => import("./ApplyNowDialog").then((m) => m.ApplyNowDialog));

const ApplyNowContext = createContext<(() => void) | null>(null);

/** Opens the site's one 'Apply Now' dialog (header, footer, login, 'Become a Member'). */
export function useApplyNow(): () => void {
  const open = useContext(ApplyNowContext);
  if (!open) throw new Error("useApplyNow outside ApplyNowProvider");
  return open;
}

export function ApplyNowProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const openApplyNow = useCallback(() => setOpen(true), []);
  return (
    <ApplyNowContext.Provider value={openApplyNow}>
      {children}
      <ApplyNowDialog open={open} onOpenChange={setOpen} />
    </ApplyNowContext.Provider>
  );
}
