import type { ReactNode } from "react";
import { CalendarCheck, CalendarRange, Info, PiggyBank } from "lucide-react";
import { addMonths, monthIndex, PMI_REQUEST_RATIO, type MortgageResult } from "./amortization";
import { formatDuration, formatMoney, formatMoneyWhole, formatYearMonth } from "./format";
import type { MortgageInputs } from "./inputs";
import { AmortizationTable, SCREEN_ROWS } from "./AmortizationTable";
import { MortgageCharts } from "./MortgageCharts";

/** The share of the home price that closing costs typically come to (spec: 2-5%). */
export const CLOSING_COSTS = { low: 0.02, high: 0.05 };

export function pmiLabel(pmiPercent: number): string {
  return `PMI (${pmiPercent.toLocaleString("en-US", { maximumFractionDigits: 3 })}% of loan amount per year)`;
}

/** One line per part of the monthly payment, P&I first. */
export function breakdownLines(inputs: MortgageInputs, result: MortgageResult) {
  return [
    { label: "Principal & interest", amount: result.monthly.principalAndInterest, color: "bg-brand-700" },
    { label: pmiLabel(inputs.pmi), amount: result.monthly.pmi, color: "bg-accent-500" },
    { label: "Property tax (yearly ÷ 12)", amount: result.monthly.propertyTax, color: "bg-teal-600" },
    { label: "Home insurance (yearly ÷ 12)", amount: result.monthly.homeInsurance, color: "bg-sky-400" },
    { label: "HOA dues", amount: result.monthly.hoaDues, color: "bg-slate-500" },
  ];
}

/** Whether the balance reaches 80% only after PMI has ended automatically (the middle of the term came first). */
export const requestIsMoot = (end: NonNullable<MortgageResult["pmiEnd"]>) => monthIndex(end.request) > monthIndex(end.automatic);

/** When PMI ends, in words; null without PMI. */
export function pmiNote(inputs: MortgageInputs, result: MortgageResult): string | null {
  if (!(inputs.pmi > 0)) return null;
  const end = result.pmiEnd;
  if (!end) return "No PMI is charged: the loan starts at or below 78% of the home price.";
  const months = result.totals.pmiPayments;
  const paid = `PMI is paid for ${months} ${months === 1 ? "month" : "months"}, through ${formatYearMonth(end.lastCharged)}`;
  const requestBalance = formatMoney(inputs.homePrice * PMI_REQUEST_RATIO);
  if (monthIndex(end.lastCharged) < monthIndex(end.automatic))
    return `${paid}, when you ask your lender to cancel it: the balance then reaches 80% of the home price (${requestBalance}).`;
  if (end.automaticBy === "midpoint")
    return `${paid}, the middle of the loan's term: the law ends it then even though the balance is still above 78% of the home price (${formatMoney(result.pmiCutoffBalance)}).`;
  return `${paid}, until the balance is scheduled to reach 78% of the home price (${formatMoney(result.pmiCutoffBalance)}) on the original schedule.`;
}

