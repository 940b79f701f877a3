import type { AmortizationRow } from "./amortization";
import { formatMoney, formatYearMonth } from "./format";

/** The screen shows the first 10 years; the print view shows every row. */
export const SCREEN_ROWS = 120;

export function AmortizationTable({
  rows,
  limit,
  scrollable = false,
}: {
  rows: readonly AmortizationRow[];
  limit?: number;
  scrollable?: boolean;
}) {
  const shown = limit === undefined ? rows : rows.slice(0, limit);
  const hasExtra = rows.some((r) => r.extraPayment > 0);
  const caption =
    limit !== undefined && rows.length > limit
      ? `Amortization schedule, payments 1 to ${shown.length} of ${rows.length}`
      : `Amortization schedule, all ${rows.length} payments`;
  const table = (
    <table className="w-full min-w-[36rem] border-collapse print:min-w-0 text-right text-sm tabular-nums" data-testid="amortization-table">
      <caption className="sr-only">{caption}</caption>
      <thead className={scrollable ? "sticky top-0 bg-slate-100" : "bg-slate-100"}>
        <tr className="text-slate-800">
          <th scope="col" className="px-3 py-2 text-left font-semibold">
            No.
          </th>
          <th scope="col" className="px-3 py-2 text-left font-semibold">
            Date
          </th>
          <th scope="col" className="px-3 py-2 font-semibold">
            Principal
          </th>
          {hasExtra ? (
            <th scope="col" className="px-3 py-2 font-semibold">
              of which extra
            </th>
          ) : null}
          <th scope="col" className="px-3 py-2 font-semibold">
            Interest
          </th>
          <th scope="col" className="px-3 py-2 font-semibold">
            Total payment
          </th>
          <th scope="col" className="px-3 py-2 font-semibold">
            Balance
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((row) => (
          <tr key={row.paymentNumber} className="border-t border-slate-200 even:bg-slate-50">
            <td className="px-3 py-1.5 text-left">{row.paymentNumber}</td>
            <td className="whitespace-nowrap px-3 py-1.5 text-left">{formatYearMonth(row.paymentDate, "short")}</td>
            <td className="px-3 py-1.5">{formatMoney(row.principalPayment)}</td>
            {hasExtra ? <td className="px-3 py-1.5">{row.extraPayment > 0 ? formatMoney(row.extraPayment) : "—"}</td> : null}
            <td className="px-3 py-1.5">{formatMoney(row.interestPayment)}</td>
            <td className="px-3 py-1.5">{formatMoney(row.totalPayment)}</td>
            <td className="px-3 py-1.5">{formatMoney(row.remainingBalance)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    // Focusable so keyboard users can scroll it (and axe's scrollable-region rule is met).
    // On screen it scrolls sideways on a phone; on paper every row is laid out in full.
    <div
      tabIndex={0}
      role="region"
      aria-label="Amortization schedule table"
      className={`overflow-auto rounded-xl border border-slate-200 focus-visible:ring-4 focus-visible:ring-brand-200 print:overflow-visible print:rounded-none print:border-0 ${scrollable ? "max-h-[32rem]" : ""}`}
    >
      {table}
    </div>
  );
}
