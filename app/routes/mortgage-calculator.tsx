import { useLocation, useSearchParams } from "react-router";
import type { Route } from "./+types/mortgage-calculator";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/components/seo";
import { MortgageCalculator } from "~/features/mortgage/MortgageCalculator";
import { INPUT_PARAMS, parseInputs } from "~/features/mortgage/inputs";
import { parseScenarios, SCENARIO_PARAMS } from "~/features/mortgage/scenarios";
import { publicPage } from "~/platform/public-page";

/** The same for every anonymous visitor: kept rendered by the server. */
export const handle = publicPage([...INPUT_PARAMS, ...SCENARIO_PARAMS]);

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Mortgage Calculator",
    description:
      "Estimate your monthly mortgage payment with PMI, property tax, insurance and HOA dues, see the amortization schedule, and find out what extra payments save you.",
  });

/**
 * Inputs live in the URL, so a result can be shared or bookmarked and is rendered on the
 * server for the URL's inputs (the form also works without JavaScript: it submits by GET).
 */
export default function MortgageCalculatorPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  return (
    <>
      <PageHero eyebrow="Financial Tools" title="Mortgage Calculator">
        See your full monthly payment, how your loan is paid down, and how much extra payments save you.
      </PageHero>
      <div className="container-page py-10 lg:py-14">
        {/* A new navigation (e.g. the header's 'Calculator' link) starts from the URL again. */}
        <MortgageCalculator key={location.key} initial={parseInputs(searchParams)} initialScenarios={parseScenarios(searchParams)} />
      </div>
    </>
  );
}
