import { describe, expect, it } from "vitest";
import { addMonths, buildSchedule, calculateMortgage, monthIndex, monthlyPayment, totalsOf, yearlySummary } from "./amortization";
import { DEFAULT_INPUTS, type MortgageInputs } from "./inputs";

const cents = (n: number) => Math.round(n * 100) / 100;
const start = { year: 2025, month: 1 };

/** Inputs for a plain loan: no PMI, taxes, insurance, dues, extras or lump sum. */
function loan(overrides: Partial<MortgageInputs>): MortgageInputs {
  return {
    ...DEFAULT_INPUTS,
    pmi: 0,
    propertyTax: 0,
    homeInsurance: 0,
    hoaDues: 0,
    extraPaymentAmount: 0,
    lumpSumAmount: 0,
    ...overrides,
  };
}

/** Balance after k payments of A on P at monthly rate r, by the closed-form annuity formula. */
function closedFormBalance(P: number, r: number, A: number, k: number): number {
  const g = Math.pow(1 + r, k);
  return P * g - (A * (g - 1)) / r;
}

describe("monthlyPayment: published reference values (fixed rate, monthly rate = APR / 12)", () => {
  it.each([
    [200_000, 6, 30, 1199.1],
    [100_000, 6, 30, 599.55],
    [100_000, 7, 30, 665.3],
    [300_000, 4, 30, 1432.25],
    [150_000, 5, 15, 1186.19],
    [250_000, 4.5, 30, 1266.71],
  ])("$%d at %d%% for %d years is $%d a month", (principal, rate, years, expected) => {
    expect(cents(monthlyPayment(principal, rate, years * 12))).toBe(expected);
  });

  it("repays a 0% loan in equal parts, and answers 0 for no loan or no term", () => {
    expect(monthlyPayment(120_000, 0, 360)).toBeCloseTo(333.3333, 4);
    expect(monthlyPayment(0, 6, 360)).toBe(0);
    expect(monthlyPayment(100_000, 6, 0)).toBe(0);
  });
});

describe("buildSchedule: plain schedule", () => {
  it.each([
    [200_000, 6, 30, 231_676.38],
    [100_000, 6, 30, 115_838.19],
    [100_000, 7, 30, 139_508.9],
    [300_000, 4, 30, 215_608.52],
  ])("$%d at %d%% for %d years: total interest $%d over exactly the term", (principal, rate, years, interest) => {
    const rows = buildSchedule({ loanAmount: principal, annualRatePercent: rate, termMonths: years * 12, start });
    const totals = totalsOf(rows);
    expect(totals.payments).toBe(years * 12);
    expect(cents(totals.totalInterest)).toBe(interest);
    expect(cents(totals.totalPrincipal)).toBe(principal);
    expect(rows.at(-1)!.remainingBalance).toBe(0);
  });

  it("splits each payment into interest on the balance and principal, with dates month by month", () => {
    const rows = buildSchedule({ loanAmount: 200_000, annualRatePercent: 6, termMonths: 360, start: { year: 2025, month: 11 } });
    expect(cents(rows[0]!.interestPayment)).toBe(1000);
    expect(cents(rows[0]!.principalPayment)).toBe(199.1);
    expect(cents(rows[0]!.totalPayment)).toBe(1199.1);
    expect(cents(rows[0]!.remainingBalance)).toBe(199_800.9);
    expect(rows[1]!.paymentDate).toEqual({ year: 2025, month: 12 });
    expect(rows[2]!.paymentDate).toEqual({ year: 2026, month: 1 });
    expect(rows.at(-1)!.paymentDate).toEqual({ year: 2055, month: 10 });
    // Balance after 60 payments agrees with the closed-form annuity formula.
    expect(rows[59]!.remainingBalance).toBeCloseTo(closedFormBalance(200_000, 0.005, monthlyPayment(200_000, 6, 360), 60), 6);
  });

  it("handles a tiny term and a 0% rate", () => {
    const oneYear = buildSchedule({ loanAmount: 1_200, annualRatePercent: 0, termMonths: 12, start });
    expect(oneYear).toHaveLength(12);
    expect(oneYear.every((r) => cents(r.principalPayment) === 100 && r.interestPayment === 0)).toBe(true);
    expect(oneYear.at(-1)!.remainingBalance).toBe(0);
    const oneMonth = buildSchedule({ loanAmount: 5_000, annualRatePercent: 12, termMonths: 1, start });
    expect(oneMonth).toHaveLength(1);
    expect(cents(oneMonth[0]!.totalPayment)).toBe(5_050);
  });

  it("returns no rows for no loan", () => {
    expect(buildSchedule({ loanAmount: 0, annualRatePercent: 6, termMonths: 360, start })).toEqual([]);
    expect(buildSchedule({ loanAmount: 100, annualRatePercent: 6, termMonths: 0, start })).toEqual([]);
  });
});

