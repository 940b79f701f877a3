/** The membership facts stated across the marketing pages (public-side spec, sections 1 and 9). */
export const MEMBERSHIP_MONTHLY_PRICE = "$19.95";

export const COVERAGE_SUMMARY =
  "Our home protection plan provides accidental death and dismemberment coverage, so an unexpected loss does not have to cost your family its home.";

export const COVERAGE_START = "Insurance is effective on the 1st of the month after approval and receipt of the first month's payment.";

/** The association's marketing claims (spec section 1). */
export const ASSOCIATION_STATS = [
  { value: "75,000+", label: "Families served" },
  { value: "50,000+", label: "Homes protected" },
  { value: "$5B+", label: "Coverage secured" },
] as const;
