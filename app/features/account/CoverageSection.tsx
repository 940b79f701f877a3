import { CreditCard, LoaderCircle } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { errorReason } from "~/platform/json-client";
import { BILLING_LABELS, type MembershipView } from "~/features/membership/contract";
import { formatCents, formatLongDay } from "~/features/membership/coverage";
import { usePaymentDialog } from "~/features/payments/PaymentDialog";
import { membershipDuePayment } from "~/features/payments/payment";
import { accountApi } from "./api-client";
import {
  coverageAmountText,
  effectiveText,
  nextDueTerm,
  paidThroughText,
  paymentRows,
  statusNote,
  statusTone,
  type StatusTone,
} from "./coverage-display";
import { LoadFailure } from "./LoadFailure";
import { OnlinePayment } from "./OnlinePayment";
import { usePublicConfig } from "~/components/usePublicConfig";
import { PAY_PATH } from "~/features/membership/online/texts";
import { ProofOfCoverageSection } from "./ProofOfCoverage";

const BOX = "rounded-xl border border-slate-200 bg-white p-6 shadow-sm";

const TONES: Record<StatusTone, string> = {
  good: "bg-green-100 text-green-900",
  info: "bg-brand-50 text-brand-900",
  warning: "bg-amber-100 text-amber-900",
  bad: "bg-red-100 text-red-900",
  none: "bg-slate-100 text-slate-800",
};

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; view: MembershipView };

/**
 * My account's Coverage and Proof of coverage (issue 31), from GET /api/account/membership:
 * read after the page shows, so the rest of the page never waits for it.
 */
export function CoverageSections({ certificate, name }: { certificate: string; name: string }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const fetchMembership = useCallback((signal?: AbortSignal, quietly = false) => {
    if (!quietly) setLoad({ state: "loading" });
    accountApi
      .membership(signal)
      .then((view) => setLoad({ state: "ready", view }))
      .catch((err) => {
        if (!signal?.aborted) setLoad({ state: "error", message: errorReason(err) });
      });
  }, []);
  useEffect(() => {
    const aborter = new AbortController();
    fetchMembership(aborter.signal);
    return () => aborter.abort();
  }, [fetchMembership]);

  return (
    <div className="grid gap-8 lg:col-span-2 lg:grid-cols-[1fr_1.2fr]">
      <section aria-labelledby="coverage-heading" aria-busy={load.state === "loading"} className={BOX} data-testid="coverage">
        <h2 id="coverage-heading" className="text-xl font-bold text-brand-900">
          Coverage
        </h2>
        <OnlinePayment
          onArrived={() => fetchMembership(undefined, true)}
          nextDue={load.state === "ready" ? load.view.coverage.nextDue : null}
        />
        {load.state === "loading" ? (
          <p role="status" className="mt-4 flex items-center gap-2 text-sm text-slate-600">
            <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> Loading your coverage...
          </p>
        ) : load.state === "error" ? (
          <LoadFailure what="your coverage" message={load.message} onRetry={() => fetchMembership()} />
        ) : (
          <CoverageDetails view={load.view} certificate={certificate} />
        )}
      </section>
      <ProofOfCoverageSection view={load.state === "ready" ? load.view : null} certificate={certificate} name={name} />
    </div>
  );
}

function CoverageDetails({ view, certificate }: { view: MembershipView; certificate: string }) {
  const openPayment = usePaymentDialog();
  const { onlinePayments } = usePublicConfig();
  const { coverage, plan } = view;
  const rows = paymentRows(view.payments);
  return (
    <>
      <p className="mt-4">
        <span
          className={`inline-flex rounded-full px-3 py-1 text-sm font-semibold ${TONES[statusTone(coverage)]}`}
          data-testid="coverage-status"
        >
          {coverage.label}
        </span>
      </p>
      <p className="mt-2 text-sm text-slate-700">{statusNote(coverage)}</p>
      {coverage.state.kind === "no-plan" ? (
        <p className="mt-3 text-sm">
          <Link to="/contact-us" className="text-brand-700 underline">
            Contact us
          </Link>
        </p>
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="coverage-details">
            <dt className="text-slate-600">Plan</dt>
            <dd className="text-slate-900">{plan ? BILLING_LABELS[plan.billing] : "—"}</dd>
            <dt className="text-slate-600">Amount of coverage</dt>
            <dd className="text-slate-900">{coverageAmountText(plan)}</dd>
            <dt className="text-slate-600">Coverage effective</dt>
            <dd className="text-slate-900">{effectiveText(coverage, plan)}</dd>
            <dt className="text-slate-600">Paid through</dt>
            <dd className="font-semibold text-slate-900">{paidThroughText(coverage)}</dd>
            {coverage.nextDue ? (
              <>
                <dt className="text-slate-600">{nextDueTerm(coverage, view.today)}</dt>
                <dd className="text-slate-900">
                  <span className="font-semibold">{formatLongDay(coverage.nextDue.on)}</span>: {formatCents(coverage.nextDue.amountCents)}
                  {coverage.creditCents > 0 ? (
                    <span className="block text-slate-600">{formatCents(coverage.creditCents)} you paid ahead is counted toward it.</span>
                  ) : null}
                </dd>
              </>
            ) : null}
          </dl>
          {coverage.nextDue && onlinePayments ? (
            // The member's plan's payment page, told their payment reference and address (issue 40).
            <a href={PAY_PATH} className="btn-accent mt-5">
              <CreditCard className="h-4 w-4" aria-hidden /> Make a Payment
            </a>
          ) : coverage.nextDue ? (
            <button
              type="button"
              className="btn-accent mt-5"
              onClick={() => openPayment(membershipDuePayment(certificate, coverage.nextDue!.amountCents))}
            >
              <CreditCard className="h-4 w-4" aria-hidden /> Make a Payment
            </button>
          ) : null}
        </>
      )}
      <h3 id="payment-history-heading" className="mt-8 text-base font-bold text-brand-900">
        Payment history
      </h3>
      {rows.length ? (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" aria-labelledby="payment-history-heading" data-testid="payment-history">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Date
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Details
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={row.id} data-kind={row.kind}>
                  <td className="py-2 pr-3 align-top text-slate-900 sm:whitespace-nowrap">{row.on}</td>
                  <td className="py-2 pr-3 align-top text-slate-700">
                    <span className={row.kind === "payment" ? undefined : "font-semibold text-slate-900"}>{row.details}</span>
                    {row.note ? <span className="text-slate-500"> ({row.note})</span> : null}
                  </td>
                  <td
                    className={`whitespace-nowrap py-2 text-right align-top font-medium ${row.amount.startsWith("-") ? "text-red-800" : "text-slate-900"}`}
                  >
                    {row.amount}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-600">No payments recorded yet.</p>
      )}
    </>
  );
}
