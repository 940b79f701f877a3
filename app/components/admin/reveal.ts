import { useEffect, useRef } from "react";

/**
 * The scroll margin of a message that is brought into view: a little room below it. Room above
 * it, below the sticky site header, is the page's own (the root's scroll padding: forms/focus.ts).
 */
export const REVEAL_MARGIN = "scroll-mb-4";

/**
 * Each time `trigger` becomes a new value, scrolls the element into view when any of it is
 * off screen (nothing moves when it is already in view). Give the element REVEAL_MARGIN.
 */
export function useRevealOnChange<T extends HTMLElement>(trigger: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!trigger || !ref.current) return;
    const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    ref.current.scrollIntoView({ block: "nearest", behavior: reduce ? "auto" : "smooth" });
  }, [trigger]);
  return ref;
}
