/** The contact form's fields as typed (name, email, phone, subject, message). */
export type ContactDraft = Record<string, string>;

/** Where a contact message that could not be sent is kept until it is sent. */
export const CONTACT_DRAFT_KEY = "aha-contact-draft";

export function loadContactDraft(): ContactDraft | null {
  try {
    const raw = window.localStorage.getItem(CONTACT_DRAFT_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== "object") return null;
    const values: ContactDraft = {};
    for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") values[key] = value;
    return Object.values(values).some((v) => v.trim()) ? values : null;
  } catch {
    return null;
  }
}

export function saveContactDraft(values: ContactDraft) {
  try {
    window.localStorage.setItem(CONTACT_DRAFT_KEY, JSON.stringify(values));
  } catch {
    // Storage full or disabled: the message is still on the screen.
  }
}

export function clearContactDraft() {
  try {
    window.localStorage.removeItem(CONTACT_DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}
