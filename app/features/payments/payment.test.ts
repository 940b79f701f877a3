import { describe, expect, it } from "vitest";
import { PAYMENT_OPTIONS, parseAmount, paymentSchema } from "./payment";

describe("payment options", () => {
  it("are the spec's four cards with their amounts", () => {
    expect(PAYMENT_OPTIONS.map((o) => `${o.title} ${o.price}`)).toEqual([
      "Membership Fees $99.00/year",
      "Home Warranty Premium $599.00/year",
      "Additional Services Variable",
      "Other Payment Custom amount",
    ]);
  });
});

describe("paymentSchema", () => {
  it("uses the fixed amount of the yearly fees, whatever was typed", () => {
    expect(paymentSchema.parse({ option: "membership", memberId: "", amount: "5" })).toEqual({
      option: "membership",
      title: "Membership Fees",
      memberId: null,
      amount: 99,
    });
    expect(paymentSchema.parse({ option: "warranty", amount: "" }).amount).toBe(599);
  });

  it("asks for an amount in dollars and cents for the variable options", () => {
    const error = (amount: string) => paymentSchema.safeParse({ option: "other", amount }).error?.issues[0]?.message;
    expect(error("")).toBe("Please enter the amount you want to pay");
    expect(error("12.345")).toBe("Please enter an amount in dollars and cents, like 125.50");
    expect(error("0")).toBe("The amount must be at least $0.01");
    expect(error("100000.01")).toBe("For payments over $100,000.00, please call us");
    expect(paymentSchema.parse({ option: "services", amount: "$1,250.5", memberId: "AHA-7" })).toMatchObject({ amount: 1250.5, memberId: "AHA-7" });
  });

  it("requires a choice", () => {
    expect(paymentSchema.safeParse({ amount: "10" }).error?.issues[0]).toMatchObject({
      path: ["option"],
      message: "Please choose what you are paying for",
    });
  });

  it("parses amounts people type", () => {
    expect(parseAmount("99")).toBe(99);
    expect(parseAmount(" 1,000.00 ")).toBe(1000);
    expect(parseAmount("abc")).toBeNull();
    expect(parseAmount("-5")).toBeNull();
  });
});
