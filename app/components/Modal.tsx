import { Dialog } from "radix-ui";
import { X } from "lucide-react";
import { useRef, type ReactNode, type RefObject } from "react";

/**
 * The one dialog of the site, on Radix Dialog: closes on Escape and on a backdrop click
 * (unless `keepOnOutsideClick`: a question that needs an answer), keeps Tab focus inside,
 * returns focus to the opener.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = "md",
  initialFocus,
  returnFocus,
  keepOnOutsideClick = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: "sm" | "md" | "lg" | "xl" | "full";
  /** Element to focus when the dialog opens (default: the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes on closing when the opener is gone (a dialog opened from the address, or its opener re-rendered away). */
  returnFocus?: () => HTMLElement | null;
  /**
   * A click beside the dialog leaves it open (ConfirmDialog): the second press of a double
   * click on the button that opened it lands on the backdrop, and closed the question and the
   * form beneath it with what was typed.
   */
  keepOnOutsideClick?: boolean;
}) {
  // Without a Dialog.Trigger, Radix has nothing to return focus to: remember the opener.
  const opener = useRef<HTMLElement | null>(null);
  const width = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl", full: "max-w-6xl" }[size];
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay data-testid="modal-backdrop" className="fixed inset-0 z-50 bg-slate-900/60 backdrop-blur-[2px]" />
        <Dialog.Content
          className={`fixed left-1/2 top-1/2 z-50 flex max-h-[92vh] w-[calc(100vw-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-2xl focus:outline-none`}
          onOpenAutoFocus={(e) => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            if (initialFocus?.current) {
              e.preventDefault();
              initialFocus.current.focus();
            }
          }}
          onCloseAutoFocus={(e) => {
            const target = opener.current?.isConnected && opener.current !== document.body ? opener.current : (returnFocus?.() ?? null);
            if (target) {
              e.preventDefault();
              target.focus();
            }
          }}
          onPointerDownOutside={keepOnOutsideClick ? (e) => e.preventDefault() : undefined}
          {...(description ? {} : { "aria-describedby": undefined })}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-brand-900">{title}</Dialog.Title>
              {description ? <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description> : null}
            </div>
            <Dialog.Close className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800" aria-label="Close dialog">
              <X className="h-5 w-5" aria-hidden />
            </Dialog.Close>
          </div>
          {children ? <div className="overflow-y-auto px-6 py-5 text-slate-700">{children}</div> : null}
          {footer ? <div className="flex flex-wrap justify-end gap-3 border-t border-slate-200 px-6 py-4">{footer}</div> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
