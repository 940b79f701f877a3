import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { YearSummary } from "./amortization";
import { formatMoney } from "./format";

/**
 * The two drawings of MortgageCharts, on Recharts. A chunk of their own, fetched when the
 * charts come into view (MortgageCharts.tsx): Recharts is most of the calculator's JavaScript.
 */

const BRAND = "#174780";
const ACCENT = "#e39a17";
const PLAIN = "#94a3b8";

const compactMoney = (n: number) => (n >= 1000 ? `$${Math.round(n / 1000)}k` : `$${Math.round(n)}`);
const tooltipMoney = (value: unknown) => formatMoney(Number(value));

/** Balance over time, with and without extra payments. */
export function BalanceChart({ years, hasExtras }: { years: YearSummary[]; hasExtras: boolean }) {
  return (
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
  );
}

/** Principal and interest paid per year. */
export function SplitChart({ years }: { years: YearSummary[] }) {
  return (
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
  );
}
