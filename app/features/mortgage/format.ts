import { MONTH_NAMES } from "~/platform/month-names";
import type { YearMonth } from "./amortization";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
const usdWhole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** $1,199.10 — negative zero and float dust never show as "-$0.00". */
export function formatMoney(amount: number): string {
  const cents = Math.round(amount * 100) / 100;
  return usd.format(cents === 0 ? 0 : cents);
}

export function formatMoneyWhole(amount: number): string {
  return usdWhole.format(Math.round(amount));
}

export function formatYearMonth(date: YearMonth, style: "long" | "short" = "long"): string {
  const name = MONTH_NAMES[date.month - 1] ?? "";
  return `${style === "short" ? name.slice(0, 3) : name} ${date.year}`;
}

/** "29 years 6 months", "11 months", "1 year". */
export function formatDuration(months: number): string {
  const years = Math.floor(months / 12);
  const rest = months % 12;
  const parts = [];
  if (years > 0) parts.push(`${years} ${years === 1 ? "year" : "years"}`);
  if (rest > 0 || years === 0) parts.push(`${rest} ${rest === 1 ? "month" : "months"}`);
  return parts.join(" ");
}
