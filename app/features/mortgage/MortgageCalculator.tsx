import { memo, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { AlertCircle, Calculator, Link2, Printer, RotateCcw } from "lucide-react";
import { calculateMortgage } from "./amortization";
import { readForm, valuesFromInputs, type FormValues } from "./form-state";
import { CALCULATOR_PATH, DEFAULT_INPUTS, FREQUENCIES, PRINT_PATH, loanAmountOf, type MortgageInputs, type NumericField } from "./inputs";
import { useDebouncedCallback } from "~/components/useDebouncedCallback";
import { MONTH_NAMES } from "~/platform/month-names";
import { formatMoney } from "./format";
import { MortgageResults } from "./MortgageResults";
import { ScenarioComparison } from "./ScenarioComparison";
import { comparisonHref, readScenarioText, scenarioText, type Scenario, type ScenarioText } from "./scenarios";

/** Rendered again only when the results it shows change, not on each key (see useDeferredValue below). */
const Results = memo(MortgageResults);

/**
 * Keeps the address bar on the current inputs without a router navigation (which would
 * re-run the site's loaders on every keystroke). The router's own history state is kept.
 */
function useAddressBar(href: string | null) {
  const { schedule, cancel } = useDebouncedCallback((next: string) => {
    if (window.location.pathname + window.location.search !== next) window.history.replaceState(window.history.state, "", next);
  }, 300);
  useEffect(() => {
    if (href === null) cancel();
    else schedule(href);
  }, [href, schedule, cancel]);
}

export function MortgageCalculator({ initial, initialScenarios = [] }: { initial: MortgageInputs; initialScenarios?: Scenario[] }) {
  const [values, setValues] = useState<FormValues>(() => valuesFromInputs(initial));
  const [scenarios, setScenarios] = useState<ScenarioText[]>(() => initialScenarios.map(scenarioText));
  const { inputs, errors, valid } = useMemo(() => readForm(values), [values]);
  // Scenarios with a wrong value stay out of the address until corrected.
  const validScenarios = useMemo(
    () => scenarios.map((t) => readScenarioText(t).scenario).filter((s): s is Scenario => s !== null),
    [scenarios],
  );
  const href = valid ? comparisonHref(CALCULATOR_PATH, inputs, validScenarios) : null;
  // The fields answer every key at once; the results (schedule, table, charts) follow at low
  // priority: React renders them in the background and drops that work when the next key
  // comes. At hydration the deferred values are the values, so the page hydrates as rendered.
  const shownValues = useDeferredValue(values);
  const shown = useMemo(() => readForm(shownValues), [shownValues]);
  const result = useMemo(() => (shown.valid ? calculateMortgage(shown.inputs) : null), [shown]);
  useAddressBar(href);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");

  const setNumber = (field: NumericField, value: string) => {
    setCopied("idle");
    setValues((v) => ({ ...v, numbers: { ...v.numbers, [field]: value } }));
  };
  const loanAmount = loanAmountOf(inputs);
  const downShare = inputs.homePrice > 0 ? (inputs.downPayment / inputs.homePrice) * 100 : null;

  async function copyLink() {
    if (href === null) return;
    try {
      await navigator.clipboard.writeText(new URL(href, window.location.origin).toString());
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  const field = (
    name: NumericField,
    label: string,
    opts: { prefix?: string; suffix?: string; hint?: ReactNode; decimal?: boolean } = {},
  ) => (
    <NumberField
      name={name}
      label={label}
      value={values.numbers[name]}
      error={errors[name]}
      onChange={(v) => setNumber(name, v)}
      {...opts}
    />
  );

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)] lg:items-start">
      <form
        method="get"
        action={CALCULATOR_PATH}
        noValidate
        aria-label="Mortgage calculator inputs"
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
        onSubmit={(e) => {
          e.preventDefault();
          if (href !== null) window.history.replaceState(window.history.state, "", href);
          const firstError = e.currentTarget.querySelector<HTMLElement>("[aria-invalid='true']");
          (firstError ?? resultsHeading.current)?.focus();
        }}
      >
        <Fieldset legend="Loan">
          {field("homePrice", "Home Price", { prefix: "$" })}
          {field("downPayment", "Down Payment", {
            prefix: "$",
            hint: downShare !== null && downShare >= 0 && downShare <= 100 ? `${downShare.toFixed(1)}% of the home price` : undefined,
          })}
          <div>
            <label htmlFor="loanAmount" className="field-label">
              Loan Amount
            </label>
            <input
              id="loanAmount"
              readOnly
              value={loanAmount === null ? "" : formatMoney(loanAmount)}
              aria-describedby="loanAmount-hint"
              className="field-input bg-slate-100 font-semibold text-slate-900"
            />
            <p id="loanAmount-hint" className="mt-1 text-sm text-slate-600">
              Home price minus down payment.
            </p>
          </div>
          <div className="grid grid-cols-2 gap-4">
            {field("loanTerm", "Loan Term (years)")}
            {field("interestRate", "Interest Rate (APR)", { suffix: "%", decimal: true })}
          </div>
          <MonthYear
            legend="First payment"
            month={{ name: "startMonth", value: values.numbers.startMonth }}
            year={{ name: "startYear", value: values.numbers.startYear, error: errors.startYear }}
            onChange={setNumber}
          />
        </Fieldset>

        <Fieldset legend="Monthly costs">
          {field("pmi", "PMI (% of loan amount per year)", {
            suffix: "%",
            decimal: true,
            hint: "Private mortgage insurance. It ends automatically when the balance is scheduled to reach 78% of the home price, or on request at 80%.",
          })}
          <Toggle
            name="pmiRequest"
            checked={values.pmiRequest}
            onChange={(checked) => setValues((v) => ({ ...v, pmiRequest: checked }))}
            label="I will ask my lender to cancel PMI at 80%"
          />
          {field("propertyTax", "Property Tax (per year)", { prefix: "$" })}
          {field("homeInsurance", "Home Insurance (per year)", { prefix: "$" })}
          {field("hoaDues", "HOA Dues (per month)", { prefix: "$" })}
        </Fieldset>

        <Fieldset legend="Extra payments">
          {field("extraPaymentAmount", "Extra Payment Amount", { prefix: "$" })}
          <div>
            <label htmlFor="extraPaymentFrequency" className="field-label">
              Extra Payment Frequency
            </label>
            <select
              id="extraPaymentFrequency"
              name="extraPaymentFrequency"
              value={values.extraPaymentFrequency}
              onChange={(e) => {
                const value = e.target.value;
                setValues((v) => ({ ...v, extraPaymentFrequency: value }));
              }}
              className="field-input"
            >
              {FREQUENCIES.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <MonthYear
            legend="Extra payments start"
            month={{ name: "extraPaymentStartMonth", value: values.numbers.extraPaymentStartMonth }}
            year={{ name: "extraPaymentStartYear", value: values.numbers.extraPaymentStartYear, error: errors.extraPaymentStartYear }}
            onChange={setNumber}
          />
        </Fieldset>

        <Fieldset legend="One-time lump sum">
          {field("lumpSumAmount", "Lump Sum Amount", { prefix: "$" })}
          <MonthYear
            legend="Lump sum paid in"
            month={{ name: "lumpSumMonth", value: values.numbers.lumpSumMonth }}
            year={{ name: "lumpSumYear", value: values.numbers.lumpSumYear, error: errors.lumpSumYear }}
            onChange={setNumber}
          />
        </Fieldset>

        <div className="space-y-2">
          <Toggle
            name="showAmortization"
            checked={values.showAmortization}
            onChange={(checked) => setValues((v) => ({ ...v, showAmortization: checked }))}
            label="Show amortization schedule"
          />
          <Toggle
            name="biweekly"
            checked={values.biweekly}
            onChange={(checked) => setValues((v) => ({ ...v, biweekly: checked }))}
            label="Compare biweekly payments"
          />
        </div>

        <div className="flex flex-col gap-3 sm:flex-row">
          <button type="submit" className="btn-primary px-6 py-3 text-base">
            <Calculator className="h-4 w-4" aria-hidden />
            Calculate
          </button>
          <button
            type="button"
            className="btn-outline px-6 py-3 text-base"
            onClick={() => {
              setValues(valuesFromInputs(DEFAULT_INPUTS));
              setScenarios([]);
            }}
          >
            <RotateCcw className="h-4 w-4" aria-hidden />
            Reset
          </button>
        </div>
      </form>

      <section aria-labelledby="results-heading" className="min-w-0 space-y-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2
            id="results-heading"
            ref={resultsHeading}
            tabIndex={-1}
            className="font-serif text-2xl font-bold text-brand-900 focus:outline-none"
          >
            Your results
          </h2>
          {result ? (
            <div className="flex flex-wrap gap-2">
              <button type="button" className="btn-outline" onClick={copyLink}>
                <Link2 className="h-4 w-4" aria-hidden />
                Copy link
              </button>
              <a href={comparisonHref(PRINT_PATH, shown.inputs, validScenarios)} className="btn-primary">
                <Printer className="h-4 w-4" aria-hidden />
                Print / Save as PDF
              </a>
            </div>
          ) : null}
        </div>
        <p role="status" className={copied === "idle" ? "sr-only" : "text-sm text-slate-700"}>
          {copied === "copied"
            ? "Link copied. Anyone with the link sees these results."
            : copied === "failed"
              ? "Could not copy: copy the address from the address bar instead."
              : ""}
        </p>
        {result ? (
          <>
            <Results inputs={shown.inputs} result={result} />
            <ScenarioComparison
              base={shown.inputs}
              baseResult={result}
              scenarios={scenarios}
              onChange={(next) => {
                setCopied("idle");
                setScenarios(next);
              }}
            />
          </>
        ) : (
          <div className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950" data-testid="no-result">
            <AlertCircle className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden />
            <p>
              {shown.valid
                ? "Enter a home price above the down payment, an interest rate above 0 and a loan term to see your payment."
                : "Please correct the highlighted fields to see your payment."}
            </p>
          </div>
        )}
      </section>
    </div>
  );
}

function Toggle({
  name,
  checked,
  onChange,
  label,
}: {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
}) {
  return (
    <label className="flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-3 text-sm font-medium text-slate-800">
      <input
        type="checkbox"
        name={name}
        value="1"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-5 w-5 rounded border-slate-400 accent-brand-700"
      />
      {label}
    </label>
  );
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-3 border-b border-slate-200 pb-2 text-base font-semibold text-brand-900 w-full">{legend}</legend>
      {children}
    </fieldset>
  );
}

