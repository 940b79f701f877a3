import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { Modal } from "~/components/Modal";

/**
 * Warns before a form with unsent changes is left: a link or the Back button inside the site
 * asks first (React Router's blocker, with this dialog), and a reload or a closed tab gets the
 * browser's own question (beforeunload). `dirty`: whether something typed would be lost.
 */
export function LeaveWarning({ dirty, title, children }: { dirty: boolean; title: string; children: React.ReactNode }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const stay = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // Changes undone while the question is open: nothing to lose, the navigation goes on.
  useEffect(() => {
    if (blocker.state === "blocked" && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  return (
    <Modal
      open={blocker.state === "blocked"}
      onOpenChange={(open) => !open && blocker.state === "blocked" && blocker.reset()}
      title={title}
      size="sm"
      initialFocus={stay}
      footer={
        <>
          <button type="button" className="btn-ghost" onClick={() => blocker.state === "blocked" && blocker.proceed()}>
            Leave this page
          </button>
          <button ref={stay} type="button" className="btn-primary" onClick={() => blocker.state === "blocked" && blocker.reset()}>
            Stay on this page
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
