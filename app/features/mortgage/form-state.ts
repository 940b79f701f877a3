/**
 * The calculator form's typed text, turned into inputs: what the page computes with, what it
 * marks as wrong, and what it writes to the URL.
 */
import {
  DEFAULT_INPUTS,
  LIMITS,
  NUMERIC_FIELDS,
  checkField,
  readFrequency,
  readNumber,
  type MortgageInputs,
  type NumericField,
} from "./inputs";

export interface FormValues {
  numbers: Record<NumericField, string>;
  extraPaymentFrequency: string;
  showAmortization: boolean;
  pmiRequest: boolean;
  biweekly: boolean;
}

/** Fields that must hold a value; an empty amount or rate simply counts as 0. */
const REQUIRED: ReadonlySet<NumericField> = new Set([
  "loanTerm",
  "startMonth",
  "startYear",
  "extraPaymentStartMonth",
  "extraPaymentStartYear",
  "lumpSumMonth",
  "lumpSumYear",
]);

export function valuesFromInputs(inputs: MortgageInputs): FormValues {
  const numbers = {} as Record<NumericField, string>;
  for (const field of NUMERIC_FIELDS) numbers[field] = String(inputs[field]);
  return {
    numbers,
    extraPaymentFrequency: String(inputs.extraPaymentFrequency),
    showAmortization: inputs.showAmortization,
    pmiRequest: inputs.pmiRequest,
    biweekly: inputs.biweekly,
  };
}

export interface ReadForm {
  inputs: MortgageInputs;
  errors: Partial<Record<NumericField, string>>;
  valid: boolean;
}

export function readForm(values: FormValues): ReadForm {
  const inputs = { ...DEFAULT_INPUTS };
  const errors: Partial<Record<NumericField, string>> = {};
  for (const field of NUMERIC_FIELDS) {
    const raw = values.numbers[field];
    if (raw.trim() === "" && !REQUIRED.has(field)) {
      inputs[field] = 0;
      continue;
    }
    const problem = checkField(field, raw);
    if (problem) errors[field] = problem;
    const value = readNumber(raw);
    inputs[field] = value === null ? DEFAULT_INPUTS[field] : Math.min(LIMITS[field].max, Math.max(LIMITS[field].min, value));
  }
  inputs.extraPaymentFrequency = readFrequency(values.extraPaymentFrequency) ?? DEFAULT_INPUTS.extraPaymentFrequency;
  inputs.showAmortization = values.showAmortization;
  inputs.pmiRequest = values.pmiRequest;
  inputs.biweekly = values.biweekly;
  return { inputs, errors, valid: Object.keys(errors).length === 0 };
}
