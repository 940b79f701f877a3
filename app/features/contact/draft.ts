import { draftKey } from "~/components/forms/draft";

/** The contact form's fields a draft keeps (all of them: name, email, phone, subject, message). */
export const CONTACT_DRAFT_FIELDS = ["name", "email", "phone", "subject", "message"] as const;

/** The draft form's name (components/forms/draft: one draft per form and per signed-in user). */
export const CONTACT_DRAFT_FORM = "contact";

/** Where a visitor's (not signed in) contact message that could not be sent is kept until it is sent. */
export const CONTACT_DRAFT_KEY = draftKey(CONTACT_DRAFT_FORM, null);
