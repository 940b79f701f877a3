/**
 * Staff's browser calls to the membership API (see ../contract.ts). Every call reads the JSON
 * answer and throws an ApiError carrying the server's `error` text and its `details`.
 */
import { jsonClient } from "~/platform/json-client";
import type { EarlierPayments, MembershipAnswer, PaymentInput, PaymentsImportAnswer, PlanInput } from "../contract";
import type { CoInsuredInput } from "../co-insured";
import type { UploadPhase } from "~/components/upload/FileUpload";

const call = jsonClient();
const base = (memberId: number) => `/api/admin/members/${memberId}/membership`;

/** What the forms send: the schemas' input side (amounts as typed; the server parses them again). */
export type PaymentBody = Omit<PaymentInput, "amount"> & { amount: string };
export type PlanBody = Omit<PlanInput, "coverageAmount"> & { coverageAmount: string | null };
export interface RefundBody {
  amount: string | null;
  refundedOn: string;
  reason: string;
}
export interface ReinstateBody {
  reinstatedOn: string;
  reason: string | null;
  /** What becomes of the money left from the earlier term; null when none is left. */
  earlierPayments: EarlierPayments | null;
}

export const membershipApi = {
  view: (memberId: number, signal?: AbortSignal) => call<MembershipAnswer>(base(memberId), { signal }),
  setPlan: (memberId: number, body: PlanBody) => call<MembershipAnswer>(`${base(memberId)}/plan`, { method: "PUT", json: body }),
  recordPayment: (memberId: number, body: PaymentBody) =>
    call<MembershipAnswer>(`${base(memberId)}/payments`, { method: "POST", json: body }),
  refund: (paymentId: number, body: RefundBody) =>
    call<MembershipAnswer>(`/api/admin/membership/payments/${paymentId}/refund`, { method: "POST", json: body }),
  cancel: (memberId: number, body: { cancelledOn: string; reason: string }) =>
    call<MembershipAnswer>(`${base(memberId)}/cancel`, { method: "POST", json: body }),
  reinstate: (memberId: number, body: ReinstateBody) =>
    call<MembershipAnswer>(`${base(memberId)}/reinstate`, { method: "POST", json: body }),
  setCoInsured: (memberId: number, body: CoInsuredInput) =>
    call<MembershipAnswer>(`${base(memberId)}/co-insured`, { method: "PUT", json: body }),
  removeCoInsured: (memberId: number) => call<MembershipAnswer>(`${base(memberId)}/co-insured`, { method: "DELETE" }),
};

export const PAYMENTS_IMPORT_PATH = "/api/admin/membership/payments/import";

export interface ImportAnswer {
  status: number;
  body: (PaymentsImportAnswer & { error?: undefined }) | { success: false; error: string; details?: unknown } | null;
}

/**
 * Sends the payment portal's file to preview or apply, with XMLHttpRequest: its upload events
 * drive the progress bar (fetch has none); once every byte is sent the server is at work.
 */
export function sendPaymentsImport(
  csv: string,
  apply: boolean,
  onPhase: (phase: UploadPhase) => void,
  mapping: PaymentsImportAnswer["report"]["format"]["mapping"] = null,
  leaveOutNotDues = false,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", PAYMENTS_IMPORT_PATH);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => onPhase({ kind: "sending", loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.upload.onload = () => onPhase({ kind: "processing" });
    xhr.onload = () => {
      let body: ImportAnswer["body"] = null;
      try {
        body = JSON.parse(xhr.responseText) as ImportAnswer["body"];
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error("Network error: the server could not be reached"));
    xhr.ontimeout = () => reject(new Error("The upload timed out"));
    xhr.onabort = () => reject(new Error("The upload was cancelled"));
    xhr.send(JSON.stringify({ csv, apply, ...(mapping ? { mapping } : {}), ...(leaveOutNotDues ? { leaveOutNotDues } : {}) }));
  });
}
