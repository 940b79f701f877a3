/** What an action on My account did: a status when it worked, an alert when it did not. */
export function OutcomeMessage({ outcome, testId }: { outcome: { ok: boolean; text: string } | null; testId: string }) {
  return (
    <div aria-live="polite">
      {outcome ? (
        <p
          role={outcome.ok ? "status" : "alert"}
          data-testid={testId}
          className={`mt-4 rounded-md border px-3 py-2 text-sm ${
            outcome.ok ? "border-green-200 bg-green-50 text-green-900" : "border-red-200 bg-red-50 text-red-900"
          }`}
        >
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
