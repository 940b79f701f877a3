import type { ComponentType } from "react";
import { useOnDemand } from "./useOnDemand";

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A dialog whose code (Radix Dialog and the dialog's own content) is fetched the first time it
 * opens, not with the page: most visits never open it. Once there it stays mounted, so it
 * closes, and gives focus back to its opener, as a dialog loaded with the page does. When the
 * fetch fails the dialog stays closed, and the next opening fetches it again.
 */
export function lazyDialog<P extends DialogProps>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  function OnDemandDialog(props: P) {
    const Dialog = useOnDemand(load, props.open, () => props.onOpenChange(false));
    return Dialog ? <Dialog {...props} /> : null;
  }
  return OnDemandDialog;
}