describe("buildSchedule: extra payments and lump sum", () => {
  it("a monthly extra from the first payment pays off when the closed-form formula says so", () => {
    const P = 200_000;
    const r = 0.005;
    const A = monthlyPayment(P, 6, 360) + 100;
    const rows = buildSchedule({
      loanAmount: P,
      annualRatePercent: 6,
      termMonths: 360,
      start,
      extra: { amount: 100, start, frequency: 12 },
    });
    const expectedPayments = Math.ceil(-Math.log(1 - (r * P) / A) / Math.log(1 + r));
    expect(rows).toHaveLength(expectedPayments);
    expect(rows).toHaveLength(295);
    // Everything paid: (n - 1) full payments plus the last one; interest = paid - principal.
    const beforeLast = closedFormBalance(P, r, A, expectedPayments - 1);
    const totalPaid = (expectedPayments - 1) * A + beforeLast * (1 + r);
    expect(totalsOf(rows).totalInterest).toBeCloseTo(totalPaid - P, 4);
    expect(rows.every((row, i) => i === rows.length - 1 || cents(row.extraPayment) === 100)).toBe(true);
  });

  it("quarterly and yearly extras fall due every 3 and every 12 months from their start", () => {
    const base = { loanAmount: 100_000, annualRatePercent: 5, termMonths: 360, start };
    const quarterly = buildSchedule({ ...base, extra: { amount: 50, start: { year: 2025, month: 3 }, frequency: 4 } });
    expect(
      quarterly
        .filter((r) => r.extraPayment > 0)
        .slice(0, 3)
        .map((r) => r.paymentDate),
    ).toEqual([
      { year: 2025, month: 3 },
      { year: 2025, month: 6 },
      { year: 2025, month: 9 },
    ]);
    const yearly = buildSchedule({ ...base, extra: { amount: 1_000, start: { year: 2027, month: 1 }, frequency: 1 } });
    const yearlyDates = yearly
      .filter((r) => r.extraPayment > 0)
      .slice(0, 3)
      .map((r) => r.paymentDate);
    expect(yearlyDates).toEqual([
      { year: 2027, month: 1 },
      { year: 2028, month: 1 },
      { year: 2029, month: 1 },
    ]);
    expect(yearly.slice(0, 24).every((r) => r.extraPayment === 0)).toBe(true);
  });

  it("applies the lump sum once, in its month", () => {
    const rows = buildSchedule({
      loanAmount: 100_000,
      annualRatePercent: 6,
      termMonths: 360,
      start,
      lumpSum: { amount: 10_000, date: { year: 2027, month: 1 } },
    });
    const withExtra = rows.filter((r) => r.extraPayment > 0);
    expect(withExtra).toHaveLength(1);
    expect(withExtra[0]!.paymentNumber).toBe(25);
    expect(cents(withExtra[0]!.extraPayment)).toBe(10_000);
    expect(rows[24]!.remainingBalance).toBeCloseTo(rows[23]!.remainingBalance - rows[24]!.principalPayment, 6);
    expect(rows.length).toBeLessThan(360);
  });

  it("never lets an extra payment larger than the balance overpay", () => {
    const rows = buildSchedule({
      loanAmount: 10_000,
      annualRatePercent: 6,
      termMonths: 360,
      start,
      extra: { amount: 1_000_000, start, frequency: 12 },
      lumpSum: { amount: 5_000_000, date: start },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.principalPayment).toBeCloseTo(10_000, 8);
    expect(rows[0]!.extraPayment).toBeCloseTo(10_000 - (monthlyPayment(10_000, 6, 360) - 50), 8);
    expect(rows[0]!.remainingBalance).toBe(0);
  });
});

describe("calculateMortgage", () => {
  it("computes only when the loan amount, the rate and the term are each above 0", () => {
    expect(calculateMortgage(loan({ homePrice: 200_000, downPayment: 200_000 }))).toBeNull();
    expect(calculateMortgage(loan({ homePrice: 200_000, downPayment: 250_000 }))).toBeNull();
    expect(calculateMortgage(loan({ interestRate: 0 }))).toBeNull();
    expect(calculateMortgage(loan({ loanTerm: 0 }))).toBeNull();
    expect(calculateMortgage(loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6 }))).not.toBeNull();
  });

  it("breaks the monthly payment down into P&I, PMI, tax/12, insurance/12 and HOA dues", () => {
    const result = calculateMortgage(
      loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6, pmi: 0.6, propertyTax: 3_600, homeInsurance: 1_200, hoaDues: 75 }),
    )!;
    expect(result.loanAmount).toBe(200_000);
    expect(cents(result.monthly.principalAndInterest)).toBe(1199.1);
    // 200,000 is 80% of the price: above 78%, so PMI applies: 0.6% of 200,000 a year = $100 a month.
    expect(cents(result.monthly.pmi)).toBe(100);
    expect(result.monthly.propertyTax).toBe(300);
    expect(result.monthly.homeInsurance).toBe(100);
    expect(result.monthly.hoaDues).toBe(75);
    expect(cents(result.monthly.total)).toBe(1774.1);
  });

  it("charges PMI only until the balance reaches 78% of the home price", () => {
    const price = 250_000;
    const P = 237_500; // 5% down
    const result = calculateMortgage(loan({ homePrice: price, downPayment: price - P, interestRate: 6, pmi: 0.5 }))!;
    const A = monthlyPayment(P, 6, 360);
    // PMI is paid in month k while the balance after k - 1 payments is above 195,000.
    let expectedMonths = 0;
    while (closedFormBalance(P, 0.005, A, expectedMonths) > price * 0.78) expectedMonths++;
    expect(result.totals.pmiPayments).toBe(expectedMonths);
    expect(expectedMonths).toBeGreaterThan(100);
    expect(result.schedule[expectedMonths - 1]!.pmiPayment).toBeCloseTo((P * 0.005) / 12, 8);
    expect(result.schedule[expectedMonths]!.pmiPayment).toBe(0);
    expect(result.schedule[expectedMonths - 1]!.remainingBalance).toBeLessThanOrEqual(price * 0.78);
    expect(result.totals.totalPmi).toBeCloseTo(expectedMonths * ((P * 0.005) / 12), 6);
  });

  it("charges no PMI when the loan starts at or below 78% of the price", () => {
    const result = calculateMortgage(loan({ homePrice: 250_000, downPayment: 55_000, interestRate: 6, pmi: 0.5 }))!;
    expect(result.monthly.pmi).toBe(0);
    expect(result.totals.totalPmi).toBe(0);
  });

  it("reports payoff date, total interest and the interest, months and PMI saved by extras", () => {
    const plain = calculateMortgage(loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6 }))!;
    expect(plain.monthsSaved).toBe(0);
    expect(plain.interestSaved).toBe(0);
    expect(plain.totals.payoffDate).toEqual({ year: 2054, month: 12 });
    expect(cents(plain.totals.totalInterest)).toBe(231_676.38);

    const extraInputs = loan({
      homePrice: 250_000,
      downPayment: 50_000,
      interestRate: 6,
      pmi: 0.5,
      extraPaymentAmount: 100,
      extraPaymentStartMonth: 1,
      extraPaymentStartYear: 2025,
    });
    const extra = calculateMortgage(extraInputs)!;
    expect(extra.totals.payments).toBe(295);
    expect(extra.monthsSaved).toBe(65);
    expect(extra.totals.payoffDate).toEqual(addMonths({ year: 2025, month: 1 }, 294));
    expect(extra.interestSaved).toBeCloseTo(extra.baseline.totalInterest - extra.totals.totalInterest, 8);
    expect(extra.interestSaved).toBeGreaterThan(40_000);
    expect(cents(extra.baseline.totalInterest)).toBe(231_676.38);
    // PMI ends automatically on the original schedule, extras or not (Homeowners Protection Act).
    expect(extra.pmiSaved).toBe(0);
    expect(extra.totals.pmiPayments).toBe(extra.baseline.pmiPayments);
    // The loan starts at 80% of the price: cancellation may be asked for from the first month.
    const asked = calculateMortgage({ ...extraInputs, pmiRequest: true })!;
    expect(asked.totals.pmiPayments).toBe(1);
    expect(extra.totalExtraPaid).toBeCloseTo(
      extra.schedule.reduce((s, r) => s + r.extraPayment, 0),
      8,
    );
  });

  it("says when a lump sum or extra payment start falls outside the loan", () => {
    const outside = calculateMortgage(
      loan({
        homePrice: 250_000,
        downPayment: 50_000,
        interestRate: 6,
        loanTerm: 1,
        lumpSumAmount: 5_000,
        lumpSumYear: 2030,
        extraPaymentAmount: 10,
        extraPaymentStartYear: 2030,
      }),
    )!;
    expect(outside.lumpSumInRange).toBe(false);
    expect(outside.extraInRange).toBe(false);
    expect(outside.monthsSaved).toBe(0);
    const inside = calculateMortgage(loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6, lumpSumAmount: 5_000 }))!;
    expect(inside.lumpSumInRange).toBe(true);
  });
});

