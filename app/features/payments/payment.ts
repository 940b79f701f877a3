import { z } from "~/platform/zod";
import { optionalMemberId, optionalText } from "~/features/submissions/intake/fields";
import { formatUsd } from "./portal";

// The portal's address and the amounts as shown, without zod: the pages that only show a payment load them alone.
export { formatUsd, paymentPortalHref, portalAmount, portalCarries, portalHandoverNote, type PortalField } from "./portal";

/** Public-side spec, section 2: the payment options and their amounts. */
export const PAYMENT_OPTIONS = [
  {
    value: "membership",
    title: "Membership Fees",
    price: "$99.00/year",
    fixedAmount: 99,
    description: "Your yearly association membership: member benefits, resources and support.",
  },
  {
    value: "warranty",
    title: "Home Warranty Premium",
    price: "$599.00/year",
    fixedAmount: 599,
    description: "The yearly premium of your home warranty coverage.",
  },
  {
    value: "services",
    title: "Additional Services",
    price: "Variable",
    fixedAmount: null,
    description: "Inspections, add-on coverage and other services. Enter the amount on your invoice.",
  },
  {
    value: "other",
    title: "Other Payment",
    price: "Custom amount",
    fixedAmount: null,
    description: "Any other amount you owe or would like to pay.",
  },
] as const;

export type PaymentOptionValue = (typeof PAYMENT_OPTIONS)[number]["value"];
const OPTION_VALUES = PAYMENT_OPTIONS.map((o) => o.value) as [PaymentOptionValue, ...PaymentOptionValue[]];

export function paymentOption(value: string | null | undefined) {
  return PAYMENT_OPTIONS.find((o) => o.value === value);
}

export const MAX_PAYMENT = 100_000;

/** Dollars typed by a person ("1,250.5", "$99") as a number, or null when it is not an amount. */
export function parseAmount(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, "");
  if (!/^\d+(?:\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/**
 * The payment page's form: what is paid, the optional membership ID and the amount (fixed
 * for the two yearly fees). No card data: the payment itself happens on the secure portal.
 */
export const paymentSchema = z
  .object({
    option: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(OPTION_VALUES, "Please choose what you are paying for")),
    memberId: optionalMemberId(),
    amount: optionalText("Amount", 20),
  })
  .superRefine((value, ctx) => {
    if (paymentOption(value.option)?.fixedAmount) return;
    const issue = (message: string) => ctx.addIssue({ code: "custom", path: ["amount"], message });
    if (!value.amount) return issue("Please enter the amount you want to pay");
    const amount = parseAmount(value.amount);
    if (amount === null) return issue("Please enter an amount in dollars and cents, like 125.50");
    if (amount < 0.01) return issue("The amount must be at least $0.01");
    if (amount > MAX_PAYMENT) return issue(`For payments over ${formatUsd(MAX_PAYMENT)}, please call us`);
  })
  .transform((value) => {
    const option = paymentOption(value.option)!;
    return {
      option: option.value,
      title: option.title,
      memberId: value.memberId,
      amount: option.fixedAmount ?? parseAmount(value.amount ?? "")!,
    };
  });

export type PaymentSummary = z.output<typeof paymentSchema>;

const memberIdSchema = optionalMemberId();

/**
 * The hand-over prefilled with what a member owes (My account's 'Make a Payment'): membership
 * fees at the amount due, which a monthly plan or a credit makes other than the yearly fee,
 * and their certificate number as the membership ID (left out if it is not one the form takes).
 */
export function membershipDuePayment(certificate: string | null, amountCents: number): PaymentSummary {
  const option = paymentOption("membership")!;
  const memberId = memberIdSchema.safeParse(certificate ?? "");
  return { option: option.value, title: option.title, memberId: memberId.success ? memberId.data : null, amount: amountCents / 100 };
}
