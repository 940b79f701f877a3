/**
 * Every kind of stored public submission, with what the admin side shows for it
 * (admin-side spec, section 3: id prefixes and form types). A new kind (the membership
 * application) is added here, in the schema types, in the repository's table map and in
 * the notification text.
 */
export const SUBMISSION_KINDS = {
  contact: { table: "contact_messages", idPrefix: "contact_", formType: "Contact Form", label: "contact message", family: "contact" },
  cpa: { table: "cpa_requests", idPrefix: "cpa_", formType: "CPA Request", label: "CPA request", family: "request" },
  homeowner: {
    table: "homeowner_material_requests",
    idPrefix: "homeowner_",
    formType: "Material Request",
    label: "homeowner material request",
    family: "request",
  },
} as const;

export type SubmissionKind = keyof typeof SUBMISSION_KINDS;

/** Forms that share one rate limit per visitor. */
export type SubmissionFamily = (typeof SUBMISSION_KINDS)[SubmissionKind]["family"];

export const SUBMISSION_STATUSES = ["pending", "in-review", "approved", "rejected", "completed"] as const;

/** The id staff see in the unified submissions list, e.g. "cpa_12". */
export function submissionReference(kind: SubmissionKind, id: number): string {
  return `${SUBMISSION_KINDS[kind].idPrefix}${id}`;
}
