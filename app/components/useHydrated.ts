import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False while server-rendering and before hydration, true once the page runs JavaScript. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
