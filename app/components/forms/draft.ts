import { useRootShellData } from "~/components/usePublicConfig";

/**
 * Drafts of forms not sent yet, kept in this browser's local storage: one per form and per
 * signed-in user (or visitor), so that on a shared computer the next person to sign in never
 * sees the last one's draft; every draft is removed when someone signs out (`clearAllDrafts`).
 * A draft holds only the text fields a form names: never signatures or card details.
 */
export type Draft = Record<string, string>;

const PREFIX = "aha-draft:";

/** The storage key of a form's draft for a user (null: a visitor who is not signed in). */
export function draftKey(form: string, userId: number | null): string {
  return `${PREFIX}${form}:${userId ?? "visitor"}`;
}

/** The key of a form's draft for whoever is signed in now. */
export function useDraftKey(form: string): string {
  const user = useRootShellData()?.user;
  return draftKey(form, user?.id ?? null);
}

/** The draft kept under a key, with only the fields named (and only text); null when there is none or it is empty. */
export function loadDraft(key: string, fields: readonly string[]): Draft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== "object") return null;
    const draft = pickDraft(parsed as Record<string, unknown>, fields);
    return Object.values(draft).some((v) => v.trim()) ? draft : null;
  } catch {
    return null;
  }
}

/** The named text fields of a form's values (what a draft may hold). */
export function pickDraft(values: Record<string, unknown> | undefined, fields: readonly string[]): Draft {
  const draft: Draft = {};
  for (const name of fields) {
    const value = values?.[name];
    if (typeof value === "string") draft[name] = value;
  }
  return draft;
}

export function saveDraft(key: string, draft: Draft) {
  try {
    window.localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the form is still on the screen.
  }
}

export function clearDraft(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to clear.
  }
}

/** Removes every form's draft from this browser (at sign-out). */
export function clearAllDrafts() {
  try {
    const keys: string[] = [];
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key?.startsWith(PREFIX)) keys.push(key);
    }
    for (const key of keys) window.localStorage.removeItem(key);
  } catch {
    // Storage disabled: there are no drafts.
  }
}