export function MortgageResults({ inputs, result }: { inputs: MortgageInputs; result: MortgageResult }) {
  const lines = breakdownLines(inputs, result);
  const { totals, baseline } = result;
  const hasExtras = result.totalExtraPaid > 0;
  const note = pmiNote(inputs, result);
  return (
    <div className="space-y-6">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6" data-testid="monthly-payment">
        <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Monthly payment</p>
        <p className="mt-1 font-serif text-4xl font-bold text-brand-900 sm:text-5xl" aria-live="polite" aria-atomic="true">
          <span className="sr-only">Total monthly payment: </span>
          <span data-testid="monthly-total">{formatMoney(result.monthly.total)}</span>
        </p>
        <div className="mt-5 flex h-3 overflow-hidden rounded-full bg-slate-100" aria-hidden>
          {lines.map((line) =>
            line.amount > 0 ? (
              <div key={line.label} className={line.color} style={{ width: `${(line.amount / result.monthly.total) * 100}%` }} />
            ) : null,
          )}
        </div>
        <dl className="mt-5 divide-y divide-slate-100 text-sm sm:text-base">
          {lines.map((line) => (
            <div key={line.label} className="flex items-center justify-between gap-4 py-2">
              <dt className="flex items-center gap-2 text-slate-700">
                <span className={`h-3 w-3 shrink-0 rounded-sm ${line.color}`} aria-hidden />
                {line.label}
              </dt>
              <dd className="font-semibold tabular-nums text-slate-900">{formatMoney(line.amount)}</dd>
            </div>
          ))}
          <div className="flex items-center justify-between gap-4 pt-3">
            <dt className="font-semibold text-slate-900">Total monthly payment</dt>
            <dd className="font-bold tabular-nums text-brand-900">{formatMoney(result.monthly.total)}</dd>
          </div>
        </dl>
        {note ? (
          <p className="mt-3 text-sm text-slate-600" data-testid="pmi-note">
            {note}
          </p>
        ) : null}
        {result.pmiEnd ? (
          <dl className="mt-3 grid gap-3 rounded-xl bg-slate-50 p-4 text-sm sm:grid-cols-2" data-testid="pmi-dates">
            <div>
              <dt className="text-slate-600">PMI ends automatically</dt>
              <dd className="font-semibold text-slate-900">{formatYearMonth(result.pmiEnd.automatic)}</dd>
              <dd className="text-xs text-slate-600">
                {result.pmiEnd.automaticBy === "midpoint"
                  ? "The middle of the loan's term, which comes before 78%"
                  : "Balance scheduled to reach 78% of the home price"}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">PMI can be cancelled on request</dt>
              {requestIsMoot(result.pmiEnd) ? (
                <>
                  <dd className="font-semibold text-slate-900">Not needed</dd>
                  <dd className="text-xs text-slate-600">
                    It ends automatically before the balance reaches 80% of the home price ({formatYearMonth(result.pmiEnd.request)})
                  </dd>
                </>
              ) : (
                <>
                  <dd className="font-semibold text-slate-900">{formatYearMonth(result.pmiEnd.request)}</dd>
                  <dd className="text-xs text-slate-600">
                    {result.pmiEnd.requestMonthsSooner > 0
                      ? `Your extra payments bring this ${result.pmiEnd.requestMonthsSooner} ${result.pmiEnd.requestMonthsSooner === 1 ? "month" : "months"} forward (from ${formatYearMonth(result.pmiEnd.plainRequest)}).`
                      : "Balance reaches 80% of the home price"}
                  </dd>
                </>
              )}
            </div>
          </dl>
        ) : null}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Stat label="Loan amount" value={formatMoney(result.loanAmount)} />
        <Stat label="Payoff date" value={totals.payoffDate ? formatYearMonth(totals.payoffDate) : "—"} testId="payoff-date" />
        <Stat label="Total interest" value={formatMoney(totals.totalInterest)} testId="total-interest" />
        <Stat
          label="Total of payments"
          value={formatMoney(totals.totalInterest + totals.totalPrincipal)}
          sub={`${totals.payments} payments of principal and interest`}
        />
      </div>

      <div
        className={`rounded-2xl border p-5 sm:p-6 ${hasExtras ? "border-green-300 bg-green-50" : "border-slate-200 bg-slate-50"}`}
        data-testid="savings"
      >
        <h3 className="flex items-center gap-2 text-lg font-semibold text-brand-900">
          <PiggyBank className="h-5 w-5 text-green-700" aria-hidden />
          Extra payment savings
        </h3>
        {hasExtras ? (
          <>
            <dl className="mt-4 grid gap-4 sm:grid-cols-2">
              <SavingsItem label="Interest saved" value={formatMoney(result.interestSaved)} testId="interest-saved" />
              <SavingsItem
                label="Paid off sooner by"
                value={`${result.monthsSaved} ${result.monthsSaved === 1 ? "month" : "months"}`}
                sub={result.monthsSaved >= 12 ? formatDuration(result.monthsSaved) : undefined}
                testId="months-saved"
              />
              <SavingsItem label="New payoff date" value={totals.payoffDate ? formatYearMonth(totals.payoffDate) : "—"} />
              <SavingsItem
                label="Without extra payments"
                value={baseline.payoffDate ? formatYearMonth(baseline.payoffDate) : "—"}
                sub={`Total interest ${formatMoney(baseline.totalInterest)}`}
              />
            </dl>
            <p className="mt-4 text-sm text-slate-700">
              You pay {formatMoney(result.totalExtraPaid)} in extra payments.
              {result.pmiSaved > 0 ? ` PMI ends earlier, saving ${formatMoney(result.pmiSaved)} more.` : ""}
            </p>
          </>
        ) : (
          <p className="mt-2 text-slate-700">
            {inputs.extraPaymentAmount > 0 && !result.extraInRange
              ? `Your extra payments would start after the loan is paid off (${formatYearMonth(addMonths({ year: inputs.startYear, month: inputs.startMonth }, result.termMonths - 1))}).`
              : inputs.lumpSumAmount > 0 && !result.lumpSumInRange
                ? "Your lump sum falls outside the loan term, so it is not applied. Pick a month between the first and the last payment."
                : "Add an extra payment or a lump sum to see how much interest and time you save."}
          </p>
        )}
      </div>

      {result.biweekly ? <BiweeklyCard biweekly={result.biweekly} monthlyPayoff={baseline.payoffDate} /> : null}

      <p className="flex items-start gap-3 rounded-xl bg-brand-50 p-4 text-sm text-brand-900" data-testid="closing-costs">
        <Info className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden />
        <span>
          Closing costs are typically 2-5% of the home price
          {inputs.homePrice > 0
            ? `: about ${formatMoneyWhole(inputs.homePrice * CLOSING_COSTS.low)} to ${formatMoneyWhole(inputs.homePrice * CLOSING_COSTS.high)} for this home`
            : ""}
          . They are paid at closing and are not part of this monthly payment.
        </span>
      </p>

      <MortgageCharts result={result} />

      {inputs.showAmortization ? (
        <section aria-labelledby="amortization-heading" className="space-y-3">
          <h3 id="amortization-heading" className="flex items-center gap-2 text-lg font-semibold text-brand-900">
            <CalendarCheck className="h-5 w-5 text-brand-700" aria-hidden />
            Amortization schedule
          </h3>
          {result.schedule.length > SCREEN_ROWS ? (
            <p className="text-sm text-slate-700" data-testid="amortization-note">
              Showing first 10 years of payments. Total payments: {result.schedule.length}
            </p>
          ) : null}
          <AmortizationTable rows={result.schedule} limit={SCREEN_ROWS} scrollable />
        </section>
      ) : null}
    </div>
  );
}

