import { jsonClient } from "~/platform/json-client";
import type { ContactDetails, SignOutEverywhereAnswer } from "./contract";

const call = jsonClient();

export const accountApi = {
  saveContact: (contact: ContactDetails) =>
    call<{ success: true; contact: ContactDetails }>("/api/account/contact", { method: "PUT", json: contact }).then((b) => b.contact),
  signOutEverywhere: () =>
    call<SignOutEverywhereAnswer>("/api/account/sign-out-everywhere", { method: "POST", json: {} }).then((b) => b.ended),
};
