import { useEffect, useMemo, useRef } from "react";
import { Columns3, Plus, X } from "lucide-react";
import { calculateMortgage, type MortgageResult } from "./amortization";
import { formatMoney, formatYearMonth } from "./format";
import type { MortgageInputs } from "./inputs";
import {
  MAX_EXTRA_SCENARIOS,
  SCENARIO_FIELDS,
  SCENARIO_LABELS,
  readScenarioText,
  scenarioInputs,
  type ScenarioField,
  type ScenarioText,
} from "./scenarios";

const MONEY_FIELDS: ReadonlySet<ScenarioField> = new Set(["homePrice", "downPayment", "extraPaymentAmount"]);

/** The compared figures, one row each. */
const ROWS: Array<{ label: string; value: (r: MortgageResult) => string }> = [
  { label: "Loan amount", value: (r) => formatMoney(r.loanAmount) },
  { label: "Monthly payment", value: (r) => formatMoney(r.monthly.total) },
  { label: "Principal & interest", value: (r) => formatMoney(r.monthly.principalAndInterest) },
  { label: "Total interest", value: (r) => formatMoney(r.totals.totalInterest) },
  { label: "Total cost", value: (r) => formatMoney(r.totals.totalPrincipal + r.totals.totalInterest + r.totals.totalPmi) },
  { label: "Payoff date", value: (r) => (r.totals.payoffDate ? formatYearMonth(r.totals.payoffDate) : "—") },
  { label: "PMI ends", value: (r) => (r.pmiEnd ? formatYearMonth(r.pmiEnd.lastCharged) : "No PMI") },
];

/** With biweekly payments compared on the form: each loan's, against its own monthly payments. */
const BIWEEKLY_ROWS: typeof ROWS = [
  { label: "Every two weeks", value: (r) => (r.biweekly ? formatMoney(r.biweekly.payment) : "—") },
  { label: "Biweekly payoff date", value: (r) => (r.biweekly ? formatYearMonth(r.biweekly.payoffDate) : "—") },
  { label: "Biweekly interest saved", value: (r) => (r.biweekly ? formatMoney(r.biweekly.interestSaved) : "—") },
];

/** The figures compared for loans computed like `base` (the page's table and the print report's). */
export const comparedRows = (base: MortgageInputs) => (base.biweekly ? [...ROWS, ...BIWEEKLY_ROWS] : ROWS);

/** A scenario's own value as the table shows it: money, a rate or years. */
export function scenarioValue(field: ScenarioField, value: number): string {
  return MONEY_FIELDS.has(field) ? formatMoney(value) : field === "interestRate" ? `${value}%` : String(value);
}

/**
 * Up to three loans side by side: the form's, and up to two more that differ in price, down
 * payment, rate, term and monthly extra payment (everything else from the form). Each is kept
 * in the address, so the comparison can be shared.
 */
