import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useDebouncedCallback } from "~/components/useDebouncedCallback";

/** Parameters to set (a value) or remove (null or ""). */
export type QueryChanges = Record<string, string | null>;

/**
 * An admin list's controls kept in the page address, its one source of truth.
 *
 * The router commits a new address only after the page's loader has answered, so a change
 * made meanwhile (a filter picked while a cleared search is on its way) must build on the
 * address asked for, not on the one the last render saw: otherwise the second navigation
 * replaces the first and undoes it. Until the address arrives, `params` is the address asked
 * for, so the controls and the list follow a change at once.
 */
export function useAddressQuery(): [URLSearchParams, (changes: QueryChanges) => void] {
  const [committed, setSearchParams] = useSearchParams();
  // The address asked for and every address asked for on the way to it.
  const [pending, setPending] = useState<{ target: string; asked: string[] } | null>(null);
  const pendingRef = useRef(pending);
  const committedRef = useRef(committed);

  useLayoutEffect(() => {
    committedRef.current = committed;
    const now = committed.toString();
    const asked = pendingRef.current;
    // Arrived, or the address was changed by something else (a tab, the back button).
    if (asked && (now === asked.target || !asked.asked.includes(now))) {
      pendingRef.current = null;
      setPending(null);
    }
  }, [committed]);

  const update = useCallback(
    (changes: QueryChanges) => {
      const next = new URLSearchParams(pendingRef.current?.target ?? committedRef.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === "") next.delete(key);
        else next.set(key, value);
      }
      const target = next.toString();
      const wasPending = pendingRef.current !== null;
      const asked = target === committedRef.current.toString() ? null : { target, asked: [...(pendingRef.current?.asked ?? []), target] };
      pendingRef.current = asked;
      setPending(asked);
      // Back to the address already shown: only a navigation still on its way needs overriding.
      if (asked || wasPending) setSearchParams(next, { replace: true, preventScrollReset: true });
    },
    [setSearchParams],
  );

  const params = useMemo(() => (pending ? new URLSearchParams(pending.target) : committed), [pending, committed]);
  return [params, update];
}

/**
 * A search box that applies what is typed after a pause. `value` is the search in force (from
 * the address); a change of it that this box did not make (back button, a link) replaces the
 * text. `flush()` hands over text still waiting, so another control changed in the meantime
 * takes it along instead of leaving a cleared box with the old search applied.
 */
export function useSearchBox(value: string, apply: (text: string) => void, delayMs = 350) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }
  const latestApply = useRef(apply);
  useLayoutEffect(() => {
    latestApply.current = apply;
  });
  const { schedule, cancel } = useDebouncedCallback((next: string) => {
    sent.current = next.trim();
    latestApply.current(sent.current);
  }, delayMs);

  /** The typed text, trimmed, now taken as the search. */
  const flush = () => {
    cancel();
    sent.current = text.trim();
    return sent.current;
  };
  const type = (next: string) => {
    setText(next);
    schedule(next);
  };
  const submit = () => latestApply.current(flush());
  return { text, type, flush, submit };
}
