/** Completed task ids, kept in the browser (spec: public-side section 3). */
export const DONE_EVENTS_KEY = "maintenance-done-events";

/** Reads the stored ids; anything unreadable counts as nothing done. */
export function parseDoneEvents(raw: string | null, knownIds?: ReadonlySet<string>): Set<string> {
  if (!raw) return new Set();
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return new Set();
    return new Set(value.filter((v): v is string => typeof v === "string" && (!knownIds || knownIds.has(v))));
  } catch {
    return new Set();
  }
}

export function serializeDoneEvents(done: ReadonlySet<string>): string {
  return JSON.stringify([...done].sort());
}

export function loadDoneEvents(storage: Pick<Storage, "getItem"> | undefined, knownIds?: ReadonlySet<string>): Set<string> {
  try {
    return parseDoneEvents(storage?.getItem(DONE_EVENTS_KEY) ?? null, knownIds);
  } catch {
    return new Set();
  }
}

export function saveDoneEvents(storage: Pick<Storage, "setItem"> | undefined, done: ReadonlySet<string>): void {
  try {
    storage?.setItem(DONE_EVENTS_KEY, serializeDoneEvents(done));
  } catch {
    // Private browsing or a full quota: the marks last for this visit only.
  }
}
