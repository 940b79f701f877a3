/**
 * The calculator's inputs (spec section 3, "Mortgage inputs"), their defaults and limits, and
 * their round trip through the page URL, so that a result can be shared or bookmarked.
 * Anything a URL can carry is turned into usable inputs: unreadable values fall back to the
 * default, out-of-range values are clamped. Nothing here throws.
 */

export type PaymentFrequency = 12 | 4 | 1;

export interface MortgageInputs {
  homePrice: number;
  downPayment: number;
  loanTerm: number;
  startMonth: number;
  startYear: number;
  interestRate: number;
  pmi: number;
  propertyTax: number;
  homeInsurance: number;
  hoaDues: number;
  extraPaymentStartMonth: number;
  extraPaymentStartYear: number;
  extraPaymentAmount: number;
  extraPaymentFrequency: PaymentFrequency;
  lumpSumMonth: number;
  lumpSumYear: number;
  lumpSumAmount: number;
  showAmortization: boolean;
  /** The borrower asks the lender to cancel PMI once the balance reaches 80% (Homeowners Protection Act). */
  pmiRequest: boolean;
  /** Show biweekly payments (26 half payments a year) beside monthly ones. */
  biweekly: boolean;
}

type FlagField = "showAmortization" | "pmiRequest" | "biweekly";
export type NumericField = Exclude<keyof MortgageInputs, FlagField | "extraPaymentFrequency">;

/** Spec section 9 fixes term, start dates and frequency; the amounts are a typical purchase. */
export const DEFAULT_INPUTS: MortgageInputs = {
  homePrice: 400_000,
  downPayment: 40_000,
  loanTerm: 30,
  startMonth: 1,
  startYear: 2025,
  interestRate: 6.5,
  pmi: 0.5,
  propertyTax: 4_800,
  homeInsurance: 1_500,
  hoaDues: 0,
  extraPaymentStartMonth: 1,
  extraPaymentStartYear: 2027,
  extraPaymentAmount: 0,
  extraPaymentFrequency: 12,
  lumpSumMonth: 1,
  lumpSumYear: 2027,
  lumpSumAmount: 0,
  showAmortization: false,
  pmiRequest: false,
  biweekly: false,
};

export interface NumericLimit {
  min: number;
  max: number;
  integer?: boolean;
}

const MONEY = { min: 0, max: 100_000_000 };
const MONTH = { min: 1, max: 12, integer: true };
const YEAR = { min: 1950, max: 2200, integer: true };

export const LIMITS: Record<NumericField, NumericLimit> = {
  homePrice: MONEY,
  downPayment: MONEY,
  loanTerm: { min: 1, max: 50, integer: true },
  startMonth: MONTH,
  startYear: YEAR,
  interestRate: { min: 0, max: 30 },
  pmi: { min: 0, max: 5 },
  propertyTax: { min: 0, max: 10_000_000 },
  homeInsurance: { min: 0, max: 10_000_000 },
  hoaDues: { min: 0, max: 1_000_000 },
  extraPaymentStartMonth: MONTH,
  extraPaymentStartYear: YEAR,
  extraPaymentAmount: MONEY,
  lumpSumMonth: MONTH,
  lumpSumYear: YEAR,
  lumpSumAmount: MONEY,
};

export const NUMERIC_FIELDS = Object.keys(LIMITS) as NumericField[];
export const FLAG_FIELDS: readonly FlagField[] = ["showAmortization", "pmiRequest", "biweekly"];

export const FREQUENCIES: ReadonlyArray<{ value: PaymentFrequency; label: string }> = [
  { value: 12, label: "Monthly" },
  { value: 4, label: "Quarterly" },
  { value: 1, label: "Yearly" },
];

/** Reads a number as people type it: "250,000", "$1,500", " 6.5 ". Null when it is not one. */
export function readNumber(raw: string | null | undefined): number | null {
  if (raw == null) return null;
  const cleaned = raw.trim().replace(/[$,\s_]/g, "");
  if (cleaned === "" || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

export function clampToLimit(value: number, limit: NumericLimit): number {
  const bounded = Math.min(limit.max, Math.max(limit.min, value));
  return limit.integer ? Math.round(bounded) : bounded;
}

/** Whether a typed value is a number within its field's limits (the form marks it otherwise). */
export function checkField(field: NumericField, raw: string): string | null {
  const limit = LIMITS[field];
  const value = readNumber(raw);
  if (value === null || value < limit.min || value > limit.max) {
    return `Enter a number from ${limit.min.toLocaleString("en-US")} to ${limit.max.toLocaleString("en-US")}.`;
  }
  if (limit.integer && !Number.isInteger(value)) return "Enter a whole number.";
  return null;
}

export function readFrequency(raw: string | null | undefined): PaymentFrequency | null {
  const value = readNumber(raw);
  return value === 12 || value === 4 || value === 1 ? value : null;
}

export function readFlag(raw: string | null | undefined): boolean | null {
  if (raw == null) return null;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off", ""].includes(v)) return false;
  return null;
}

/** Every address parameter parseInputs reads, in the order a kept page's address lists them. */
export const INPUT_PARAMS: readonly string[] = [...NUMERIC_FIELDS, "extraPaymentFrequency", ...FLAG_FIELDS];

/** Inputs from any key/value source (URL search params, a form's current strings). */
export function parseInputs(source: { get(name: string): string | null }): MortgageInputs {
  const inputs = { ...DEFAULT_INPUTS };
  for (const field of NUMERIC_FIELDS) {
    const value = readNumber(source.get(field));
    inputs[field] = value === null ? DEFAULT_INPUTS[field] : clampToLimit(value, LIMITS[field]);
  }
  inputs.extraPaymentFrequency = readFrequency(source.get("extraPaymentFrequency")) ?? DEFAULT_INPUTS.extraPaymentFrequency;
  for (const flag of FLAG_FIELDS) inputs[flag] = readFlag(source.get(flag)) ?? DEFAULT_INPUTS[flag];
  return inputs;
}

/** The URL query for a set of inputs; only values that differ from the defaults are written. */
export function toSearchParams(inputs: MortgageInputs): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of NUMERIC_FIELDS) {
    if (inputs[field] !== DEFAULT_INPUTS[field]) params.set(field, String(inputs[field]));
  }
  if (inputs.extraPaymentFrequency !== DEFAULT_INPUTS.extraPaymentFrequency) {
    params.set("extraPaymentFrequency", String(inputs.extraPaymentFrequency));
  }
  for (const flag of FLAG_FIELDS) if (inputs[flag]) params.set(flag, "1");
  return params;
}

export const CALCULATOR_PATH = "/mortgage-calculator";
export const PRINT_PATH = "/mortgage-calculator/print";

/** The page URL for a set of inputs (what the address bar, the share link and the print view use). */
export function calculatorHref(path: string, inputs: MortgageInputs): string {
  const query = toSearchParams(inputs).toString();
  return query ? `${path}?${query}` : path;
}

/** Home price minus down payment; null (shown blank) when not positive. */
export function loanAmountOf(inputs: Pick<MortgageInputs, "homePrice" | "downPayment">): number | null {
  const amount = inputs.homePrice - inputs.downPayment;
  return amount > 0 ? amount : null;
}
