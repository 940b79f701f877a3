import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MonthFigures } from "~/features/membership/trend";

/**
 * The dashboard's chart on Recharts (the calculator's chart library): a chunk of its own,
 * fetched after the page is up (MembershipOverview.tsx), so the admin page's own JavaScript
 * stays light. Covered members on the left axis; new and lapsed, far fewer, on the right.
 */

const BRAND = "#174780";
const NEW = "#15803d";
const LAPSED = "#b91c1c";

const count = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString("en-US"));

export function MembershipTrendDrawing({ months }: { months: MonthFigures[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={months} margin={{ top: 5, right: 5, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="short" tick={{ fontSize: 12 }} minTickGap={12} />
        <YAxis yAxisId="covered" tickFormatter={count} tick={{ fontSize: 12 }} width={48} allowDecimals={false} />
        <YAxis yAxisId="flow" orientation="right" tickFormatter={count} tick={{ fontSize: 12 }} width={40} allowDecimals={false} />
        <Tooltip formatter={(value) => Number(value).toLocaleString("en-US")} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="flow" dataKey="new" name="New" fill={NEW} isAnimationActive={false} />
        <Bar yAxisId="flow" dataKey="lapsed" name="Lapsed" fill={LAPSED} isAnimationActive={false} />
        <Line
          yAxisId="covered"
          type="monotone"
          dataKey="covered"
          name="Covered"
          stroke={BRAND}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
