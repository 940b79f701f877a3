import { startTransition, useEffect, useState } from "react";

interface Loaded {
  value?: unknown;
  pending?: Promise<unknown>;
}

/** What each loader brought, for the life of the page: a module is fetched once. */
const loaded = new WeakMap<() => Promise<unknown>, Loaded>();

/**
 * Code the page fetches only when it is wanted (`import()` of a dialog or the calculator's
 * charts): null until `wanted` has been true and the module has arrived, then the module.
 * `load` must be one function for the life of the page (declared at module level).
 *
 * A failed fetch (offline, or a new version of the site deployed meanwhile) is not an error of
 * the page: `onFailure` is told, and the next time it is wanted it is fetched again.
 */
export function useOnDemand<T>(load: () => Promise<T>, wanted: boolean, onFailure?: () => void): T | null {
  let entry = loaded.get(load);
  if (!entry) loaded.set(load, (entry = {}));
  const known = entry;
  const [value, setValue] = useState<T | null>(() => (known.value as T | undefined) ?? null);
  useEffect(() => {
    if (!wanted || value !== null) return;
    let live = true;
    known.pending ??= load().then(
      (module) => (known.value = module),
      (error: unknown) => {
        known.pending = undefined;
        throw error;
      },
    );
    known.pending.then(
      (module) => live && startTransition(() => setValue(() => module as T)),
      () => live && onFailure?.(),
    );
    return () => {
      live = false;
    };
    // onFailure is read when a fetch fails, not a reason to fetch again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, value, load, known]);
  return value;
}