describe("yearlySummary", () => {
  it("adds up principal and interest per calendar year and keeps both year-end balances", () => {
    const result = calculateMortgage(
      loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6, extraPaymentAmount: 500, extraPaymentStartYear: 2025 }),
    )!;
    const years = yearlySummary(result.schedule, result.plainSchedule);
    expect(years[0]!.year).toBe(2025);
    expect(years).toHaveLength(30);
    const total = years.reduce((s, y) => s + y.principal + y.interest, 0);
    expect(total).toBeCloseTo(result.totals.totalInterest + result.loanAmount, 6);
    expect(years[0]!.balance).toBeCloseTo(result.schedule[11]!.remainingBalance, 8);
    expect(years[0]!.plainBalance).toBeCloseTo(result.plainSchedule[11]!.remainingBalance, 8);
    expect(years.at(-1)!.balance).toBe(0);
    expect(years.at(-1)!.plainBalance).toBe(0);
  });
});

describe("lump sum and extra payment at the edges of the loan", () => {
  /** A 1-year loan from March 2025: its 12th and final payment falls in February 2026. */
  const oneYear = (overrides: Partial<MortgageInputs>) =>
    calculateMortgage(
      loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6, loanTerm: 1, startYear: 2025, startMonth: 3, ...overrides }),
    )!;
  const lumpAt = (year: number, month: number) => oneYear({ lumpSumAmount: 5_000, lumpSumYear: year, lumpSumMonth: month });
  const extraFrom = (year: number, month: number) =>
    oneYear({ extraPaymentAmount: 10, extraPaymentStartYear: year, extraPaymentStartMonth: month });

  it("counts the first and the final month of the loan as inside it, and the months around them as outside", () => {
    expect(lumpAt(2026, 2).plainSchedule.at(-1)!.paymentDate).toEqual({ year: 2026, month: 2 });
    expect(lumpAt(2025, 3).lumpSumInRange).toBe(true);
    expect(lumpAt(2026, 2).lumpSumInRange).toBe(true);
    expect(lumpAt(2025, 2).lumpSumInRange).toBe(false);
    expect(lumpAt(2026, 3).lumpSumInRange).toBe(false);
    expect(extraFrom(2024, 1).extraInRange).toBe(true);
    expect(extraFrom(2026, 2).extraInRange).toBe(true);
    expect(extraFrom(2026, 3).extraInRange).toBe(false);
  });
});