function NumberField({
  name,
  label,
  value,
  error,
  onChange,
  prefix,
  suffix,
  hint,
  decimal,
}: {
  name: NumericField;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  prefix?: string;
  suffix?: string;
  hint?: ReactNode;
  decimal?: boolean;
}) {
  const hintId = hint ? `${name}-hint` : undefined;
  const errorId = error ? `${name}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={name} className="field-label">
        {label}
      </label>
      <div className="relative">
        {prefix ? (
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-600" aria-hidden>
            {prefix}
          </span>
        ) : null}
        <input
          id={name}
          name={name}
          type="text"
          inputMode={decimal ? "decimal" : "numeric"}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`field-input ${prefix ? "pl-7" : ""} ${suffix ? "pr-8" : ""}`}
        />
        {suffix ? (
          <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-600" aria-hidden>
            {suffix}
          </span>
        ) : null}
      </div>
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error flex items-start gap-1.5">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}

function MonthYear({
  legend,
  month,
  year,
  onChange,
}: {
  legend: string;
  month: { name: NumericField; value: string };
  year: { name: NumericField; value: string; error?: string };
  onChange: (field: NumericField, value: string) => void;
}) {
  const errorId = year.error ? `${year.name}-error` : undefined;
  return (
    <fieldset>
      <legend className="field-label">{legend}</legend>
      <div className="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] gap-3">
        <div>
          <label htmlFor={month.name} className="sr-only">
            {legend}: month
          </label>
          <select
            id={month.name}
            name={month.name}
            value={month.value}
            onChange={(e) => onChange(month.name, e.target.value)}
            className="field-input"
          >
            {MONTH_NAMES.map((name, i) => (
              <option key={name} value={String(i + 1)}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={year.name} className="sr-only">
            {legend}: year
          </label>
          <input
            id={year.name}
            name={year.name}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={year.value}
            onChange={(e) => onChange(year.name, e.target.value)}
            aria-invalid={year.error ? true : undefined}
            aria-describedby={errorId}
            className="field-input"
          />
        </div>
      </div>
      {year.error ? (
        <p id={errorId} className="field-error flex items-start gap-1.5">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>{year.error}</span>
        </p>
      ) : null}
    </fieldset>
  );
}
