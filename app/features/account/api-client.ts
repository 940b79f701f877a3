import { jsonClient } from "~/platform/json-client";
import type { CardAnswer, MembershipAnswer } from "~/features/membership/contract";
import type { ContactDetails, ContactSaved, SignOutEverywhereAnswer } from "./contract";

const call = jsonClient();

export const accountApi = {
  /** The details on record, and the new e-mail address a link was sent to (if any). */
  saveContact: (contact: ContactDetails) => call<ContactSaved>("/api/account/contact", { method: "PUT", json: contact }),
  signOutEverywhere: () =>
    call<SignOutEverywhereAnswer>("/api/account/sign-out-everywhere", { method: "POST", json: {} }).then((b) => b.ended),
  /** The member's own plan, coverage and payments. */
  membership: (signal?: AbortSignal) => call<MembershipAnswer>("/api/account/membership", { signal }),
  /** The proof-of-coverage card's address and QR code. */
  card: (signal?: AbortSignal) => call<CardAnswer>("/api/account/membership/card", { signal }),
  /** A new code for the card: the old one stops verifying. */
  renewCard: () => call<CardAnswer>("/api/account/membership/card", { method: "POST", json: {} }),
};
