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
  // Below md the seven columns would not fit a phone: No. goes under the date, interest (and
  // any extra) under the principal, the balance under the total payment. Paper always gets
  // every column.
  const wide = "hidden md:table-cell print:table-cell";
  const stacked = "block text-slate-600 md:hidden print:hidden";
  const cell = "px-2 py-1.5 md:px-3";
  const head = "px-2 py-2 font-semibold md:px-3";
  const table = (
    <table
      className="w-full border-collapse text-right text-sm tabular-nums md:min-w-[36rem] print:min-w-0"
      data-testid="amortization-table"
    >
      <caption className="sr-only">{caption}</caption>
      <thead className={scrollable ? "sticky top-0 bg-slate-100" : "bg-slate-100"}>
        <tr className="align-bottom text-slate-800">
          <th scope="col" className={`${head} text-left ${wide}`}>
            No.
          </th>
          <th scope="col" className={`${head} text-left`}>
            Date<span className={`${stacked} font-normal`}>No.</span>
          </th>
          <th scope="col" className={head}>
            Principal
            {hasExtra ? <span className={`${stacked} font-normal`}>of which extra</span> : null}
            <span className={`${stacked} font-normal`}>Interest</span>
          </th>
          {hasExtra ? (
            <th scope="col" className={`${head} ${wide}`}>
              of which extra
            </th>
          ) : null}
          <th scope="col" className={`${head} ${wide}`}>
            Interest
          </th>
          <th scope="col" className={head}>
            Total payment<span className={`${stacked} font-normal`}>Balance</span>
          </th>
          <th scope="col" className={`${head} ${wide}`}>
            Balance
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((row) => {
          const extra = row.extraPayment > 0 ? formatMoney(row.extraPayment) : "—";
          return (
            <tr key={row.paymentNumber} className="border-t border-slate-200 align-top even:bg-slate-50">
              <td className={`${cell} text-left ${wide}`}>{row.paymentNumber}</td>
              <td className={`${cell} whitespace-nowrap text-left`}>
                {formatYearMonth(row.paymentDate, "short")}
                <span className={stacked}>
                  <span className="sr-only">Payment number </span>
                  {row.paymentNumber}
                </span>
              </td>
              <td className={cell}>
                {formatMoney(row.principalPayment)}
                {hasExtra ? (
                  <span className={stacked}>
                    <span className="sr-only">of which extra </span>
                    {extra}
                  </span>
                ) : null}
                <span className={stacked}>
                  <span className="sr-only">Interest </span>
                  {formatMoney(row.interestPayment)}
                </span>
              </td>
              {hasExtra ? <td className={`${cell} ${wide}`}>{extra}</td> : null}
              <td className={`${cell} ${wide}`}>{formatMoney(row.interestPayment)}</td>
              <td className={cell}>
                {formatMoney(row.totalPayment)}
                <span className={stacked}>
                  <span className="sr-only">Balance </span>
                  {formatMoney(row.remainingBalance)}
                </span>
              </td>
              <td className={`${cell} ${wide}`}>{formatMoney(row.remainingBalance)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
  return (
    // Focusable so keyboard users can scroll it (and axe's scrollable-region rule is met).
    // On screen it scrolls down (10 years of rows); on paper every row is laid out in full.
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
