import { connectionFailure, requestInTime } from "~/platform/json-client";
import type { Application, ApplicationField, ApplicationRejected } from "./contract";

export type SubmitOutcome = { ok: true; id: number } | { ok: false; message: string; fields?: Partial<Record<ApplicationField, string>> };

/**
 * POST /api/applications with every field, the four signatures (data URLs or null) and
 * submittedAt. A failure's message is the server's details or error text, else
 * 'Submission failed', or 'Unknown error' (spec section 8).
 */
export async function postApplication(application: Application): Promise<SubmitOutcome> {
  let res: Response;
  let text: string;
  try {
    ({ response: res, text } = await requestInTime("/api/applications", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ ...application, submittedAt: new Date().toISOString() }),
    }));
  } catch (err) {
    return { ok: false, message: connectionFailure(err, "Could not reach the server. Please check your connection and try again.") };
  }
  const json = (): unknown => JSON.parse(text);
  if (res.ok) {
    let body: { id?: number } = {};
    try {
      body = json() as { id?: number };
    } catch {
      body = {};
    }
    return { ok: true, id: Number(body.id) };
  }
  let body: Partial<ApplicationRejected> = {};
  try {
    body = json() as Partial<ApplicationRejected>;
  } catch {
    return { ok: false, message: res.status === 413 ? "The signatures are too large to send." : "Submission failed" };
  }
  const details = Array.isArray(body.details) ? body.details.join(" ") : typeof body.details === "string" ? body.details : "";
  const message = details || body.error || "Submission failed";
  return { ok: false, message: message || "Unknown error", fields: body.fields };
}
