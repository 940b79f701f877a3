import { Suspense, lazy, useState, type ComponentType } from "react";

/**
 * A dialog whose code (Radix Dialog and the dialog's own content) is downloaded the first time
 * it opens, not with the page: most visits never open it. Once opened it stays mounted, so it
 * closes, and gives focus back to its opener, exactly as a dialog loaded with the page.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  function OnDemandDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    // Remembered during render (React's pattern for state that follows a prop): the first
    // render with open=true already mounts the dialog.
    if (props.open && !opened) setOpened(true);
    if (!opened && !props.open) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return OnDemandDialog;
}
