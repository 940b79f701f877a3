import { SOURCES, type SubmissionTable } from "../contract";

/**
 * Every kind of public submission the forms store, with its table (whose id prefix and form
 * type the admin list shows: `SOURCES` in the contract) and how the notification names it.
 * A new kind is added here, in the schema types, in the repository's table map and in the
 * notification text.
 */
export const SUBMISSION_KINDS = {
  contact: { table: "contact_messages", label: "contact message", family: "contact" },
  cpa: { table: "cpa_requests", label: "CPA request", family: "request" },
  homeowner: { table: "homeowner_material_requests", label: "homeowner material request", family: "request" },
} as const satisfies Record<string, { table: SubmissionTable; label: string; family: string }>;

export type SubmissionKind = keyof typeof SUBMISSION_KINDS;

/** Forms that share one rate limit per visitor. */
export type SubmissionFamily = (typeof SUBMISSION_KINDS)[SubmissionKind]["family"];

/** The id staff see in the unified submissions list, e.g. "cpa_12". */
export function submissionReference(kind: SubmissionKind, id: number): string {
  return `${SOURCES[SUBMISSION_KINDS[kind].table].prefix}${id}`;
}