describe("published reference vectors (numpy-financial)", () => {
  it("pmt(0.08/12, 60, 15000) = -304.145914", () => {
    expect(monthlyPayment(15_000, 8, 60)).toBeCloseTo(304.145914, 6);
  });

  it("ipmt(0.1/12, 1, 24, 2000) = -16.666667: the first month's interest", () => {
    const [first] = buildSchedule({ loanAmount: 2_000, annualRatePercent: 10, termMonths: 24, start });
    expect(first.interestPayment).toBeCloseTo(16.666667, 6);
    expect(first.principalPayment + first.interestPayment).toBeCloseTo(monthlyPayment(2_000, 10, 24), 9);
  });
});

describe("PMI under the Homeowners Protection Act", () => {
  // $300,000 home, 5% down, 6%, 30 years: a loan of $285,000.
  const hpa = (over: Partial<MortgageInputs> = {}) =>
    calculateMortgage(loan({ homePrice: 300_000, downPayment: 15_000, interestRate: 6, pmi: 0.5, ...over }))!;
  const P = 285_000;
  const A = monthlyPayment(P, 6, 360);
  /** The payment number whose balance after it first reaches `limit` on the original schedule. */
  const firstMonthAtOrBelow = (limit: number) => {
    let k = 0;
    while (closedFormBalance(P, 0.005, A, k) > limit) k++;
    return k;
  };

  it("ends automatically in the month the original schedule reaches 78% of the value, and may be asked for at 80%", () => {
    const result = hpa();
    const automatic = firstMonthAtOrBelow(234_000);
    const request = firstMonthAtOrBelow(240_000);
    expect([automatic, request]).toEqual([129, 118]);
    expect(result.pmiEnd).toEqual({
      automatic: addMonths(start, automatic - 1),
      automaticBy: "78%",
      request: addMonths(start, request - 1),
      plainRequest: addMonths(start, request - 1),
      requestMonthsSooner: 0,
      lastCharged: addMonths(start, automatic - 1),
    });
    expect(result.totals.pmiPayments).toBe(automatic);
    expect(result.schedule[automatic]!.pmiPayment).toBe(0);
  });

  it("extra payments bring the request date forward, never the automatic one; asking ends PMI then", () => {
    const extras = { extraPaymentAmount: 500, extraPaymentStartMonth: 1, extraPaymentStartYear: 2025 };
    const kept = hpa(extras);
    const plain = hpa();
    expect(kept.pmiEnd!.automatic).toEqual(plain.pmiEnd!.automatic);
    expect(kept.totals.pmiPayments).toBe(129);
    const sooner = monthIndex(plain.pmiEnd!.request) - monthIndex(kept.pmiEnd!.request);
    expect(sooner).toBeGreaterThan(40);
    expect(kept.pmiEnd!.requestMonthsSooner).toBe(sooner);
    // The request month is the first whose balance, with the extras, is at or below $240,000.
    const requestRow = kept.schedule.find((r) => r.remainingBalance <= 240_000)!;
    expect(requestRow.paymentDate).toEqual(kept.pmiEnd!.request);
    expect(kept.schedule[requestRow.paymentNumber - 2]!.remainingBalance).toBeGreaterThan(240_000);

    const asked = hpa({ ...extras, pmiRequest: true });
    expect(asked.pmiEnd!.lastCharged).toEqual(asked.pmiEnd!.request);
    expect(asked.totals.pmiPayments).toBe(requestRow.paymentNumber);
    expect(asked.totals.totalPmi).toBeCloseTo(requestRow.paymentNumber * ((P * 0.005) / 12), 6);
    // Asked for without extras: at the 80% month of the original schedule.
    expect(hpa({ pmiRequest: true }).totals.pmiPayments).toBe(118);
  });

  it("ends at the middle of the term when the original schedule reaches 78% only later (final termination)", () => {
    // 3% down at 12%: after 180 of 360 payments the balance is still about 83% of the value.
    const high = hpa({ downPayment: 9_000, interestRate: 12 });
    const P12 = 291_000;
    const A12 = monthlyPayment(P12, 12, 360);
    expect(closedFormBalance(P12, 0.01, A12, 180)).toBeGreaterThan(234_000);
    expect(high.pmiEnd).toMatchObject({ automatic: addMonths(start, 179), automaticBy: "midpoint", lastCharged: addMonths(start, 179) });
    expect(high.totals.pmiPayments).toBe(180);
    expect(high.schedule[179]!.pmiPayment).toBeGreaterThan(0);
    expect(high.schedule[180]!.pmiPayment).toBe(0);
    // A 15-year term's middle is payment 90 (at 20%, still above 78% then).
    expect(hpa({ downPayment: 9_000, interestRate: 20, loanTerm: 15 }).pmiEnd).toMatchObject({
      automaticBy: "midpoint",
      automatic: addMonths(start, 89),
    });
    // Where 78% comes first, the middle does not matter: the 6% loan above ends at 129.
    expect(hpa().pmiEnd!.automaticBy).toBe("78%");
  });

  it("applies only to a loan above 78% of the value, with a PMI rate", () => {
    expect(hpa({ downPayment: 66_000 }).pmiEnd).toBeNull();
    expect(hpa({ pmi: 0 }).pmiEnd).toBeNull();
    // $235,000 borrowed: $1,000 above 78%, reached within months.
    const just = hpa({ downPayment: 65_000 });
    const months = just.schedule.findIndex((r) => r.remainingBalance <= 234_000) + 1;
    expect(months).toBeGreaterThan(0);
    expect(months).toBeLessThan(8);
    expect(just.pmiEnd!.automatic).toEqual(addMonths(start, months - 1));
    expect(just.totals.pmiPayments).toBe(months);
  });
});

