/**
 * What crosses the wire for the member CSV import (POST /api/upload-users), shared by the
 * two upload pages and the server.
 */
import { z } from "~/platform/zod";
import { oneLineString } from "~/platform/text-fields";
import { normalizeHeader } from "~/platform/csv";

export const UPLOAD_PATH = "/api/upload-users";

/** Admin side, section 9: maximum upload size 10MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_LABEL = "10MB";

export const REQUIRED_COLUMNS = ["certificate_number", "birthdate"] as const;

/** The parsing-error list shows this many entries, then '... and N more errors'. */
export const SHOWN_ERRORS = 20;
/** The server sends at most this many row errors; stats.errors always has the full count. */
export const MAX_REPORTED_ERRORS = 500;

export const MESSAGES = {
  selectFirst: "Please select a CSV file first",
  selectCsv: "Please select a CSV file",
  selectValidFirst: "Please select a valid CSV file first",
  missingColumns: 'CSV must contain "certificate_number" and "birthdate" columns',
  readFailed: "Failed to read file",
  uploadFailed: "Upload failed",
  unknownError: "Unknown error occurred",
  tooLarge: `File is too large. The maximum size is ${MAX_UPLOAD_LABEL}.`,
  emptyFile: "The CSV file is empty",
  noRecords: "The CSV file has a header but no user records",
  noValidRows: "No valid user records to import",
  wrongAdminPassword: "Admin password is incorrect",
  writeFailed: "Import failed while saving; no users were changed. Please try again.",
  repeated: "You uploaded this file moments ago: this is the result of that upload. Nothing was imported again.",
} as const;

/** The uploaded file's name, as the browser sent it: it reaches the audit log and the log. */
export const uploadFilenameSchema = oneLineString("filename", "filename is required").max(255, "filename is too long");

/** JSON variant (/admin/upload). The admin password is optional: when given, the server re-checks it. */
export const jsonUploadSchema = z.object({
  csvContent: z.string({ error: "csvContent is required" }),
  filename: uploadFilenameSchema,
  adminPassword: z.string().max(200).optional(),
});
export type JsonUploadBody = z.infer<typeof jsonUploadSchema>;

export interface UploadStats {
  total_processed: number;
  successful: number;
  errors: number;
  processing_time_seconds: number;
}

export interface UploadResponse {
  success: boolean;
  message: string;
  error?: string;
  /** Row errors ("Line 4: ..."), at most MAX_REPORTED_ERRORS of them. */
  details?: string[];
  /** General errors (not tied to a row). */
  errors?: string[];
  stats: UploadStats;
  /** True when this post repeated the same file moments after (or while) it was imported: the answer is that import's. */
  repeated?: boolean;
  /** How the successful rows split up. */
  created?: number;
  updated?: number;
  unchanged?: number;
}

export const emptyStats = (): UploadStats => ({ total_processed: 0, successful: 0, errors: 0, processing_time_seconds: 0 });

export function hasRequiredColumns(header: string[]): boolean {
  const names = new Set(header.map(normalizeHeader));
  return REQUIRED_COLUMNS.every((c) => names.has(c));
}
