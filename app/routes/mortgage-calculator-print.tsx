import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { ArrowLeft, Printer } from "lucide-react";
import type { Route } from "./+types/mortgage-calculator-print";
import { pageMeta } from "~/components/seo";
import { MortgagePrintReport } from "~/features/mortgage/MortgagePrintReport";
import { calculateMortgage } from "~/features/mortgage/amortization";
import { CALCULATOR_PATH, INPUT_PARAMS, parseInputs } from "~/features/mortgage/inputs";
import { comparisonHref, parseScenarios, SCENARIO_PARAMS } from "~/features/mortgage/scenarios";
import { publicPage } from "~/platform/public-page";

/** The same for every anonymous visitor with the same loan and comparison (s2, s3): kept rendered by the server. */
export const handle = publicPage([...INPUT_PARAMS, ...SCENARIO_PARAMS]);

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Mortgage Report",
    description: "A printable mortgage report with the full amortization schedule.",
    noindex: true,
  });

/** The spec's PDF export: the whole schedule, printed 250 ms after the page is shown. */
export const PRINT_DELAY_MS = 250;

export default function MortgagePrintPage() {
  const [searchParams] = useSearchParams();
  const inputs = parseInputs(searchParams);
  const result = calculateMortgage(inputs);
  // The comparison of the calculator's address (s2, s3) is printed, and kept on the way back.
  const scenarios = parseScenarios(searchParams);
  const back = comparisonHref(CALCULATOR_PATH, inputs, scenarios);

  const printable = result !== null;
  useEffect(() => {
    if (!printable) return;
    const timer = window.setTimeout(() => window.print(), PRINT_DELAY_MS);
    return () => window.clearTimeout(timer);
    // Print once per page view, not on every render.
  }, [printable]);

  return (
    <div className="container-page py-8 print:max-w-none print:px-0 print:py-0">
      {/* The site's header and footer stay off paper. */}
      <style>{"@media print { body > a, header, footer { display: none !important; } @page { margin: 14mm; } }"}</style>
      <div className="mb-6 flex flex-wrap gap-3 print:hidden">
        <Link to={back} className="btn-outline">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back to calculator
        </Link>
        {result ? (
          <button type="button" className="btn-primary" onClick={() => window.print()}>
            <Printer className="h-4 w-4" aria-hidden />
            Print / Save as PDF
          </button>
        ) : null}
      </div>
      {result ? (
        <MortgagePrintReport inputs={inputs} result={result} scenarios={scenarios} />
      ) : (
        <p className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950">
          There is nothing to print yet: enter a loan amount, an interest rate and a term above 0 in the calculator.
        </p>
      )}
    </div>
  );
}