describe("biweekly payments", () => {
  it("half the monthly payment every two weeks repays a 30-year loan years sooner, with less interest", () => {
    const result = calculateMortgage(loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6, biweekly: true }))!;
    const b = result.biweekly!;
    expect(cents(b.payment)).toBe(599.55);
    // Replayed by hand: APR / 26 per period, the half payment every period.
    let balance = 200_000;
    let interest = 0;
    let n = 0;
    while (balance > 0.005) {
      const i = balance * (0.06 / 26);
      interest += i;
      balance -= Math.min(b.payment - i, balance);
      n++;
    }
    expect(b.payments).toBe(n);
    expect(cents(b.totalInterest)).toBe(cents(interest));
    expect(n).toBeGreaterThan(26 * 24);
    expect(n).toBeLessThan(26 * 26);
    const last = new Date(Date.UTC(2025, 0, 1) + (n - 1) * 14 * 86_400_000);
    expect(b.payoffDate).toEqual({ year: last.getUTCFullYear(), month: last.getUTCMonth() + 1 });
    expect(b.interestSaved).toBeCloseTo(result.baseline.totalInterest - interest, 6);
    expect(b.interestSaved).toBeGreaterThan(40_000);
    expect(b.monthsSaved).toBe(monthIndex(result.baseline.payoffDate!) - monthIndex(b.payoffDate));
    expect(b.monthsSaved).toBeGreaterThan(48);
    expect(calculateMortgage(loan({ homePrice: 250_000, downPayment: 50_000, interestRate: 6 }))!.biweekly).toBeNull();
  });
});
