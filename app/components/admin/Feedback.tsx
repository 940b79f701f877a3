import { CircleAlert, CircleCheck, LoaderCircle, TriangleAlert, X } from "lucide-react";
import { useRef, type ComponentType, type ReactNode } from "react";
import { Modal } from "~/components/Modal";
import { REVEAL_MARGIN, useRevealOnChange } from "./reveal";
import type { Flash } from "./useFlashMessage";

/**
 * A result that appears on the page: in a polite status region, or in an alert when `alert`.
 * Both regions stay mounted, so whatever is put in one is announced.
 */
export function Announced({ alert, children }: { alert: boolean; children: ReactNode }) {
  return (
    <>
      <div role="status" aria-live="polite" className="contents">
        {alert ? null : children}
      </div>
      <div role="alert" className="contents">
        {alert ? children : null}
      </div>
    </>
  );
}

const FLASH_STYLES: Record<Flash["kind"], { box: string; Icon: typeof CircleCheck }> = {
  success: { box: "border-green-200 bg-green-50 text-green-900", Icon: CircleCheck },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", Icon: TriangleAlert },
  error: { box: "border-red-200 bg-red-50 text-red-900", Icon: CircleAlert },
};

/**
 * An admin message: success and warning in a polite status region, failure in an alert, and
 * brought into view when it appears off screen.
 */
export function FlashBanner({
  flash,
  onDismiss,
  testId = "admin-message",
}: {
  flash: Flash | null;
  onDismiss: () => void;
  testId?: string;
}) {
  return (
    <Announced alert={flash?.kind === "error"}>{flash ? <FlashBox flash={flash} onDismiss={onDismiss} testId={testId} /> : null}</Announced>
  );
}

function FlashBox({ flash, onDismiss, testId }: { flash: Flash; onDismiss: () => void; testId: string }) {
  const { box, Icon } = FLASH_STYLES[flash.kind];
  const ref = useRevealOnChange<HTMLDivElement>(flash.id);
  return (
    <div
      ref={ref}
      data-testid={testId}
      data-kind={flash.kind}
      className={`mb-5 flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${REVEAL_MARGIN} ${box}`}
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <p className="flex-1">{flash.text}</p>
      <button type="button" onClick={onDismiss} className="rounded p-0.5 hover:bg-black/5" aria-label="Dismiss message">
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

/** Asks before a destructive action; Cancel has the focus, so Enter alone never destroys anything. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmIcon,
  confirmLabel,
  cancelLabel = "Cancel",
  busyLabel,
  busy,
  onCancel,
  onConfirm,
  returnFocus,
  children,
}: {
  open: boolean;
  title: string;
  /** The question, under the title ("Are you sure you want to delete this feed?"). */
  description?: string;
  confirmIcon?: ReactNode;
  confirmLabel: string;
  /** The button that changes nothing ("Cancel"; named otherwise where the action itself is a cancellation). */
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** Where the focus goes on closing when the button that opened it is gone (see Modal). */
  returnFocus?: () => HTMLElement | null;
  children: ReactNode;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && !busy && onCancel()}
      title={title}
      description={description}
      size="sm"
      initialFocus={cancelRef}
      returnFocus={returnFocus}
      keepOnOutsideClick
      footer={
        <>
          <button ref={cancelRef} type="button" className="btn-ghost" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className="btn-danger" onClick={onConfirm} disabled={busy}>
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : confirmIcon}
            {busy ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ${active ? "bg-green-100 text-green-900" : "bg-amber-100 text-amber-900"}`}
    >
      {active ? "Active" : "Inactive"}
    </span>
  );
}

/** What an empty admin list says (inside TableState's empty box): an icon, a title, a hint and what to do. */
export function EmptyList({
  icon: Icon,
  title,
  hint,
  children,
}: {
  icon: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  title: string;
  hint?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center">
      <Icon className="h-8 w-8 text-slate-400" aria-hidden />
      <p className="mt-3 text-lg font-semibold text-brand-900">{title}</p>
      {hint ? <p className="mt-1 max-w-md text-sm text-slate-600">{hint}</p> : null}
      {children ? <div className="mt-5">{children}</div> : null}
    </div>
  );
}
