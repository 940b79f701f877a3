/**
 * Fixed-rate mortgage math: the monthly payment, the amortization schedule with extra payments
 * and a lump sum, PMI as the Homeowners Protection Act ends it, the comparison with the plain
 * schedule and with biweekly payments. Pure functions, shared by the page, its print view and
 * the tests. Amounts are kept unrounded; the page rounds to cents for display.
 */
import { loanAmountOf, type MortgageInputs, type PaymentFrequency } from "./inputs";

/**
 * Homeowners Protection Act: PMI ends automatically once the balance is scheduled to reach
 * 78% of the original value on the original amortization schedule (whatever was prepaid),
 * and in any case after the payment at the middle of the term (final termination, which
 * comes first on high rates and small down payments); the borrower may ask for it to end
 * once the balance actually reaches 80%.
 */
export const PMI_CUTOFF_RATIO = 0.78;
export const PMI_REQUEST_RATIO = 0.8;

/** Balances below half a cent count as paid off (floating-point leftovers). */
const PAID_OFF = 0.005;

export interface YearMonth {
  year: number;
  /** 1-12 */
  month: number;
}

export interface AmortizationRow {
  paymentNumber: number;
  paymentDate: YearMonth;
  /** All principal repaid this month, extra payments and lump sum included. */
  principalPayment: number;
  /** The part of principalPayment that was an extra payment or the lump sum. */
  extraPayment: number;
  interestPayment: number;
  /** principalPayment + interestPayment */
  totalPayment: number;
  pmiPayment: number;
  remainingBalance: number;
}

export interface ScheduleOptions {
  loanAmount: number;
  annualRatePercent: number;
  termMonths: number;
  start: YearMonth;
  /** Monthly PMI charged while the balance at the start of a month is above pmiCutoffBalance. */
  pmiMonthly?: number;
  pmiCutoffBalance?: number;
  extra?: { amount: number; start: YearMonth; frequency: PaymentFrequency };
  lumpSum?: { amount: number; date: YearMonth };
}

export interface ScheduleTotals {
  payments: number;
  totalInterest: number;
  totalPrincipal: number;
  totalPmi: number;
  pmiPayments: number;
  payoffDate: YearMonth | null;
}

/** Standard fixed-rate payment, monthly rate = APR / 12; a 0% loan is repaid in equal parts. */
export function monthlyPayment(principal: number, annualRatePercent: number, termMonths: number): number {
  if (!(principal > 0) || !(termMonths > 0)) return 0;
  const r = annualRatePercent / 100 / 12;
  if (r === 0) return principal / termMonths;
  return (principal * r) / (1 - Math.pow(1 + r, -termMonths));
}

export function monthIndex(date: YearMonth): number {
  return date.year * 12 + (date.month - 1);
}

