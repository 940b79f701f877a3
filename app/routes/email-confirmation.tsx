import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import type { Route } from "./+types/email-confirmation";
import { pageMeta } from "~/components/seo";
import { CONFIRMATION_DELAY_MS, decideConfirmation } from "~/features/email-confirmation/confirmation";
import { ConfirmationLoading, ConfirmationOutcome } from "~/features/email-confirmation/ConfirmationView";

// Served at /confirm-email, /auth/confirm, /auth/callback and /email-confirmation.
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Email Confirmation",
    description: "Confirm the e-mail address of your American Homeowners Association account.",
    // Confirmation links carry one-time tokens: keep them out of search results.
    noindex: true,
  });

/** Without JavaScript nothing would end the loading state: show the result at once. */
const NO_SCRIPT_STYLE = "[data-confirmation-loading]{display:none}[data-confirmation-result]{display:block!important}";

/**
 * No loader and no call: the result depends only on the link's query parameters. The page
 * shows its loading state for about a second, then the result. The server renders both,
 * the result hidden; a <noscript> style swaps them when JavaScript is off.
 */
export default function EmailConfirmationPage() {
  const [searchParams] = useSearchParams();
  const query = searchParams.toString();
  const result = useMemo(() => decideConfirmation(new URLSearchParams(query)), [query]);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setReady(false);
    const timer = setTimeout(() => setReady(true), CONFIRMATION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white">
      <div className="container-page flex min-h-[60vh] items-center justify-center py-16">
        <div className="w-full max-w-xl rounded-2xl bg-white px-6 py-12 shadow-xl ring-1 ring-slate-200 sm:px-12" aria-live="polite">
          {ready ? (
            <ConfirmationOutcome result={result} />
          ) : (
            <>
              <ConfirmationLoading />
              <div data-confirmation-result className="hidden">
                <ConfirmationOutcome result={result} />
              </div>
              <noscript>
                <style>{NO_SCRIPT_STYLE}</style>
              </noscript>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
