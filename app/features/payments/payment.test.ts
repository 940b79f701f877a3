import { describe, expect, it } from "vitest";
import { loadConfig } from "~/platform/config.server";
import {
  PAYMENT_OPTIONS,
  membershipDuePayment,
  parseAmount,
  paymentPortalHref,
  paymentSchema,
  portalCarries,
  portalHandoverNote,
} from "./payment";

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

  it("upper-cases the membership ID, as the certificate number is at sign-in", () => {
    expect(paymentSchema.parse({ option: "membership", memberId: " aha-4550 " }).memberId).toBe("AHA-4550");
    expect(paymentSchema.safeParse({ option: "membership", memberId: "aha 1" }).success).toBe(false);
  });

  it("asks for an amount in dollars and cents for the variable options", () => {
    const error = (amount: string) => paymentSchema.safeParse({ option: "other", amount }).error?.issues[0]?.message;
    expect(error("")).toBe("Please enter the amount you want to pay");
    expect(error("12.345")).toBe("Please enter an amount in dollars and cents, like 125.50");
    expect(error("0")).toBe("The amount must be at least $0.01");
    expect(error("100000.01")).toBe("For payments over $100,000.00, please call us");
    expect(paymentSchema.parse({ option: "services", amount: "$1,250.5", memberId: "AHA-7" })).toMatchObject({
      amount: 1250.5,
      memberId: "AHA-7",
    });
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

describe("the payment portal address", () => {
  const typed = paymentSchema.parse({ option: "other", memberId: "AHA-7", amount: "45.5" });

  it("fills {amount}, {memberId} and {option}, URL-encoded, wherever they stand", () => {
    expect(paymentPortalHref("https://pay.example.com/checkout?amount={amount}&member={memberId}&for={option}", typed)).toBe(
      "https://pay.example.com/checkout?amount=45.50&member=AHA-7&for=other",
    );
    expect(paymentPortalHref("https://pay.example.com/{option}/{amount}?ref={memberId}&again={amount}", typed)).toBe(
      "https://pay.example.com/other/45.50?ref=AHA-7&again=45.50",
    );
    const odd = { option: "services" as const, memberId: "a&b=c d/é", amount: 1250 };
    expect(paymentPortalHref("https://pay.example.com/?m={memberId}&a={amount}", odd)).toBe(
      "https://pay.example.com/?m=a%26b%3Dc%20d%2F%C3%A9&a=1250.00",
    );
  });

  it("leaves a missing membership ID, or a missing payment, empty", () => {
    const noId = paymentSchema.parse({ option: "membership" });
    expect(paymentPortalHref("https://pay.example.com/?a={amount}&m={memberId}&o={option}", noId)).toBe(
      "https://pay.example.com/?a=99.00&m=&o=membership",
    );
    expect(paymentPortalHref("https://pay.example.com/?a={amount}&m={memberId}", null)).toBe("https://pay.example.com/?a=&m=");
  });

  it("keeps an address without placeholders as it is, and says what it carries", () => {
    expect(paymentPortalHref("https://pay.example.com/", typed)).toBe("https://pay.example.com/");
    expect(portalCarries("https://pay.example.com/")).toEqual({ amount: false, memberId: false, option: false });
    expect(portalCarries("https://pay.example.com/?a={amount}&x={memberID}")).toEqual({ amount: true, memberId: false, option: false });
  });

  it("the page promises to pass on only what the address carries, and says what to paste (issue 14)", () => {
    const opens = "Our secure payment portal opens in a new tab";
    expect(portalHandoverNote("https://pay.example.com/?a={amount}&m={memberId}&o={option}")).toBe(
      `${opens}, and we pass your amount and membership ID on to it.`,
    );
    expect(portalHandoverNote("https://pay.example.com/")).toBe(
      `${opens}. You paste the amount and your membership ID there: the next step shows them, ready to copy.`,
    );
    expect(portalHandoverNote("https://pay.example.com/?o={option}")).toBe(portalHandoverNote("https://pay.example.com/"));
    expect(portalHandoverNote("https://pay.example.com/{amount}")).toBe(
      `${opens}, and we pass your amount on to it. You paste your membership ID there: the next step shows it, ready to copy.`,
    );
    expect(portalHandoverNote("https://pay.example.com/?m={memberId}")).toBe(
      `${opens}, and we pass your membership ID on to it. You paste the amount there: the next step shows it, ready to copy.`,
    );
  });

  it("is accepted as PAYMENT_PORTAL_URL with its placeholders", () => {
    const url = "https://pay.example.com/checkout?amount={amount}&member={memberId}&for={option}";
    expect(loadConfig({ NODE_ENV: "test", AUTH_SECRET: "x".repeat(40), PAYMENT_PORTAL_URL: url }).PAYMENT_PORTAL_URL).toBe(url);
  });
});

describe("the hand-over prefilled with a member's amount due", () => {
  it("is membership fees at the amount due (not the yearly fee), with the certificate as the membership ID", () => {
    const due = membershipDuePayment("aha123456", 1995);
    expect(due).toEqual({ option: "membership", title: "Membership Fees", memberId: "AHA123456", amount: 19.95 });
    expect(paymentPortalHref("https://pay.example.com/?a={amount}&m={memberId}&o={option}", due)).toBe(
      "https://pay.example.com/?a=19.95&m=AHA123456&o=membership",
    );
    expect(membershipDuePayment("AHA1", 505).amount).toBe(5.05);
  });

  it("leaves out a certificate the payment form would not take", () => {
    expect(membershipDuePayment("AHA 1", 9900).memberId).toBeNull();
    expect(membershipDuePayment(null, 9900).memberId).toBeNull();
  });
});
