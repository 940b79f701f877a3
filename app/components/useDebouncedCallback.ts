import { useCallback, useEffect, useLayoutEffect, useRef } from "react";

/**
 * Calls `fn` once `delayMs` has passed without another call (the last call's arguments, the
 * latest `fn`). `cancel` drops a call still waiting; leaving the page drops it too.
 */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, delayMs: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  const schedule = useCallback(
    (...args: A) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        latest.current(...args);
      }, delayMs);
    },
    [cancel, delayMs],
  );
  useEffect(() => cancel, [cancel]);
  return { schedule, cancel };
}
