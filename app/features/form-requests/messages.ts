import { withoutFinalPeriod } from "~/features/submissions/intake/client";

/** Public-side spec, section 8: request form messages. */
export const REQUEST_SUCCESS = "Your form request has been submitted successfully! We will process your request and get back to you soon.";
export const INVALID_FORM_SELECTION = "Invalid form selection";

export function requestFailure(message: string): string {
  return `There was an error submitting your request: ${withoutFinalPeriod(message)}. Please try again.`;
}

/** A non-ok answer as the spec words it: 'HTTP {status}: {body}'. */
export function httpFailure(status: number, body: string): string {
  return `HTTP ${status}: ${body}`;
}
