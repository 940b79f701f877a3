import { jsonClient } from "~/platform/json-client";
import type { ContactDetails } from "./contract";

const call = jsonClient();

export const accountApi = {
  saveContact: (contact: ContactDetails) =>
    call<{ success: true; contact: ContactDetails }>("/api/account/contact", { method: "PUT", json: contact }).then((b) => b.contact),
};
