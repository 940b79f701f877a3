/** What a page action answers when a public form is posted without JavaScript. */
export type FormActionData =
  | { status: "success"; id: number }
  | { status: "invalid"; values: Record<string, string>; errors: Record<string, string> }
  | { status: "failed"; values: Record<string, string>; message: string };
