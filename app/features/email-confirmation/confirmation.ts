/**
 * The email confirmation page's decision (admin-side spec, sections 4 and 8). It only reads
 * the link's query parameters and makes no call: the identity provider has already acted on
 * the link before redirecting here, so the page reports what the link says.
 */

/** How long the page shows its loading state before the result ("about 1 second"). */
export const CONFIRMATION_DELAY_MS = 1000;

export const CONFIRMATION_MESSAGES = {
  invalidLink: "Invalid confirmation link. Please check your email for a new confirmation link.",
  unexpected: "An error occurred during email confirmation. Please try again or contact support.",
  signup: "Your email has been confirmed successfully! You can now log in to your account.",
  emailChange: "Your email change has been confirmed successfully!",
  recovery: "Password recovery confirmed. You can now set a new password.",
  generic: "Email confirmation successful!",
} as const;

export type ConfirmationKind = keyof typeof CONFIRMATION_MESSAGES;

export interface ConfirmationResult {
  status: "success" | "error";
  kind: ConfirmationKind;
  message: string;
}

/** The parts of URLSearchParams the rule reads. */
export interface QueryReader {
  get(name: string): string | null;
}

function result(status: ConfirmationResult["status"], kind: ConfirmationKind): ConfirmationResult {
  return { status, kind, message: CONFIRMATION_MESSAGES[kind] };
}

/**
 * Decides the outcome from access_token, refresh_token, type and token_hash:
 * no token and no hash is an invalid link; signup with both tokens, email_change and recovery
 * have their own messages; any other link carrying a token is a generic success; anything
 * unexpected while reading the link is an error. (The original's 'expired' state was never
 * reached, so it does not exist here.)
 */
export function decideConfirmation(query: QueryReader): ConfirmationResult {
  try {
    const accessToken = query.get("access_token")?.trim() || null;
    const refreshToken = query.get("refresh_token")?.trim() || null;
    const tokenHash = query.get("token_hash")?.trim() || null;
    const type = query.get("type")?.trim() || null;

    if (!accessToken && !tokenHash) return result("error", "invalidLink");
    if (type === "signup" && accessToken && refreshToken) return result("success", "signup");
    if (type === "email_change") return result("success", "emailChange");
    if (type === "recovery") return result("success", "recovery");
    return result("success", "generic");
  } catch {
    return result("error", "unexpected");
  }
}
