import { z } from "~/platform/zod";
import { optionalMemberId, optionalText } from "~/features/submissions/intake/fields";

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

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const formatUsd = (amount: number) => usd.format(amount);

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

/** What the payment portal's address may carry: `PAYMENT_PORTAL_URL` can hold these placeholders. */
export type PortalField = "amount" | "memberId" | "option";
const PLACEHOLDER = /\{(amount|memberId|option)\}/g;

/** The details the portal's address carries (so the payer need not type them again there). */
export function portalCarries(template: string): Record<PortalField, boolean> {
  const found = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]));
  return { amount: found.has("amount"), memberId: found.has("memberId"), option: found.has("option") };
}

/**
 * The payment page's promise about the hand-over, true to the configured portal address:
 * what the address carries to the portal, and what the payer pastes there instead (the
 * 'Leaving Our Site' step shows those details, ready to copy).
 */
export function portalHandoverNote(template: string): string {
  const { amount, memberId } = portalCarries(template);
  const opens = "Our secure payment portal opens in a new tab";
  if (amount && memberId) return `${opens}, and we pass your amount and membership ID on to it.`;
  if (amount)
    return `${opens}, and we pass your amount on to it. You paste your membership ID there: the next step shows it, ready to copy.`;
  if (memberId)
    return `${opens}, and we pass your membership ID on to it. You paste the amount there: the next step shows it, ready to copy.`;
  return `${opens}. You paste the amount and your membership ID there: the next step shows them, ready to copy.`;
}

/** The amount as the portal reads it: dollars with two decimals and no symbol ("45.50"). */
export const portalAmount = (amount: number) => amount.toFixed(2);

/**
 * The portal address with `{amount}`, `{memberId}` and `{option}` filled in, URL-encoded.
 * Without a payment chosen (the header's 'Make a Payment'), the placeholders are left empty.
 */
export function paymentPortalHref(template: string, payment?: Pick<PaymentSummary, "option" | "memberId" | "amount"> | null): string {
  const values: Record<PortalField, string> = {
    amount: payment ? portalAmount(payment.amount) : "",
    memberId: payment?.memberId ?? "",
    option: payment?.option ?? "",
  };
  return template.replace(PLACEHOLDER, (_, name: PortalField) => encodeURIComponent(values[name]));
}
