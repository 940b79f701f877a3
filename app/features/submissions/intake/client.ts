import { requestInTime } from "~/platform/json-client";

/** What the browser learns from posting a public form to the JSON API. */
export type PostResult =
  { ok: true; id: number } | { ok: false; status: number; error: string; details?: Record<string, string>; bodyText: string };

/**
 * Posts JSON and reads the answer. A network failure throws (the caller shows its failure
 * message), no answer in time a ConnectionLostError; any HTTP answer is returned, with the
 * server's message when it sent one.
 */
export async function postForm(url: string, body: unknown): Promise<PostResult> {
  const { response, text } = await requestInTime(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let json: { success?: boolean; ok?: boolean; id?: number; error?: unknown; details?: unknown } | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (response.ok && json && (json.success || json.ok) && typeof json.id === "number") return { ok: true, id: json.id };
  const error = typeof json?.error === "string" ? json.error : text.trim().slice(0, 300) || response.statusText;
  const details = json?.details && typeof json.details === "object" ? (json.details as Record<string, string>) : undefined;
  return { ok: false, status: response.status, error, details, bodyText: text };
}

/** A message ends without its final period when it is placed inside a sentence. */
export function withoutFinalPeriod(message: string): string {
  return message.trim().replace(/[.\s]+$/, "");
}
