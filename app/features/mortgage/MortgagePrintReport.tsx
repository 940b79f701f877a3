import { calculateMortgage, type MortgageResult } from "./amortization";
import { AmortizationTable } from "./AmortizationTable";
import { formatMoney, formatYearMonth } from "./format";
import { FREQUENCIES, type MortgageInputs } from "./inputs";
import { breakdownLines, pmiNote, requestIsMoot } from "./MortgageResults";
import { comparedRows, scenarioValue } from "./ScenarioComparison";
import { SCENARIO_FIELDS, SCENARIO_LABELS, scenarioInputs, type Scenario } from "./scenarios";

function Pairs({ title, pairs }: { title: string; pairs: Array<[string, string]> }) {
  return (
    <section className="break-inside-avoid">
      <h2 className="mb-2 border-b border-slate-300 pb-1 text-base font-semibold text-brand-900">{title}</h2>
      <dl className="space-y-1 text-sm">
        {pairs.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4">
            <dt className="text-slate-700">{label}</dt>
            <dd className="font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The loans of the address's s2 and s3 beside the form's, as the calculator's 'Compare scenarios' shows them. */
function PrintedComparison({ inputs, result, scenarios }: { inputs: MortgageInputs; result: MortgageResult; scenarios: Scenario[] }) {
  const columns = [
    { name: "Scenario 1", values: inputs as Scenario, result: result as MortgageResult | null },
    ...scenarios.map((s, i) => ({ name: `Scenario ${i + 2}`, values: s, result: calculateMortgage(scenarioInputs(inputs, s)) })),
  ];
  const cell = "px-2 py-1 text-right tabular-nums";
  return (
    <section className="break-inside-avoid" data-testid="printed-scenarios">
      <h2 className="mb-2 border-b border-slate-300 pb-1 text-base font-semibold text-brand-900">Scenarios compared</h2>
      <table className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <td />
            {columns.map((c) => (
              <th key={c.name} scope="col" className={`${cell} font-semibold text-brand-900`}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {SCENARIO_FIELDS.map((field) => (
            <tr key={field} className="border-b border-slate-100">
              <th scope="row" className="py-1 pr-2 text-left font-medium text-slate-700">
                {SCENARIO_LABELS[field]}
                {field === "extraPaymentAmount" ? " per month" : null}
              </th>
              {columns.map((c) => (
                <td key={c.name} className={cell}>
                  {scenarioValue(field, c.values[field])}
                </td>
              ))}
            </tr>
          ))}
          {comparedRows(inputs).map((row) => (
            <tr key={row.label} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="py-1 pr-2 text-left font-medium text-slate-700">
                {row.label}
              </th>
              {columns.map((c) => (
                <td key={c.name} className={`${cell} font-semibold`}>
                  {c.result ? row.value(c.result) : "—"}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">
        Scenarios 2 and 3 take everything else from scenario 1; their extra payment is monthly, with no lump sum.
      </p>
    </section>
  );
}

/** The printable report: inputs, monthly payment, totals, the scenarios compared and every row of the schedule. */
export function MortgagePrintReport({
  inputs,
  result,
  scenarios = [],
}: {
  inputs: MortgageInputs;
  result: MortgageResult;
  /** The extra loans of the comparison (the address's s2, s3). */
  scenarios?: Scenario[];
}) {
  const { totals, baseline } = result;
  const frequency = FREQUENCIES.find((f) => f.value === inputs.extraPaymentFrequency)?.label ?? "";
  const note = pmiNote(inputs, result);
  return (
    <article className="space-y-6 text-slate-900">
      <div className="border-b-2 border-brand-800 pb-3">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-700">American Homeowners Association</p>
        <h1 className="font-serif text-3xl font-bold text-brand-900">Mortgage Report</h1>
      </div>
      <div className="grid gap-6 sm:grid-cols-2 print:grid-cols-2">
        <Pairs
          title="Loan"
          pairs={[
            ["Home price", formatMoney(inputs.homePrice)],
            ["Down payment", formatMoney(inputs.downPayment)],
            ["Loan amount", formatMoney(result.loanAmount)],
            ["Loan term", `${inputs.loanTerm} years`],
            ["Interest rate (APR)", `${inputs.interestRate}%`],
            ["First payment", formatYearMonth({ year: inputs.startYear, month: inputs.startMonth })],
            [
              "Extra payment",
              inputs.extraPaymentAmount > 0
                ? `${formatMoney(inputs.extraPaymentAmount)} ${frequency.toLowerCase()} from ${formatYearMonth({ year: inputs.extraPaymentStartYear, month: inputs.extraPaymentStartMonth })}`
                : "None",
            ],
            [
              "Lump sum",
              inputs.lumpSumAmount > 0
                ? `${formatMoney(inputs.lumpSumAmount)} in ${formatYearMonth({ year: inputs.lumpSumYear, month: inputs.lumpSumMonth })}`
                : "None",
            ],
          ]}
        />
        <Pairs
          title="Monthly payment"
          pairs={[
            ...breakdownLines(inputs, result).map((l): [string, string] => [l.label, formatMoney(l.amount)]),
            ["Total monthly payment", formatMoney(result.monthly.total)],
          ]}
        />
        <Pairs
          title="Totals"
          pairs={[
            ["Payoff date", totals.payoffDate ? formatYearMonth(totals.payoffDate) : "—"],
            ["Number of payments", String(totals.payments)],
            ["Total interest", formatMoney(totals.totalInterest)],
            ["Total PMI", formatMoney(totals.totalPmi)],
          ]}
        />
        {result.pmiEnd ? (
          <Pairs
            title="PMI"
            pairs={[
              [
                "Ends automatically",
                `${formatYearMonth(result.pmiEnd.automatic)} (${result.pmiEnd.automaticBy === "midpoint" ? "middle of the term" : "78% of the home price"})`,
              ],
              [
                "Can be cancelled on request",
                requestIsMoot(result.pmiEnd)
                  ? "Not needed: it ends automatically first"
                  : `${formatYearMonth(result.pmiEnd.request)} (80% of the home price)`,
              ],
              ["Last PMI payment", formatYearMonth(result.pmiEnd.lastCharged)],
              ["PMI payments", String(totals.pmiPayments)],
            ]}
          />
        ) : null}
        {result.biweekly ? (
          <Pairs
            title="Biweekly payments"
            pairs={[
              ["Every two weeks", formatMoney(result.biweekly.payment)],
              ["Payoff date", formatYearMonth(result.biweekly.payoffDate)],
              ["Total interest", formatMoney(result.biweekly.totalInterest)],
              ["Interest saved", formatMoney(result.biweekly.interestSaved)],
              ["Months saved", String(result.biweekly.monthsSaved)],
            ]}
          />
        ) : null}
        {result.totalExtraPaid > 0 ? (
          <Pairs
            title="Extra payment savings"
            pairs={[
              ["Interest saved", formatMoney(result.interestSaved)],
              ["Months saved", String(result.monthsSaved)],
              ["Payoff without extras", baseline.payoffDate ? formatYearMonth(baseline.payoffDate) : "—"],
              ["Total extra paid", formatMoney(result.totalExtraPaid)],
            ]}
          />
        ) : null}
      </div>
      {note ? <p className="text-sm text-slate-700">{note}</p> : null}
      <p className="text-sm text-slate-700">Closing costs are typically 2-5% of the home price and are not part of the monthly payment.</p>
      {scenarios.length > 0 ? <PrintedComparison inputs={inputs} result={result} scenarios={scenarios} /> : null}
      <section>
        <h2 className="mb-2 text-base font-semibold text-brand-900">Amortization schedule ({totals.payments} payments)</h2>
        <AmortizationTable rows={result.schedule} />
      </section>
    </article>
  );
}
