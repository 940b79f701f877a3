/** The two request forms of /form-requests. */
export const REQUEST_FORMS = {
  cpa: {
    title: "CPA Request",
    summary: "Statements and membership documents for your accountant or tax preparer.",
  },
  homeowner: {
    title: "Homeowner Material Request",
    summary: "Printed guides, checklists and coverage brochures mailed or e-mailed to you.",
  },
} as const;
export type RequestFormKind = keyof typeof REQUEST_FORMS;

export function isRequestFormKind(value: unknown): value is RequestFormKind {
  return value === "cpa" || value === "homeowner";
}