export function ScenarioComparison({
  base,
  baseResult,
  scenarios,
  onChange,
}: {
  base: MortgageInputs;
  baseResult: MortgageResult;
  scenarios: ScenarioText[];
  onChange: (scenarios: ScenarioText[]) => void;
}) {
  const read = useMemo(
    () =>
      scenarios.map((text) => {
        const { scenario, errors } = readScenarioText(text);
        return { errors, result: scenario ? calculateMortgage(scenarioInputs(base, scenario)) : null };
      }),
    [scenarios, base],
  );
  // Where focus goes once the table has changed: the new scenario's first field, or after a
  // removal the next remove button (else the add button), so keyboard users are not left on <body>.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  }, [scenarios.length]);
  const add = () => {
    focusNext.current = `scenario-${scenarios.length + 2}-${SCENARIO_FIELDS[0]}`;
    onChange([
      ...scenarios,
      Object.fromEntries(SCENARIO_FIELDS.map((f) => [f, String(f === "extraPaymentAmount" ? 0 : base[f])])) as ScenarioText,
    ]);
  };
  const edit = (i: number, field: ScenarioField, value: string) =>
    onChange(scenarios.map((s, j) => (j === i ? { ...s, [field]: value } : s)));
  const remove = (i: number) => {
    focusNext.current = i < scenarios.length - 1 ? `scenario-${i + 2}-remove` : "scenario-add";
    onChange(scenarios.filter((_, j) => j !== i));
  };
  const rows = comparedRows(base);
  const columns = [
    { name: "Scenario 1", result: baseResult as MortgageResult | null },
    ...read.map((r, i) => ({ name: `Scenario ${i + 2}`, result: r.result })),
  ];

  return (
    <section
      aria-labelledby="scenarios-heading"
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      data-testid="scenarios"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="scenarios-heading" className="flex items-center gap-2 text-lg font-semibold text-brand-900">
          <Columns3 className="h-5 w-5 text-brand-700" aria-hidden />
          Compare scenarios
        </h3>
        {scenarios.length < MAX_EXTRA_SCENARIOS ? (
          <button type="button" id="scenario-add" className="btn-outline" onClick={add}>
            <Plus className="h-4 w-4" aria-hidden />
            Add a scenario
          </button>
        ) : null}
      </div>
      {scenarios.length === 0 ? (
        <p className="text-sm text-slate-700">
          Compare this loan with up to two others: another price, down payment, rate, term or monthly extra payment. The comparison is kept
          in the link.
        </p>
      ) : (
        <div className="-mx-1 overflow-x-auto px-1">
          <table className="w-full min-w-[30rem] border-collapse text-sm">
            <caption className="sr-only">Scenarios compared side by side</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <td className="sticky left-0 bg-white" />
                {columns.map((c, i) => (
                  <th key={c.name} scope="col" className="px-2 py-2 text-left font-semibold text-brand-900">
                    <span className="flex items-center justify-between gap-2">
                      {c.name}
                      {i > 0 ? (
                        <button
                          type="button"
                          id={`scenario-${i + 1}-remove`}
                          className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-red-700"
                          onClick={() => remove(i - 1)}
                          aria-label={`Remove scenario ${i + 1}`}
                        >
                          <X className="h-4 w-4" aria-hidden />
                        </button>
                      ) : null}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {SCENARIO_FIELDS.map((field) => (
                <tr key={field} className="border-b border-slate-100">
                  <th scope="row" className="sticky left-0 bg-white py-1.5 pr-2 text-left font-medium text-slate-700">
                    {SCENARIO_LABELS[field]}
                    {field === "extraPaymentAmount" ? <span className="block text-xs font-normal text-slate-500">per month</span> : null}
                  </th>
                  <td className="px-2 py-1.5 tabular-nums text-slate-900">
                    {scenarioValue(field, base[field])}
                    {field === "extraPaymentAmount" && base.extraPaymentFrequency !== 12 ? (
                      <span className="block text-xs text-slate-500">not monthly on the form</span>
                    ) : null}
                  </td>
                  {scenarios.map((s, i) => {
                    const error = read[i].errors[field];
                    const id = `scenario-${i + 2}-${field}`;
                    return (
                      <td key={id} className="px-2 py-1.5 align-top">
                        <label htmlFor={id} className="sr-only">
                          Scenario {i + 2}: {SCENARIO_LABELS[field]}
                        </label>
                        <input
                          id={id}
                          type="text"
                          inputMode={field === "interestRate" ? "decimal" : "numeric"}
                          autoComplete="off"
                          value={s[field]}
                          onChange={(e) => edit(i, field, e.target.value)}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                          className="field-input min-w-24 py-1.5"
                        />
                        {error ? (
                          <p id={`${id}-error`} className="field-error text-xs">
                            {error}
                          </p>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
              {rows.map((row) => (
                <tr key={row.label} className="border-b border-slate-100 last:border-0">
                  <th scope="row" className="sticky left-0 bg-white py-2 pr-2 text-left font-medium text-slate-700">
                    {row.label}
                  </th>
                  {columns.map((c) => (
                    <td key={c.name} className="px-2 py-2 font-semibold tabular-nums text-slate-900">
                      {c.result ? row.value(c.result) : "—"}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
