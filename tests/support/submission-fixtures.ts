import type { Kysely } from "kysely";
import type { Dialect } from "../../app/platform/db.server";
import type { Database } from "../../app/platform/schema";
import type { SubmissionStatus, SubmissionTable } from "../../app/features/submissions/contract";
import {
  findKindRow,
  SubmissionStore,
  type KindRow,
  type KindValues,
  type StoreOptions,
} from "../../app/features/submissions/store.server";
import { encodePng, whiteScanlines } from "./png";

/*
 * Stored submissions for admin tests and benchmarks: application rows inserted directly (the
 * public application API is its own feature) and small, real PNG signatures.
 */

/** A white RGBA PNG with a dark wavy stroke across it (seed varies the wave), like a drawn signature. */
export function signaturePng(seed = 1, width = 160, height = 50): Buffer {
  const stride = width * 4 + 1;
  const raw = whiteScanlines(width, height);
  for (let x = 8; x < width - 8; x++) {
    const yc = Math.round(height / 2 + (height / 3) * Math.sin((x / (9 + seed)) * Math.PI));
    for (let dy = -1; dy <= 1; dy++) {
      const y = yc + dy;
      if (y < 0 || y >= height) continue;
      const o = y * stride + 1 + x * 4;
      raw[o] = 0x1e;
      raw[o + 1] = 0x29;
      raw[o + 2] = 0x3b;
    }
  }
  return encodePng(width, height, raw);
}

export const signatureDataUrl = (seed = 1) => `data:image/png;base64,${signaturePng(seed).toString("base64")}`;

/** An application's own fields, and the status, dates and submitter the store writes. */
export type ApplicationValues = KindValues<"applications"> & {
  status: SubmissionStatus;
  submitted_at: string;
  updated_at: string;
  submitted_by: number | null;
};

/** The database as the store needs it (services.database). */
export interface StoreTarget {
  db: Kysely<Database>;
  dialect: Dialect;
}

/** Stores one submission through the app's one writer; returns its number. */
export async function storeSubmission<T extends SubmissionTable>(
  target: StoreTarget,
  table: T,
  values: KindValues<T>,
  options: StoreOptions = {},
): Promise<number> {
  return (await new SubmissionStore(target.db, target.dialect).store(table, values, options)).id;
}

/** Deletes submissions of one kind by number, as the admin does (the kind rows, notes and assignments go with them). */
export async function deleteSubmissions(target: StoreTarget, table: SubmissionTable, ids: number[]): Promise<number> {
  return new SubmissionStore(target.db, target.dialect).deleteRows(table, ids);
}

/** A complete application row; override any column. */
export function applicationRow(overrides: Partial<ApplicationValues> = {}): ApplicationValues {
  const now = new Date().toISOString();
  return {
    case_number: "123456",
    amount_of_coverage: "250000.00",
    applicant_name: "Avery Applicant",
    co_applicant_name: "Casey Applicant",
    dob: "1980-04-02",
    co_dob: "1982-09-17",
    gender: "Female",
    co_gender: "Male",
    email: "avery@example.com",
    co_email: "casey@example.com",
    phone: "5551234567",
    co_phone: "5557654321",
    todays_date: now.slice(0, 10),
    address1: "12 Elm Street",
    address2: null,
    city: "Springfield",
    state: "IL",
    zip: "62701",
    beneficiary_name: "Jordan Heir",
    beneficiary_relationship: "Child",
    beneficiary_phone: "5550001111",
    beneficiary_email: "jordan@example.com",
    payment_monthly_billing: 0,
    payment_automatic_checking: 1,
    payment_use_credit_card: 0,
    cc_name_on_card: null,
    cc_cardholder_signature: null,
    cc_process_date: null,
    confirm_accuracy: 1,
    applicant_signature: signatureDataUrl(1),
    co_applicant_signature: signatureDataUrl(2),
    ach_applicant_signature: signatureDataUrl(3),
    ach_co_applicant_signature: signatureDataUrl(4),
    submitted_by: null,
    status: "pending",
    submitted_at: now,
    updated_at: now,
    ...overrides,
  };
}

export async function insertApplication(target: StoreTarget, overrides: Partial<ApplicationValues> = {}): Promise<number> {
  const { status, submitted_at, updated_at, submitted_by, ...values } = applicationRow(overrides);
  return storeSubmission(target, "applications", values, {
    status,
    submittedAt: submitted_at,
    updatedAt: updated_at,
    submittedBy: submitted_by,
  });
}

/** A stored submission's identity: the id of its list row, which its notes and assignment point at (migration 0028). */
export async function submissionIdentity(db: Kysely<Database>, table: string, id: number): Promise<number> {
  const row = await db
    .selectFrom("submissions")
    .select("id")
    .where("source", "=", table)
    .where("row_id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The stored row of a kind with this e-mail, with its submission's status, dates and submitter (the kind row holds none since 0031). */
export async function storedByEmail<T extends SubmissionTable>(db: Kysely<Database>, table: T, email: string): Promise<KindRow<T>> {
  const tables: SubmissionTable = table;
  const { id } = await db.selectFrom(tables).select("id").where("email", "=", email).executeTakeFirstOrThrow();
  const row = await findKindRow(db, table, Number(id));
  if (!row) throw new Error(`${table} ${id} has no submission`);
  return row;
}
