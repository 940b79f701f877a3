import { describe, expect, it } from "vitest";
import { calculateMortgage } from "./amortization";
import { DEFAULT_INPUTS, parseInputs, toSearchParams } from "./inputs";
import {
  comparisonHref,
  parseScenario,
  parseScenarios,
  readScenarioText,
  scenarioInputs,
  scenarioOf,
  scenarioParam,
  scenarioText,
} from "./scenarios";

describe("scenarios in the address", () => {
  it("round-trip: the form's inputs keep their names, the extra scenarios are s2 and s3", () => {
    const inputs = { ...DEFAULT_INPUTS, homePrice: 500_000, pmiRequest: true, biweekly: true };
    const s2 = { homePrice: 450_000, downPayment: 90_000, interestRate: 5.75, loanTerm: 15, extraPaymentAmount: 200 };
    const s3 = { homePrice: 400_000, downPayment: 0, interestRate: 7, loanTerm: 30, extraPaymentAmount: 0 };
    const href = comparisonHref("/mortgage-calculator", inputs, [s2, s3]);
    expect(href).toBe(
      "/mortgage-calculator?homePrice=500000&pmiRequest=1&biweekly=1&s2=450000%2C90000%2C5.75%2C15%2C200&s3=400000%2C0%2C7%2C30%2C0",
    );
    const params = new URLSearchParams(href.split("?")[1]);
    expect(parseInputs(params)).toEqual(inputs);
    expect(parseScenarios(params)).toEqual([s2, s3]);
    expect(comparisonHref("/mortgage-calculator", DEFAULT_INPUTS, [])).toBe("/mortgage-calculator");
  });

  it("keep at most two extra scenarios, and ignore what is not five numbers", () => {
    const one = scenarioOf(DEFAULT_INPUTS);
    const href = comparisonHref("/m", DEFAULT_INPUTS, [one, one, one]);
    expect(href).toBe(`/m?s2=${encodeURIComponent(scenarioParam(one))}&s3=${encodeURIComponent(scenarioParam(one))}`);
    const params = new URLSearchParams({ s2: "1,2,3,4", s3: "400000,40000,6.5,30,0", s4: "400000,40000,6.5,30,0" });
    expect(parseScenarios(params)).toEqual([one]);
    for (const bad of ["", "a,b,c,d,e", "1,2,3,4,5,6", "400000,,6.5,30,0", "1e999,0,1,1,0", "x".repeat(300)])
      expect(parseScenario(bad), bad).toBeNull();
    expect(parseScenario(null)).toBeNull();
  });

  it("clamp out-of-range values as the form's own parameters are", () => {
    expect(parseScenario("-5,999999999999,99,0.4,-1")).toEqual({
      homePrice: 0,
      downPayment: 100_000_000,
      interestRate: 30,
      loanTerm: 1,
      extraPaymentAmount: 0,
    });
    expect(parseScenario("$400,000,1,1,1,1")).toBeNull();
    expect(parseScenario("400000, 40000 ,6.5,30.4,0")!.loanTerm).toBe(30);
  });
});

describe("a scenario's loan", () => {
  it("takes everything else from the form, its extra payment monthly from the form's start, and no lump sum", () => {
    const base = { ...DEFAULT_INPUTS, extraPaymentFrequency: 4 as const, lumpSumAmount: 10_000, showAmortization: true, biweekly: true };
    const s = { homePrice: 300_000, downPayment: 60_000, interestRate: 5, loanTerm: 15, extraPaymentAmount: 100 };
    const inputs = scenarioInputs(base, s);
    expect(inputs).toEqual({ ...base, ...s, extraPaymentFrequency: 12, lumpSumAmount: 0, showAmortization: false, biweekly: true });
    expect(scenarioInputs({ ...base, biweekly: false }, s).biweekly).toBe(false);
    const result = calculateMortgage(inputs)!;
    expect(result.loanAmount).toBe(240_000);
    expect(result.totalExtraPaid).toBeGreaterThan(0);
    expect(toSearchParams(inputs).get("s2")).toBeNull();
  });

  it("is read from what was typed: blank amounts are 0, the rate and term must be given and in range", () => {
    const text = scenarioText(scenarioOf(DEFAULT_INPUTS));
    expect(readScenarioText(text)).toEqual({ scenario: scenarioOf(DEFAULT_INPUTS), errors: {} });
    expect(readScenarioText({ ...text, downPayment: " ", extraPaymentAmount: "" }).scenario).toMatchObject({
      downPayment: 0,
      extraPaymentAmount: 0,
    });
    const wrong = readScenarioText({ ...text, interestRate: "", loanTerm: "51", homePrice: "abc" });
    expect(wrong.scenario).toBeNull();
    expect(wrong.errors).toEqual({
      interestRate: "Enter a number from 0 to 30.",
      loanTerm: "Enter a number from 1 to 50.",
      homePrice: "Enter a number from 0 to 100,000,000.",
    });
    expect(readScenarioText({ ...text, loanTerm: "15.5" }).errors).toEqual({ loanTerm: "Enter a whole number." });
    expect(readScenarioText({ ...text, homePrice: "$450,000" }).scenario!.homePrice).toBe(450_000);
  });
});
