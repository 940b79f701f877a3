import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useOnDemand } from "~/components/useOnDemand";
import { formatLongDay } from "~/features/membership/coverage";
import { COVERAGE_KINDS, COVERAGE_KIND_NAMES } from "~/features/membership/statuses";
import type { MembershipFigures } from "~/features/membership/trend";

/** Recharts is most of a chart's JavaScript: fetched once the page is up, not with it (as the calculator's charts). */
const loadDrawing = () => import("./MembershipTrendDrawing");

const number = (n: number) => n.toLocaleString("en-US");

/**
 * The membership at a glance on the staff dashboard: how many members are in each coverage
 * status (each a link to that filter of the member list), and members covered, new and lapsed
 * per month. The chart is a drawing hidden from screen readers; the same figures are a table,
 * read by screen readers and shown to anyone who asks for it.
 */
export function MembershipOverview({ figures }: { figures: MembershipFigures | null }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const drawing = useOnDemand(loadDrawing, hydrated);
  const [tableShown, setTableShown] = useState(false);

  if (!figures) {
    return (
      <section aria-labelledby="membership-overview" className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="membership-overview" className="font-serif text-xl font-bold text-brand-900">
          Membership
        </h2>
        <p className="mt-2 text-sm text-red-800" role="alert">
          The membership figures could not be loaded. Reload the page to try again.
        </p>
      </section>
    );
  }
  const { counts, months } = figures;
  const last = months[months.length - 1];
  const summary = `In ${last.long} so far: ${number(last.covered)} covered, ${number(last.new)} new, ${number(last.lapsed)} lapsed.`;

  return (
    <section
      aria-labelledby="membership-overview"
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="membership-overview"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="membership-overview" className="font-serif text-xl font-bold text-brand-900">
          Membership
        </h2>
        <Link to="/admin/members" className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
          All members
        </Link>
      </div>
      <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" aria-label="Members by coverage status">
        {COVERAGE_KINDS.map((kind) => (
          <li key={kind}>
            <Link
              to={`/admin/members?coverage=${kind}`}
              className="block h-full rounded-xl border border-slate-200 px-3 py-2 hover:border-brand-400 hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              <span className="block text-2xl font-bold tabular-nums text-brand-900">{number(counts[kind])}</span>{" "}
              <span className="block text-sm text-slate-700">{COVERAGE_KIND_NAMES[kind]}</span>
            </Link>
          </li>
        ))}
      </ul>

      <figure className="mt-6" aria-labelledby="membership-trend-caption">
        <figcaption id="membership-trend-caption" className="font-semibold text-brand-900">
          Members covered, new and lapsed per month
        </figcaption>
        <p className="mb-3 text-sm text-slate-600">{summary}</p>
        {/* A box of fixed height: nothing moves when the drawing arrives. */}
        <div className="h-64" aria-hidden data-testid="membership-chart">
          {drawing ? <drawing.MembershipTrendDrawing months={months} /> : null}
        </div>
        <button
          type="button"
          className="btn-ghost mt-2 px-2.5 text-sm"
          aria-expanded={tableShown}
          aria-controls="membership-trend-table"
          onClick={() => setTableShown((v) => !v)}
        >
          {tableShown ? "Hide the figures" : "Show the figures as a table"}
        </button>
        <div id="membership-trend-table" className={tableShown ? "mt-2 overflow-x-auto" : "sr-only"}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Members covered, new and lapsed per month</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-1.5 pr-3 font-semibold">
                  Month
                </th>
                <th scope="col" className="py-1.5 pr-3 text-right font-semibold">
                  Covered
                </th>
                <th scope="col" className="py-1.5 pr-3 text-right font-semibold">
                  New
                </th>
                <th scope="col" className="py-1.5 text-right font-semibold">
                  Lapsed
                </th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month} className="border-b border-slate-100">
                  <th scope="row" className="py-1.5 pr-3 font-normal">
                    {m.long}
                  </th>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{number(m.covered)}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{number(m.new)}</td>
                  <td className="py-1.5 text-right tabular-nums">{number(m.lapsed)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figure>
      <p className="mt-3 text-xs text-slate-600">Statuses as of {formatLongDay(figures.today)}, the association's calendar day.</p>
    </section>
  );
}
