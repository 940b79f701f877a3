/**
 * Up to three loans side by side: the form's own (scenario 1) and at most two more, each
 * differing in price, down payment, rate, term and extra monthly payment, everything else taken
 * from the form. Kept in the address as s2 and s3 ("400000,40000,6.5,30,0"), so a comparison
 * can be shared; anything else a URL carries there is ignored.
 */
import { checkField, clampToLimit, LIMITS, readNumber, toSearchParams, type MortgageInputs } from "./inputs";

export const SCENARIO_FIELDS = ["homePrice", "downPayment", "interestRate", "loanTerm", "extraPaymentAmount"] as const;
export type ScenarioField = (typeof SCENARIO_FIELDS)[number];
export type Scenario = Record<ScenarioField, number>;

/** The form's scenario and at most this many more. */
export const MAX_EXTRA_SCENARIOS = 2;
/** URL parameters of the extra scenarios, in order. */
export const SCENARIO_PARAMS = ["s2", "s3"] as const;

export const SCENARIO_LABELS: Record<ScenarioField, string> = {
  homePrice: "Home price",
  downPayment: "Down payment",
  interestRate: "Interest rate (%)",
  loanTerm: "Loan term (years)",
  extraPaymentAmount: "Extra payment",
};

export function scenarioOf(inputs: MortgageInputs): Scenario {
  return Object.fromEntries(SCENARIO_FIELDS.map((f) => [f, inputs[f]])) as Scenario;
}

/** One scenario from its URL value; null unless it holds exactly the five numbers. Out-of-range values are clamped. */
export function parseScenario(raw: string | null | undefined): Scenario | null {
  if (!raw || raw.length > 200) return null;
  const parts = raw.split(",");
  if (parts.length !== SCENARIO_FIELDS.length) return null;
  const scenario = {} as Scenario;
  for (const [i, field] of SCENARIO_FIELDS.entries()) {
    const value = readNumber(parts[i]);
    if (value === null) return null;
    scenario[field] = clampToLimit(value, LIMITS[field]);
  }
  return scenario;
}

/** The extra scenarios of a URL, in order, skipping unreadable ones. */
export function parseScenarios(source: { get(name: string): string | null }): Scenario[] {
  return SCENARIO_PARAMS.map((name) => parseScenario(source.get(name))).filter((s): s is Scenario => s !== null);
}

export function scenarioParam(scenario: Scenario): string {
  return SCENARIO_FIELDS.map((f) => String(scenario[f])).join(",");
}

/** Writes the extra scenarios (at most two) into a URL query. */
export function setScenarioParams(params: URLSearchParams, scenarios: readonly Scenario[]): URLSearchParams {
  scenarios.slice(0, MAX_EXTRA_SCENARIOS).forEach((s, i) => params.set(SCENARIO_PARAMS[i], scenarioParam(s)));
  return params;
}

/** The page URL for the form's inputs and the extra scenarios (what the address bar and the share link hold). */
export function comparisonHref(path: string, inputs: MortgageInputs, scenarios: readonly Scenario[]): string {
  const query = setScenarioParams(toSearchParams(inputs), scenarios).toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The inputs a scenario is computed with: the form's, with the scenario's five values. The
 * extra payment is monthly from the form's start date; no lump sum (it belongs to the form's
 * loan). Biweekly payments are compared when the form compares them.
 */
export function scenarioInputs(base: MortgageInputs, scenario: Scenario): MortgageInputs {
  return { ...base, ...scenario, extraPaymentFrequency: 12, lumpSumAmount: 0, showAmortization: false };
}

/** A scenario as typed: text per field, with what is wrong with each. */
export type ScenarioText = Record<ScenarioField, string>;

export function scenarioText(scenario: Scenario): ScenarioText {
  return Object.fromEntries(SCENARIO_FIELDS.map((f) => [f, String(scenario[f])])) as ScenarioText;
}

export function readScenarioText(text: ScenarioText): { scenario: Scenario | null; errors: Partial<Record<ScenarioField, string>> } {
  const errors: Partial<Record<ScenarioField, string>> = {};
  const scenario = {} as Scenario;
  for (const field of SCENARIO_FIELDS) {
    const raw = text[field];
    // An empty amount counts as 0, as on the form; the rate and the term must be given.
    if (raw.trim() === "" && (field === "downPayment" || field === "extraPaymentAmount")) {
      scenario[field] = 0;
      continue;
    }
    const problem = checkField(field, raw);
    if (problem) errors[field] = problem;
    else scenario[field] = readNumber(raw)!;
  }
  return { scenario: Object.keys(errors).length ? null : scenario, errors };
}
