import { LoaderCircle, Printer, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { lazyDialog } from "~/components/lazyDialog";
import { usePublicConfig } from "~/components/usePublicConfig";
import { errorReason } from "~/platform/json-client";
import type { CardAnswer, MembershipView } from "~/features/membership/contract";
import { coInsuredName } from "~/features/membership/co-insured";
import { coverageProof, proofDate } from "~/features/membership/proof";
import { accountApi } from "./api-client";
import { coverageAmountText } from "./coverage-display";
import { LoadFailure } from "./LoadFailure";
import { PROOF_TEXTS } from "./proof-texts";
import { OutcomeMessage } from "./OutcomeMessage";

/** Its code (Radix Dialog with it) is fetched when it first opens: most visits never do. */
const RenewCodeDialog = lazyDialog(() => import("./RenewCodeDialog").then((m) => m.RenewCodeDialog));

/** The card's element: printing My account prints it alone (app.css). */
export const PROOF_CARD_ID = "proof-of-coverage-card";

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; card: CardAnswer };

/** 'Proof of coverage': the printable card with its QR code, and the way to replace its code. */
export function ProofOfCoverageSection({ view, certificate, name }: { view: MembershipView | null; certificate: string; name: string }) {
  const hasPlan = view !== null && view.coverage.state.kind !== "no-plan";
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [confirming, setConfirming] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const fetchCard = useCallback((signal?: AbortSignal) => {
    setLoad({ state: "loading" });
    accountApi
      .card(signal)
      .then((card) => setLoad({ state: "ready", card }))
      .catch((err) => {
        if (!signal?.aborted) setLoad({ state: "error", message: errorReason(err) });
      });
  }, []);
  useEffect(() => {
    if (!hasPlan) return;
    const aborter = new AbortController();
    fetchCard(aborter.signal);
    return () => aborter.abort();
  }, [hasPlan, fetchCard]);

  async function renew() {
    setRenewing(true);
    try {
      setLoad({ state: "ready", card: await accountApi.renewCard() });
      setOutcome({ ok: true, text: PROOF_TEXTS.renewed });
    } catch (err) {
      setOutcome({ ok: false, text: PROOF_TEXTS.renewFailed(errorReason(err)) });
    } finally {
      setRenewing(false);
      setConfirming(false);
    }
  }

  return (
    <section
      aria-labelledby="proof-heading"
      aria-busy={view === null || (hasPlan && load.state === "loading")}
      className="self-start rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="proof-of-coverage"
    >
      <h2 id="proof-heading" className="text-xl font-bold text-brand-900">
        Proof of coverage
      </h2>
      {view === null ? (
        <CardPlaceholder />
      ) : !hasPlan ? (
        <p className="mt-4 text-sm text-slate-700">{PROOF_TEXTS.noPlan}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">{PROOF_TEXTS.intro}</p>
          {load.state === "loading" ? (
            <CardPlaceholder />
          ) : load.state === "error" ? (
            <LoadFailure what="your card" message={load.message} onRetry={() => fetchCard()} />
          ) : (
            <>
              <ProofCard card={load.card} view={view} certificate={certificate} name={name} />
              <OutcomeMessage outcome={outcome} testId="proof-card-message" />
              <div className="mt-4 flex flex-wrap gap-3">
                <button type="button" className="btn-primary" onClick={() => window.print()}>
                  <Printer className="h-4 w-4" aria-hidden /> {PROOF_TEXTS.print}
                </button>
                <button
                  type="button"
                  className="btn-outline"
                  onClick={() => {
                    setOutcome(null);
                    setConfirming(true);
                  }}
                >
                  <RefreshCw className="h-4 w-4" aria-hidden /> {PROOF_TEXTS.renew}
                </button>
              </div>
              <RenewCodeDialog
                open={confirming}
                onOpenChange={(open) => !renewing && setConfirming(open)}
                busy={renewing}
                onConfirm={() => void renew()}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}

function CardPlaceholder() {
  return (
    <div
      role="status"
      className="mt-4 flex h-56 max-w-md items-center justify-center gap-2 rounded-2xl bg-slate-100 text-sm text-slate-600"
    >
      <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> Loading your card...
    </div>
  );
}

/**
 * The card itself: who it covers (the member and the co-insured), what it proves, and the QR
 * code (SVG drawn by the server) that checks it is current.
 */
function ProofCard({ card, view, certificate, name }: { card: CardAnswer; view: MembershipView; certificate: string; name: string }) {
  const { orgName } = usePublicConfig();
  // The date its check shows, in the same words (a signed-in member's account is active).
  const date = proofDate(coverageProof(view.coverage, view.events, true));
  const field = (label: string, value: string, strong = false) => (
    <div>
      <dt className="text-[0.7rem] font-semibold uppercase tracking-wider text-slate-500">{label}</dt>
      <dd className={`text-sm text-slate-900 ${strong ? "font-bold" : "font-medium"}`}>{value}</dd>
    </div>
  );
  return (
    <article
      id={PROOF_CARD_ID}
      aria-label="Proof of coverage card"
      data-testid="proof-card"
      className="mt-4 max-w-md overflow-hidden rounded-2xl border-2 border-brand-800 bg-white text-slate-900 [print-color-adjust:exact]"
    >
      <header className="flex items-baseline justify-between gap-3 bg-brand-800 px-5 py-3 text-white">
        <p className="font-serif text-base font-bold leading-tight">{orgName}</p>
        <p className="shrink-0 text-xs font-semibold uppercase tracking-wider">Proof of coverage</p>
      </header>
      <div className="grid gap-4 p-5 min-[420px]:grid-cols-[1fr_auto]">
        <dl className="grid content-start gap-2.5">
          {field("Member", name || "—", true)}
          {view.coInsured ? field("Co-insured", coInsuredName(view.coInsured), true) : null}
          {field("Certificate number", certificate)}
          {field("Status", view.coverage.label, true)}
          {field("Amount of coverage", coverageAmountText(view.plan))}
          {field(date.label, date.value)}
        </dl>
        <figure className="flex flex-col items-center justify-self-center">
          <div
            role="img"
            aria-label="QR code that opens this card's verification page"
            className="h-36 w-36 [&>svg]:h-full [&>svg]:w-full"
            data-testid="proof-card-qr"
            // The server drew it (qrcode's SVG: paths only, no script or style).
            dangerouslySetInnerHTML={{ __html: card.qrSvg }}
          />
          <figcaption className="mt-1 text-center text-xs text-slate-600">Scan to verify</figcaption>
        </figure>
      </div>
      <p className="border-t border-slate-200 px-5 py-2 text-[0.7rem] leading-snug text-slate-600">
        Verify at{" "}
        <a href={card.verifyUrl} className="break-all text-brand-700 underline" data-testid="proof-card-link">
          {card.verifyUrl}
        </a>
      </p>
    </article>
  );
}
