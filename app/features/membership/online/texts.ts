/** Small and browser-safe: what the shell and My account need of online payments, without the contract's schemas. */

/** Where a signed-in member's Make a Payment goes (a redirect to their plan's payment page). */
export const PAY_PATH = "/api/account/membership/pay";

/** What My account says after the payment page returns the member to /account?paid=1. */
export const ONLINE_TEXTS = {
  beingRecorded: "Thank you: your payment is being recorded",
  waiting: "This page checks every few seconds and shows your new dates when it is.",
  recorded: "Thank you: your payment is recorded. Your dates below include it.",
  late: "Your payment has not reached us yet. It will show here once it is recorded, and we will send you a receipt by e-mail.",
} as const;
