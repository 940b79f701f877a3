import { describe, expect, it } from "vitest";
import { DEFAULT_INPUTS, checkField, loanAmountOf, parseInputs, readNumber, toSearchParams } from "./inputs";
import { calculateMortgage } from "./amortization";
import { formatDuration, formatMoney, formatYearMonth } from "./format";

const parse = (query: string) => parseInputs(new URLSearchParams(query));

describe("defaults (spec section 9)", () => {
  it("term 30 years, start January 2025, extra payments monthly from January 2027, lump sum January 2027, table hidden", () => {
    expect(DEFAULT_INPUTS).toMatchObject({
      loanTerm: 30,
      startMonth: 1,
      startYear: 2025,
      extraPaymentStartMonth: 1,
      extraPaymentStartYear: 2027,
      extraPaymentFrequency: 12,
      lumpSumMonth: 1,
      lumpSumYear: 2027,
      showAmortization: false,
    });
    expect(parse("")).toEqual(DEFAULT_INPUTS);
    expect(calculateMortgage(DEFAULT_INPUTS)).not.toBeNull();
  });
});

describe("URL round trip", () => {
  it("writes only what differs from the defaults and reads it back", () => {
    const inputs = {
      ...DEFAULT_INPUTS,
      homePrice: 525_000,
      interestRate: 5.875,
      extraPaymentAmount: 250,
      extraPaymentFrequency: 4 as const,
      showAmortization: true,
    };
    const params = toSearchParams(inputs);
    expect(params.toString()).toBe("homePrice=525000&interestRate=5.875&extraPaymentAmount=250&extraPaymentFrequency=4&showAmortization=1");
    expect(parseInputs(params)).toEqual(inputs);
    expect(toSearchParams(DEFAULT_INPUTS).toString()).toBe("");
  });

  it("reads numbers as people type them", () => {
    expect(readNumber("250,000")).toBe(250_000);
    expect(readNumber(" $1,500.50 ")).toBe(1500.5);
    expect(readNumber(".5")).toBe(0.5);
    expect(readNumber("6.")).toBe(6);
    expect(readNumber("")).toBeNull();
    expect(readNumber("12abc")).toBeNull();
    expect(readNumber("0x10")).toBeNull();
    expect(readNumber("1e400")).toBeNull();
    expect(readNumber(null)).toBeNull();
  });
});

describe("bad URL parameters never crash: they fall back to defaults or are clamped", () => {
  it.each([
    ["homePrice=abc", { homePrice: DEFAULT_INPUTS.homePrice }],
    ["homePrice=-5", { homePrice: 0 }],
    ["homePrice=1e12", { homePrice: 100_000_000 }],
    ["interestRate=99", { interestRate: 30 }],
    ["interestRate=NaN", { interestRate: DEFAULT_INPUTS.interestRate }],
    ["interestRate=Infinity", { interestRate: DEFAULT_INPUTS.interestRate }],
    ["loanTerm=0", { loanTerm: 1 }],
    ["loanTerm=2.6", { loanTerm: 3 }],
    ["loanTerm=500", { loanTerm: 50 }],
    ["startMonth=13", { startMonth: 12 }],
    ["startMonth=0", { startMonth: 1 }],
    ["startYear=99999", { startYear: 2200 }],
    ["extraPaymentFrequency=5", { extraPaymentFrequency: 12 }],
    ["extraPaymentFrequency=4", { extraPaymentFrequency: 4 }],
    ["extraPaymentFrequency=yearly", { extraPaymentFrequency: 12 }],
    ["showAmortization=true", { showAmortization: true }],
    ["showAmortization=maybe", { showAmortization: false }],
    ["pmi=%00%0A", { pmi: DEFAULT_INPUTS.pmi }],
    ["hoaDues=" + "9".repeat(300), { hoaDues: 1_000_000 }],
    ["hoaDues=" + "9".repeat(5000), { hoaDues: DEFAULT_INPUTS.hoaDues }],
  ])("%.60s", (query, expected) => {
    const inputs = parse(query);
    expect(inputs).toMatchObject(expected);
    expect(() => calculateMortgage(inputs)).not.toThrow();
  });

  it("takes the first of repeated parameters and ignores unknown ones", () => {
    expect(parse("homePrice=300000&homePrice=1&foo=bar&loanAmount=5")).toEqual({ ...DEFAULT_INPUTS, homePrice: 300_000 });
  });
});

describe("loan amount and field checks", () => {
  it("is home price minus down payment, blank when not positive", () => {
    expect(loanAmountOf({ homePrice: 400_000, downPayment: 40_000 })).toBe(360_000);
    expect(loanAmountOf({ homePrice: 400_000, downPayment: 400_000 })).toBeNull();
    expect(loanAmountOf({ homePrice: 100, downPayment: 400 })).toBeNull();
  });

  it("explains a value the calculator cannot use", () => {
    expect(checkField("interestRate", "6.5")).toBeNull();
    expect(checkField("interestRate", "45")).toBe("Enter a number from 0 to 30.");
    expect(checkField("homePrice", "")).toBe("Enter a number from 0 to 100,000,000.");
    expect(checkField("loanTerm", "2.5")).toBe("Enter a whole number.");
  });
});

describe("formatting", () => {
  it("money, months and durations", () => {
    expect(formatMoney(1199.10105)).toBe("$1,199.10");
    expect(formatMoney(-0.000001)).toBe("$0.00");
    expect(formatYearMonth({ year: 2054, month: 12 })).toBe("December 2054");
    expect(formatYearMonth({ year: 2025, month: 3 }, "short")).toBe("Mar 2025");
    expect(formatDuration(65)).toBe("5 years 5 months");
    expect(formatDuration(12)).toBe("1 year");
    expect(formatDuration(0)).toBe("0 months");
  });
});
