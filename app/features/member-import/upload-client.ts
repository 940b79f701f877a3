import { MESSAGES, UPLOAD_PATH, type UploadResponse } from "./contract";

import type { UploadPhase } from "~/components/upload/FileUpload";

export interface UploadAnswer {
  ok: boolean;
  status: number;
  body: UploadResponse | null;
}

/**
 * Sends an upload with XMLHttpRequest, whose upload events let the page show a progress bar
 * (fetch has none); once every byte is sent the server is processing the file.
 */
export function sendUpload(body: FormData | string, onPhase: (phase: UploadPhase) => void): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", UPLOAD_PATH);
    if (typeof body === "string") xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => onPhase({ kind: "sending", loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.upload.onload = () => onPhase({ kind: "processing" });
    xhr.onload = () => {
      let parsed: UploadResponse | null = null;
      try {
        parsed = JSON.parse(xhr.responseText) as UploadResponse;
      } catch {
        parsed = null;
      }
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, body: parsed });
    };
    xhr.onerror = () => reject(new Error("Network error: the server could not be reached"));
    xhr.ontimeout = () => reject(new Error("The upload timed out"));
    xhr.onabort = () => reject(new Error("The upload was cancelled"));
    xhr.send(body);
  });
}

/**
 * The Upload button's click. The second click of a double click (`detail` 2) is not a second
 * upload: a small file can be imported before it arrives, when the button is enabled again and
 * the page's own guard has been let go. A click from the keyboard has `detail` 0.
 */
export function onUploadClick(event: { detail: number }, upload: () => Promise<void>) {
  if (event.detail > 1) return;
  void upload();
}

/** A failure answer in the upload shape, for errors that never reached the server's JSON. */
export function failure(error: string, message: string): UploadResponse {
  return { success: false, error, message, stats: { total_processed: 0, successful: 0, errors: 0, processing_time_seconds: 0 } };
}

export const unknownMessage = (err: unknown) => (err instanceof Error && err.message ? err.message : MESSAGES.unknownError);
