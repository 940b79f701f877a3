/**
 * The months' names, alone: pages that only name months (the mortgage calculator, the
 * maintenance calendar) load these without the date arithmetic of dates.ts.
 */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
