import { LoaderCircle, LogOut } from "lucide-react";
import { useState } from "react";
import { errorReason } from "~/platform/json-client";
import { accountApi } from "./api-client";
import { SIGN_OUT_EVERYWHERE } from "./contract";
import { OutcomeMessage } from "./OutcomeMessage";

/**
 * 'Sign out everywhere' (members on My account, staff on the admin dashboard): ends every
 * other session of the signed-in account. Nothing is lost, so it asks no confirmation; the
 * page shows `onDone`'s message with how many sessions ended.
 */
export function SignOutEverywhereButton({
  onDone,
  onError,
  className = "btn-outline",
}: {
  onDone: (message: string) => void;
  onError: (message: string) => void;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  async function run() {
    if (busy) return;
    setBusy(true);
    try {
      onDone(SIGN_OUT_EVERYWHERE.done(await accountApi.signOutEverywhere()));
    } catch (err) {
      onError(SIGN_OUT_EVERYWHERE.failed(errorReason(err)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <button type="button" className={className} onClick={() => void run()} disabled={busy}>
      {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <LogOut className="h-4 w-4" aria-hidden />}
      {busy ? SIGN_OUT_EVERYWHERE.busy : SIGN_OUT_EVERYWHERE.button}
    </button>
  );
}

/** My account's section: what the button does, the button, and its outcome. */
export function SignOutEverywhereSection() {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <section aria-labelledby="sessions-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="sessions-heading" className="text-xl font-bold text-brand-900">
        Signed-in browsers
      </h2>
      <p className="mt-1 text-sm text-slate-600">{SIGN_OUT_EVERYWHERE.explanation}</p>
      <OutcomeMessage outcome={outcome} testId="sign-out-everywhere-message" />
      <SignOutEverywhereButton
        className="btn-outline mt-4"
        onDone={(text) => setOutcome({ ok: true, text })}
        onError={(text) => setOutcome({ ok: false, text })}
      />
    </section>
  );
}
