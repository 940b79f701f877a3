/**
 * 'My account' (issue 18): a signed-in member's membership, everything they sent while signed
 * in with its status and the date of each change, and their contact details.
 *   GET /api/account                -> AccountOverview
 *   PUT /api/account/contact {...}  -> { success, contact }
 *   POST /api/account/sign-out-everywhere -> SignOutEverywhereAnswer (members and staff: issue 30)
 */
import { z } from "~/platform/zod";
import { MEMBERS_ONLY } from "~/features/auth/user";
import { isOneLine } from "~/platform/text-fields";
import { formatPhone } from "~/domain/formats";

export const ACCOUNT_MESSAGES = {
  membersOnly: MEMBERS_ONLY,
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
  /** A new e-mail address waiting for its link to be followed. */
  emailPending: string | null;
  /** Newest first. */
  submissions: AccountSubmission[];
}

/** A member's new e-mail address takes effect once the link sent to it is followed (issue 39). */
export const EMAIL_CHANGE = {
  /** How long the link works. */
  validHours: 24,
  pending: (address: string) => `We sent a link to ${address}: the change takes effect when you follow it.`,
  waiting: (address: string) => `Waiting for confirmation: ${address}. Follow the link we sent there to use it.`,
  mailOff: "Your e-mail address cannot be changed here: this site sends no mail. Please contact us to change it.",
  notSent: "The link could not be sent. Please try again later.",
  tooMany: "Too many e-mail address changes. Please try again later.",
  pageTitle: "Confirm your new e-mail address",
  question: (address: string) => `Use ${address} for your membership? Mail about your membership will go there from now on.`,
  confirm: "Confirm new address",
  done: (address: string) => `Your e-mail address is now ${address}.`,
  expired: "This link has expired. Change your e-mail address on My account again to get a new link.",
  used: "This link was already used.",
  invalid: "This link is not valid. It may have been replaced by a newer one.",
} as const;

/** What saving the contact details did: the e-mail address may be waiting for its link. */
export interface ContactSaved {
  success: true;
  contact: ContactDetails;
  /** The new address a link was sent to; null when the e-mail address did not change or changed at once. */
  emailPending: string | null;
}
