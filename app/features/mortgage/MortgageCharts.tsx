import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useHydrated } from "~/components/useHydrated";
import { yearlySummary, type MortgageResult } from "./amortization";
import { formatMoney, formatMoneyWhole } from "./format";

const BRAND = "#174780";
const ACCENT = "#e39a17";
const PLAIN = "#94a3b8";

const compactMoney = (n: number) => (n >= 1000 ? `$${Math.round(n / 1000)}k` : `$${Math.round(n)}`);
const tooltipMoney = (value: unknown) => formatMoney(Number(value));

/** Balance over time (with and without extra payments) and principal vs interest per year. */
export function MortgageCharts({ result }: { result: MortgageResult }) {
  const hydrated = useHydrated();
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
    <div className="grid gap-6 xl:grid-cols-2" data-testid="charts">
      <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <figcaption className="mb-1 font-semibold text-brand-900">Loan balance over time</figcaption>
        <p className="mb-3 text-sm text-slate-600">{balanceSummary}</p>
        <div className="h-64" aria-hidden>
          {hydrated ? (
            <ResponsiveContainer width="100%" height="100%">
              <AreaChart data={years} margin={{ top: 5, right: 10, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                <XAxis dataKey="year" tick={{ fontSize: 12 }} minTickGap={16} />
                <YAxis tickFormatter={compactMoney} tick={{ fontSize: 12 }} width={56} />
                <Tooltip formatter={tooltipMoney} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                {hasExtras ? (
                  <Area
                    type="monotone"
                    dataKey="plainBalance"
                    name="Without extra payments"
                    stroke={PLAIN}
                    fill={PLAIN}
                    fillOpacity={0.15}
                    isAnimationActive={false}
                  />
                ) : null}
                <Area
                  type="monotone"
                  dataKey="balance"
                  name={hasExtras ? "With extra payments" : "Balance"}
                  stroke={BRAND}
                  fill={BRAND}
                  fillOpacity={0.25}
                  isAnimationActive={false}
                />
              </AreaChart>
            </ResponsiveContainer>
          ) : null}
        </div>
      </figure>
      <figure className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <figcaption className="mb-1 font-semibold text-brand-900">Principal vs interest by year</figcaption>
        <p className="mb-3 text-sm text-slate-600">{splitSummary}</p>
        <div className="h-64" aria-hidden>
          {hydrated ? (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={years} margin={{ top: 5, right: 10, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
                <XAxis dataKey="year" tick={{ fontSize: 12 }} minTickGap={16} />
                <YAxis tickFormatter={compactMoney} tick={{ fontSize: 12 }} width={56} />
                <Tooltip formatter={tooltipMoney} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Bar dataKey="principal" name="Principal" stackId="paid" fill={BRAND} isAnimationActive={false} />
                <Bar dataKey="interest" name="Interest" stackId="paid" fill={ACCENT} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          ) : null}
        </div>
      </figure>
    </div>
  );
}
