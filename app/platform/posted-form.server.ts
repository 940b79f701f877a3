import { data } from "react-router";

export const UNREADABLE_FORM = "The form could not be read. Please fill it in on the page and send it again.";

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The body of a page action, read as a browser form posts it. Anything else (JSON, plain
 * text, no body, a broken multipart body) is the caller's mistake: a 400, never a 500.
 */
export async function readPostedForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw data(UNREADABLE_FORM, { status: 400 });
  try {
    return await request.formData();
  } catch {
    throw data(UNREADABLE_FORM, { status: 400 });
  }
}