export function addMonths(date: YearMonth, months: number): YearMonth {
  const index = monthIndex(date) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The extra payment falls due in its start month and then every 12 / frequency months. */
function extraDue(extra: ScheduleOptions["extra"], paymentIndex: number): number {
  if (!extra || !(extra.amount > 0)) return 0;
  const since = paymentIndex - monthIndex(extra.start);
  return since >= 0 && since % (12 / extra.frequency) === 0 ? extra.amount : 0;
}

export function buildSchedule(options: ScheduleOptions): AmortizationRow[] {
  const { loanAmount, annualRatePercent, termMonths, start } = options;
  const rows: AmortizationRow[] = [];
  if (!(loanAmount > 0) || !(termMonths > 0)) return rows;
  const r = annualRatePercent / 100 / 12;
  const payment = monthlyPayment(loanAmount, annualRatePercent, termMonths);
  const pmiMonthly = options.pmiMonthly ?? 0;
  const pmiCutoff = options.pmiCutoffBalance ?? Infinity;
  const lumpIndex = options.lumpSum && options.lumpSum.amount > 0 ? monthIndex(options.lumpSum.date) : null;
  let balance = loanAmount;

  for (let n = 1; n <= termMonths && balance > PAID_OFF; n++) {
    const date = addMonths(start, n - 1);
    const index = monthIndex(date);
    const pmiPayment = pmiMonthly > 0 && balance > pmiCutoff ? pmiMonthly : 0;
    const interest = balance * r;
    // The last scheduled payment repays whatever floating-point rounding left over.
    let principal = n === termMonths ? balance : Math.min(payment - interest, balance);
    let extra = extraDue(options.extra, index) + (index === lumpIndex ? options.lumpSum!.amount : 0);
    extra = Math.min(extra, balance - principal);
    principal += extra;
    balance -= principal;
    if (balance < PAID_OFF) balance = 0;
    rows.push({
      paymentNumber: n,
      paymentDate: date,
      principalPayment: principal,
      extraPayment: extra,
      interestPayment: interest,
      totalPayment: principal + interest,
      pmiPayment,
      remainingBalance: balance,
    });
  }
  return rows;
}

export function totalsOf(rows: readonly AmortizationRow[]): ScheduleTotals {
  let totalInterest = 0;
  let totalPrincipal = 0;
  let totalPmi = 0;
  let pmiPayments = 0;
  for (const row of rows) {
    totalInterest += row.interestPayment;
    totalPrincipal += row.principalPayment;
    totalPmi += row.pmiPayment;
    if (row.pmiPayment > 0) pmiPayments++;
  }
  const last = rows.at(-1);
  return { payments: rows.length, totalInterest, totalPrincipal, totalPmi, pmiPayments, payoffDate: last ? last.paymentDate : null };
}

export interface MonthlyBreakdown {
  principalAndInterest: number;
  /** PMI of the first month (0 when the loan starts at or below 78% of the home price). */
  pmi: number;
  propertyTax: number;
  homeInsurance: number;
  hoaDues: number;
  total: number;
}

export interface MortgageResult {
  loanAmount: number;
  termMonths: number;
  monthly: MonthlyBreakdown;
  /** PMI per month while it applies: the annual PMI percentage of the loan amount / 12. */
  pmiMonthly: number;
  pmiCutoffBalance: number;
  /** The schedule with extra payments and the lump sum applied. */
  schedule: AmortizationRow[];
  totals: ScheduleTotals;
  /** The plain schedule: the same loan without extra payments or lump sum. */
  plainSchedule: AmortizationRow[];
  baseline: ScheduleTotals;
  interestSaved: number;
  monthsSaved: number;
  pmiSaved: number;
  totalExtraPaid: number;
  /** Whether the lump sum's month falls inside the plain schedule (otherwise it is never paid). */
  lumpSumInRange: boolean;
  extraInRange: boolean;
  /** When PMI ends; null when the loan starts at or below 78% of the home price or PMI is 0. */
  pmiEnd: PmiEnd | null;
  /** Biweekly payments of the same loan (without extras), when asked for. */
  biweekly: BiweeklyComparison | null;
}

export interface PmiEnd {
  /** The last month PMI is charged when it ends automatically: the original schedule reaches 78%, or the middle of the term. */
  automatic: YearMonth;
  /** Why it ends then: "78%" of the home price reached on the original schedule, or the "midpoint" of the term came first. */
  automaticBy: "78%" | "midpoint";
  /** The month the balance, with extra payments, first reaches 80%: cancellation may be asked for from then on. */
  request: YearMonth;
  /** The same on the original schedule (no extras). */
  plainRequest: YearMonth;
  /** How many months sooner extra payments let the borrower ask. */
  requestMonthsSooner: number;
  /** The last month PMI is charged in the schedule shown (the request month when the borrower asks, else the automatic one). */
  lastCharged: YearMonth;
}

/** The first row whose balance after the payment is at or below `limit` (the last row if none). */
function firstAtOrBelow(rows: readonly AmortizationRow[], limit: number): AmortizationRow | undefined {
  return rows.find((r) => r.remainingBalance <= limit + PAID_OFF) ?? rows.at(-1);
}

/** PMI charged in each month up to and including `through`; the rows are otherwise unchanged. */
function withPmi(rows: AmortizationRow[], pmiMonthly: number, through: YearMonth | null): AmortizationRow[] {
  const last = through ? monthIndex(through) : -Infinity;
  return rows.map((r) => ({ ...r, pmiPayment: pmiMonthly > 0 && monthIndex(r.paymentDate) <= last ? pmiMonthly : 0 }));
}

/**
 * The calculator's answer, or null until the loan amount, the rate and the term are each above
 * 0 (spec section 5: computation runs only then).
 */
export function calculateMortgage(inputs: MortgageInputs): MortgageResult | null {
  const loanAmount = loanAmountOf(inputs);
  if (loanAmount === null || !(inputs.interestRate > 0) || !(inputs.loanTerm > 0)) return null;
  const termMonths = Math.round(inputs.loanTerm * 12);
  const start = { year: inputs.startYear, month: inputs.startMonth };
  const pmiMonthly = (loanAmount * inputs.pmi) / 100 / 12;
  const pmiCutoffBalance = inputs.homePrice * PMI_CUTOFF_RATIO;
  const common = { loanAmount, annualRatePercent: inputs.interestRate, termMonths, start };

  const extra = {
    amount: inputs.extraPaymentAmount,
    start: { year: inputs.extraPaymentStartYear, month: inputs.extraPaymentStartMonth },
    frequency: inputs.extraPaymentFrequency,
  };
  const lumpSum = { amount: inputs.lumpSumAmount, date: { year: inputs.lumpSumYear, month: inputs.lumpSumMonth } };
  const plainPrincipal = buildSchedule(common);
  const principal = buildSchedule({ ...common, extra, lumpSum });

  // PMI applies while the loan starts above 78% of the price; it ends on the original
  // schedule's 78% month, or on the 80% month with extras when the borrower asks.
  let pmiEnd: PmiEnd | null = null;
  if (pmiMonthly > 0 && loanAmount > pmiCutoffBalance + PAID_OFF && plainPrincipal.length) {
    const scheduled = firstAtOrBelow(plainPrincipal, pmiCutoffBalance)!.paymentDate;
    const midpoint = plainPrincipal[Math.min(plainPrincipal.length, Math.ceil(termMonths / 2)) - 1].paymentDate;
    const automaticBy = monthIndex(midpoint) < monthIndex(scheduled) ? "midpoint" : "78%";
    const automatic = automaticBy === "midpoint" ? midpoint : scheduled;
    const requestLimit = inputs.homePrice * PMI_REQUEST_RATIO;
    const request = firstAtOrBelow(principal, requestLimit)!.paymentDate;
    const plainRequest = firstAtOrBelow(plainPrincipal, requestLimit)!.paymentDate;
    const asked = inputs.pmiRequest && monthIndex(request) < monthIndex(automatic);
    pmiEnd = {
      automatic,
      automaticBy,
      request,
      plainRequest,
      requestMonthsSooner: Math.max(0, monthIndex(plainRequest) - monthIndex(request)),
      lastCharged: asked ? request : automatic,
    };
  }
  const plainRows = withPmi(plainPrincipal, pmiMonthly, pmiEnd ? (inputs.pmiRequest ? pmiEnd.plainRequest : pmiEnd.automatic) : null);
  const schedule = withPmi(principal, pmiMonthly, pmiEnd?.lastCharged ?? null);

  const baseline = totalsOf(plainRows);
  const totals = totalsOf(schedule);
  const first = monthIndex(start);
  const last = first + termMonths - 1;
  const lumpIndex = monthIndex(lumpSum.date);
  const pAndI = monthlyPayment(loanAmount, inputs.interestRate, termMonths);
  const firstPmi = plainRows[0]?.pmiPayment ?? 0;
  const monthly: MonthlyBreakdown = {
    principalAndInterest: pAndI,
    pmi: firstPmi,
    propertyTax: inputs.propertyTax / 12,
    homeInsurance: inputs.homeInsurance / 12,
    hoaDues: inputs.hoaDues,
    total: 0,
  };
  monthly.total = monthly.principalAndInterest + monthly.pmi + monthly.propertyTax + monthly.homeInsurance + monthly.hoaDues;

  return {
    loanAmount,
    termMonths,
    monthly,
    pmiMonthly,
    pmiCutoffBalance,
    schedule,
    totals,
    plainSchedule: plainRows,
    baseline,
    interestSaved: Math.max(0, baseline.totalInterest - totals.totalInterest),
    monthsSaved: baseline.payments - totals.payments,
    pmiSaved: Math.max(0, baseline.totalPmi - totals.totalPmi),
    totalExtraPaid: schedule.reduce((sum, row) => sum + row.extraPayment, 0),
    lumpSumInRange: lumpIndex >= first && lumpIndex <= last,
    extraInRange: monthIndex(extra.start) <= last,
    pmiEnd,
    biweekly: inputs.biweekly ? biweeklyComparison(loanAmount, inputs.interestRate, termMonths, start, baseline) : null,
  };
}

export interface BiweeklyComparison {
  /** Half the monthly principal and interest, paid every two weeks. */
  payment: number;
  payments: number;
  totalInterest: number;
  payoffDate: YearMonth;
  /** Against monthly payments of the same loan. */
  interestSaved: number;
  monthsSaved: number;
}

/**
 * Biweekly payments: half the monthly payment every 14 days from the first payment's month,
 * 26 a year (13 monthly payments' worth). Interest accrues per 14-day period at APR / 26, as
 * lenders that really take biweekly payments charge it; the extra half payments each year go
 * to principal. Compared with monthly payments of the same loan without extras.
 */
export function biweeklyComparison(
  loanAmount: number,
  annualRatePercent: number,
  termMonths: number,
  start: YearMonth,
  monthly: Pick<ScheduleTotals, "totalInterest" | "payoffDate">,
): BiweeklyComparison | null {
  if (!(loanAmount > 0) || !(termMonths > 0) || !monthly.payoffDate) return null;
  const payment = monthlyPayment(loanAmount, annualRatePercent, termMonths) / 2;
  const r = annualRatePercent / 100 / 26;
  let balance = loanAmount;
  let totalInterest = 0;
  let payments = 0;
  // At most as many periods as the monthly term holds: the half payment always covers the period's interest.
  const maxPeriods = Math.ceil((termMonths * 26) / 12);
  while (balance > PAID_OFF && payments < maxPeriods) {
    const interest = balance * r;
    balance -= Math.min(payment - interest, balance);
    totalInterest += interest;
    payments++;
  }
  const first = Date.UTC(start.year, start.month - 1, 1);
  const last = new Date(first + (payments - 1) * 14 * 86_400_000);
  const payoffDate = { year: last.getUTCFullYear(), month: last.getUTCMonth() + 1 };
  return {
    payment,
    payments,
    totalInterest,
    payoffDate,
    interestSaved: Math.max(0, monthly.totalInterest - totalInterest),
    monthsSaved: Math.max(0, monthIndex(monthly.payoffDate) - monthIndex(payoffDate)),
  };
}

export interface YearSummary {
  year: number;
  principal: number;
  interest: number;
  /** Balance at the end of the year (of the schedule with extras). */
  balance: number;
  /** Balance at the end of the year on the plain schedule. */
  plainBalance: number;
}

/** Per calendar year: principal and interest paid and the balance at year end, for the charts. */
export function yearlySummary(schedule: readonly AmortizationRow[], plain: readonly AmortizationRow[]): YearSummary[] {
  const years = new Map<number, YearSummary>();
  const ensure = (year: number) => {
    let entry = years.get(year);
    if (!entry) {
      entry = { year, principal: 0, interest: 0, balance: 0, plainBalance: 0 };
      years.set(year, entry);
    }
    return entry;
  };
  for (const row of plain) ensure(row.paymentDate.year).plainBalance = row.remainingBalance;
  for (const row of schedule) {
    const entry = ensure(row.paymentDate.year);
    entry.principal += row.principalPayment;
    entry.interest += row.interestPayment;
    entry.balance = row.remainingBalance;
  }
  return [...years.values()].sort((a, b) => a.year - b.year);
}
