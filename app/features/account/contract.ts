/**
 * 'My account' (issue 18): a signed-in member's membership, everything they sent while signed
 * in with its status and the date of each change, and their contact details.
 *   GET /api/account                -> AccountOverview
 *   PUT /api/account/contact {...}  -> { success, contact }
 *   POST /api/account/sign-out-everywhere -> SignOutEverywhereAnswer (members and staff: issue 30)
 */
import { z } from "~/platform/zod";
import { isOneLine } from "~/platform/text-fields";
import { formatPhone } from "~/domain/formats";

export const ACCOUNT_MESSAGES = {
  membersOnly: "My account is for members. Staff accounts have no membership.",
  saved: "Your contact details were saved.",
  email: "Enter an e-mail address like name@example.com.",
  phone: "Enter a phone number like (555) 123-4567.",
  state: "State must be 2 letters, like CT.",
  zip: "ZIP Code must be 5 digits, or 5+4 like 06905-1234.",
  notAllowed: (label: string) => `${label} contains characters that are not allowed.`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
} as const;

/** Blank is "none" (null); text is trimmed, one line, within its limit. */
const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? v.trim() : v),
    z
      .string(`${label} must be text.`)
      .max(max, ACCOUNT_MESSAGES.tooLong(label, max))
      .refine(isOneLine, ACCOUNT_MESSAGES.notAllowed(label))
      .nullable(),
  );

const digits = (v: string) => v.replace(/\D/g, "");

export const contactDetailsSchema = z.object({
  email: optionalText("E-mail", 254).refine((v) => v === null || z.email().safeParse(v).success, ACCOUNT_MESSAGES.email),
  phone: optionalText("Phone", 30)
    .refine((v) => v === null || (/^\+?[\d\s().-]+$/.test(v) && digits(v).length >= 10 && digits(v).length <= 15), ACCOUNT_MESSAGES.phone)
    // Kept as the public forms keep it: 10 digits as (XXX) XXX-XXXX.
    .transform((v) => (v === null ? null : formatPhone(v))),
  address1: optionalText("Address line 1", 200),
  address2: optionalText("Address line 2", 200),
  city: optionalText("City", 100),
  state: optionalText("State", 2)
    .refine((v) => v === null || /^[A-Za-z]{2}$/.test(v), ACCOUNT_MESSAGES.state)
    .transform((v) => v?.toUpperCase() ?? null),
  zip: optionalText("ZIP Code", 10).refine((v) => v === null || /^\d{5}(?:-\d{4})?$/.test(v), ACCOUNT_MESSAGES.zip),
});
export type ContactDetails = z.output<typeof contactDetailsSchema>;

export const CONTACT_LABELS: Record<keyof ContactDetails, string> = {
  email: "E-mail",
  phone: "Phone",
  address1: "Address line 1",
  address2: "Address line 2",
  city: "City",
  state: "State",
  zip: "ZIP Code",
};

/** What 'Sign out everywhere' ended: every other session of the account; the one asking stays. */
export interface SignOutEverywhereAnswer {
  success: true;
  ended: number;
}

export const SIGN_OUT_EVERYWHERE = {
  button: "Sign out everywhere",
  busy: "Signing out...",
  failed: (reason: string) => `Could not sign out everywhere: ${reason}`,
  explanation: "Ends every other session of your account, on any browser or device. This one stays signed in.",
  done: (ended: number) =>
    ended === 0
      ? "You were not signed in anywhere else. This browser stays signed in."
      : `Signed out everywhere else: ${ended} other ${ended === 1 ? "session was" : "sessions were"} ended. This browser stays signed in.`,
} as const;

export interface AccountSubmission {
  /** contact_12, cpa_3, homeowner_7, application_5 */
  ref: string;
  formType: string;
  submittedAt: string;
  status: string;
  statusLabel: string;
  /** Each status change, oldest first. */
  changes: Array<{ toLabel: string; at: string }>;
}

export interface AccountOverview {
  membership: {
    certificate: string;
    firstName: string | null;
    lastName: string | null;
    active: boolean;
    memberSince: string;
  };
  contact: ContactDetails;
  /** Newest first. */
  submissions: AccountSubmission[];
}