function Stat({ label, value, sub, testId }: { label: string; value: string; sub?: ReactNode; testId?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-xl font-bold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      {sub ? <p className="mt-1 text-xs text-slate-600">{sub}</p> : null}
    </div>
  );
}

function SavingsItem({
  label,
  value,
  sub,
  testId,
  tone = "green",
}: {
  label: string;
  value: string;
  sub?: string;
  testId?: string;
  tone?: "green" | "sky";
}) {
  return (
    <div>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className={`text-xl font-bold tabular-nums ${tone === "green" ? "text-green-900" : "text-sky-950"}`} data-testid={testId}>
        {value}
      </dd>
      {sub ? <dd className="text-xs text-slate-700">{sub}</dd> : null}
    </div>
  );
}

function BiweeklyCard({
  biweekly,
  monthlyPayoff,
}: {
  biweekly: NonNullable<MortgageResult["biweekly"]>;
  monthlyPayoff: MortgageResult["baseline"]["payoffDate"];
}) {
  return (
    <div className="rounded-2xl border border-sky-200 bg-sky-50 p-5 sm:p-6" data-testid="biweekly">
      <h3 className="flex items-center gap-2 text-lg font-semibold text-brand-900">
        <CalendarRange className="h-5 w-5 text-sky-700" aria-hidden />
        Biweekly payments
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Half the monthly principal and interest every two weeks: 26 half payments a year, one monthly payment more than paying monthly.
        Compared with monthly payments on the same loan, without extra payments.
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <SavingsItem label="Every two weeks" value={formatMoney(biweekly.payment)} tone="sky" />
        <SavingsItem
          label="Payoff date"
          value={formatYearMonth(biweekly.payoffDate)}
          sub={monthlyPayoff ? `Monthly: ${formatYearMonth(monthlyPayoff)}` : undefined}
          tone="sky"
        />
        <SavingsItem label="Interest saved" value={formatMoney(biweekly.interestSaved)} testId="biweekly-interest-saved" tone="sky" />
        <SavingsItem
          label="Paid off sooner by"
          value={`${biweekly.monthsSaved} ${biweekly.monthsSaved === 1 ? "month" : "months"}`}
          sub={biweekly.monthsSaved >= 12 ? formatDuration(biweekly.monthsSaved) : undefined}
          testId="biweekly-months-saved"
          tone="sky"
        />
      </dl>
    </div>
  );
}
