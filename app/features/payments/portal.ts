import type { PaymentSummary } from "./payment";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
export const formatUsd = (amount: number) => usd.format(amount);

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
