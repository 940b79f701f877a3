import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { JoiningNote } from "~/components/JoiningNote";
import { Modal } from "~/components/Modal";

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
