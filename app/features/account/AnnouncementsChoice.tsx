import { LoaderCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { errorReason, jsonClient } from "~/platform/json-client";
import type { ReceiveAnswer } from "~/features/announcements/contract";
import { OutcomeMessage } from "./OutcomeMessage";

export const ANNOUNCEMENTS_CHOICE = {
  heading: "Announcements",
  label: "Send me announcements from the association",
  note: "Reminders and receipts about your own coverage are always sent; this does not stop them.",
  on: "You will receive announcements from the association.",
  off: "You will no longer receive announcements from the association.",
  loadFailed: (reason: string) => `Your choice could not be loaded: ${reason}`,
  saveFailed: (reason: string) => `Your choice could not be saved: ${reason}`,
} as const;

const call = jsonClient();
const announcementsChoiceApi = {
  get: () => call<ReceiveAnswer>("/api/account/announcements").then((b) => b.receive),
  set: (receive: boolean) => call<ReceiveAnswer>("/api/account/announcements", { method: "PUT", json: { receive } }).then((b) => b.receive),
};

/**
 * My account's choice of announcements (issue 41): read after the page has loaded, saved when
 * the box is ticked or cleared. The same choice as an announcement's one-click unsubscribe.
 */
export function AnnouncementsChoice() {
  // A fixed id, not useId: My account's content is rendered alone into its kept frame
  // (decision 013), and a useId there would differ from the whole page's, refusing the frame.
  const id = "announcements-choice";
  const [receive, setReceive] = useState<boolean | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setReceive(await announcementsChoiceApi.get());
    } catch (err) {
      setLoadError(ANNOUNCEMENTS_CHOICE.loadFailed(errorReason(err)));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function change(next: boolean) {
    const before = receive;
    // The box shows the choice at once; a refusal puts it back.
    setReceive(next);
    setBusy(true);
    setOutcome(null);
    try {
      const saved = await announcementsChoiceApi.set(next);
      setReceive(saved);
      setOutcome({ ok: true, text: saved ? ANNOUNCEMENTS_CHOICE.on : ANNOUNCEMENTS_CHOICE.off });
    } catch (err) {
      setReceive(before);
      setOutcome({ ok: false, text: ANNOUNCEMENTS_CHOICE.saveFailed(errorReason(err)) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={`${id}-heading`} className="text-xl font-bold text-brand-900">
        {ANNOUNCEMENTS_CHOICE.heading}
      </h2>
      <div className="mt-4 flex items-start gap-3">
        <input
          id={`${id}-receive`}
          type="checkbox"
          className="mt-1 h-4 w-4 rounded border-slate-400 text-brand-700 focus:ring-brand-500"
          checked={receive ?? false}
          disabled={receive === null || busy}
          aria-describedby={`${id}-note`}
          onChange={(e) => void change(e.target.checked)}
        />
        <div className="text-sm">
          <label htmlFor={`${id}-receive`} className="font-medium text-slate-800">
            {ANNOUNCEMENTS_CHOICE.label}
          </label>
          <p id={`${id}-note`} className="text-slate-600">
            {ANNOUNCEMENTS_CHOICE.note}
          </p>
        </div>
        {receive === null && !loadError ? <LoaderCircle className="h-4 w-4 animate-spin text-slate-500" aria-label="Loading" /> : null}
      </div>
      {loadError ? (
        <div className="mt-3">
          <OutcomeMessage outcome={{ ok: false, text: loadError }} testId="announcements-choice-message" />
          <button type="button" className="btn-outline mt-2" onClick={() => void load()}>
            Try Again
          </button>
        </div>
      ) : (
        <OutcomeMessage outcome={outcome} testId="announcements-choice-message" />
      )}
    </section>
  );
}
