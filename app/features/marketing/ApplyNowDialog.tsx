import { Link } from "react-router";
import { JoiningNote } from "~/components/JoiningNote";
import { Modal } from "~/components/Modal";

/** The site's one 'Apply Now' dialog (ApplyNow.tsx opens it). */
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
      {/* A link in the note (the form, sign in, call, write) closes the dialog, as Contact Us does. */}
      <div onClickCapture={(e) => (e.target as HTMLElement).closest("a") && onOpenChange(false)}>
        <JoiningNote />
      </div>
    </Modal>
  );
}
