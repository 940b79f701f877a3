import { startTransition, useEffect, useRef, useState } from "react";
import { useOnDemand } from "~/components/useOnDemand";
import { yearlySummary, type MortgageResult } from "./amortization";
import { formatMoneyWhole } from "./format";

/** Recharts is most of the calculator's JavaScript: fetched when the charts come near the screen, not with the page. */
const loadDrawings = () => import("./ChartDrawings");

/** How far below the screen the charts start loading, so they are usually drawn when scrolled to. */
const LOAD_MARGIN = "400px";

/**
 * True once the element has come within LOAD_MARGIN of the screen (and from then on). False on
 * the server and at hydration, so the page hydrates as it was rendered.
 */
function useNearScreen<T extends Element>() {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === "undefined") {
      startTransition(() => setNear(true));
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        // Drawing the charts is work the visitor did not ask for: it gives way to typing.
        startTransition(() => setNear(true));
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near] as const;
}

/**
 * Balance over time (with and without extra payments) and principal vs interest per year. The
 * captions and their summaries in words are rendered with the page; the drawings (hidden from
 * screen readers, which read the summaries) fill their fixed-height boxes once loaded, so
 * nothing moves.
 */
export function MortgageCharts({ result }: { result: MortgageResult }) {
  const [ref, near] = useNearScreen<HTMLDivElement>();
  // Until it arrives (or if it cannot be fetched) the boxes stay empty, at their size.
  const drawings = useOnDemand(loadDrawings, near);
  const years = yearlySummary(result.schedule, result.plainSchedule);
  const hasExtras = result.totalExtraPaid > 0;
  const first = years[0];
  const payoffYear = result.totals.payoffDate?.year ?? "";
  const balanceSummary = `The balance falls from ${formatMoneyWhole(result.loanAmount)} to $0 by ${payoffYear}${
    hasExtras && result.baseline.payoffDate ? `, instead of ${result.baseline.payoffDate.year} without extra payments` : ""
  }.`;
  const splitSummary = first
    ? `In ${first.year} you pay ${formatMoneyWhole(first.interest)} of interest and ${formatMoneyWhole(first.principal)} of principal; the share of principal grows every year.`
    : "";

  return (
    <div ref={ref} className="grid gap-6 xl:grid-cols-2" data-testid="charts">
      <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <figcaption className="mb-1 font-semibold text-brand-900">Loan balance over time</figcaption>
        <p className="mb-3 text-sm text-slate-600">{balanceSummary}</p>
        <div className="h-64" aria-hidden>
          {drawings ? <drawings.BalanceChart years={years} hasExtras={hasExtras} /> : null}
        </div>
      </figure>
      <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <figcaption className="mb-1 font-semibold text-brand-900">Principal vs interest by year</figcaption>
        <p className="mb-3 text-sm text-slate-600">{splitSummary}</p>
        <div className="h-64" aria-hidden>
          {drawings ? <drawings.SplitChart years={years} /> : null}
        </div>
      </figure>
    </div>
  );
}
