import {
  COVERAGE_KINDS,
  COVERAGE_KIND_NAMES,
  type CoverageCounts,
  type CoverageKind,
  type CoverageSummary,
} from "~/features/membership/statuses";
import { formatLongDay } from "~/features/membership/coverage";

/** Each status's colours: green in force, blue about to be, amber owing, red ended, grey unknown. */
const TONES: Record<CoverageKind, string> = {
  "no-plan": "bg-slate-100 text-slate-800",
  "awaiting-first-payment": "bg-amber-100 text-amber-900",
  starts: "bg-sky-100 text-sky-900",
  covered: "bg-green-100 text-green-900",
  "past-due": "bg-orange-100 text-orange-900",
  lapsed: "bg-red-100 text-red-900",
  cancelled: "bg-red-100 text-red-900",
};

/** The coverage filter's value from the address: a status, or null for every status (an unknown value is no filter). */
export function coverageFilterOf(params: URLSearchParams): CoverageKind | null {
  const value = params.get("coverage");
  return (COVERAGE_KINDS as readonly string[]).includes(value ?? "") ? (value as CoverageKind) : null;
}

/** A member's coverage as a badge: "Covered", "Starts March 1, 2028", with the paid-through day ("October 31, 2026") when there is one. */
export function CoverageBadge({ coverage }: { coverage: CoverageSummary }) {
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[coverage.status]}`}>{coverage.label}</span>
      {coverage.paidThrough && coverage.status !== "no-plan" ? (
        <span className="text-xs text-slate-600">Paid through {formatLongDay(coverage.paidThrough)}</span>
      ) : null}
    </span>
  );
}

/**
 * The coverage status filter: one toggle per status with how many members the search and the
 * other filters match in it (counts unknown while the first page loads).
 */
export function CoverageFilter({
  value,
  counts,
  onChange,
}: {
  value: CoverageKind | null;
  counts: CoverageCounts | null;
  onChange: (next: CoverageKind | null) => void;
}) {
  const total = counts ? COVERAGE_KINDS.reduce((sum, k) => sum + counts[k], 0) : null;
  const option = (kind: CoverageKind | null, label: string, count: number | null) => {
    const pressed = value === kind;
    return (
      <button
        key={kind ?? "all"}
        type="button"
        aria-pressed={pressed}
        onClick={() => onChange(kind)}
        className={`inline-flex min-h-9 items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
          pressed ? "border-brand-800 bg-brand-800 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
        }`}
      >
        {label}{" "}
        <span
          className={`rounded-full px-1.5 text-xs font-semibold tabular-nums ${pressed ? "bg-white/20 text-white" : "bg-slate-100 text-slate-700"}`}
        >
          {count === null ? "…" : count.toLocaleString("en-US")}
        </span>
      </button>
    );
  };
  return (
    <div role="group" aria-labelledby="coverage-filter-label" className="basis-full" data-testid="coverage-filter">
      <p id="coverage-filter-label" className="field-label">
        Coverage
      </p>
      <div className="flex flex-wrap gap-2">
        {option(null, "All", total)}
        {COVERAGE_KINDS.map((kind) => option(kind, COVERAGE_KIND_NAMES[kind], counts ? counts[kind] : null))}
      </div>
    </div>
  );
}
