/** Money and phone numbers as the association writes them, for every feature and both sides. */

/** Digits only (spec: the case number is stripped to digits). */
export const digitsOnly = (value: string) => value.replace(/\D/g, "");

/** 10-digit phones as (XXX) XXX-XXXX; anything else as typed. */
export function formatPhone(value: string): string {
  const digits = digitsOnly(value);
  if (digits.length === 10) return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return value.trim();
}

/** "$250,000.00", "250000", "250,000.5" -> 250000 / 250000.5; null when not a dollar amount. */
export function parseDollars(value: string): number | null {
  const plain = value
    .trim()
    .replace(/^\$\s*/, "")
    .replace(/,/g, "");
  if (!/^\d{1,12}(?:\.\d{1,2})?$/.test(plain)) return null;
  return Number(plain);
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Coverage shown as USD with 2 decimals ("$250,000.00"); text that is not an amount stays as typed. */
export function formatCoverage(value: string): string {
  const amount = parseDollars(value);
  return amount === null ? value.trim() : usd.format(amount);
}
