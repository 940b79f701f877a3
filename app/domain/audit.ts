import type { Kysely } from "kysely";
import type { Database } from "~/platform/schema";

/**
 * The audit log's shape, shared by every feature that records in it (each receives an
 * AuditRecorder by constructor; members/audit-log.server.ts implements it and reads it back).
 */

/** Every action the audit log knows. members.import is written by the CSV upload, submissions.* by the submissions tab. */
export const AUDIT_ACTIONS = [
  "members.import",
  "members.activate",
  "members.deactivate",
  "members.delete",
  "members.export",
  "members.update",
  "staff.create",
  "staff.password_reset",
  "staff.role_change",
  "staff.delete",
  "staff.settings",
  "submissions.status",
  "submissions.delete",
  "submissions.export",
  "submissions.note",
  "submissions.reply",
  "submissions.assign",
  "feeds.retry",
  "applications.member_created",
  "applications.member_linked",
  "applications.welcome_sent",
  "account.contact_update",
  "membership.plan",
  "membership.payment",
  "membership.refund",
  "membership.cancel",
  "membership.reinstate",
  "membership.payments_import",
  "membership.payments_mapping",
  "membership.co_insured",
  "membership.online_assign",
  "membership.online_handled",
  "account.sign_out_everywhere",
  "account.email_change",
  "announcements.schedule",
  "announcements.send",
  "announcements.cancel",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "members.import": "Imported members",
  "members.activate": "Activated member",
  "members.deactivate": "Deactivated member",
  "members.delete": "Deleted member",
  "members.export": "Exported members",
  "members.update": "Edited member",
  "staff.create": "Added staff account",
  "staff.password_reset": "Reset staff password",
  "staff.role_change": "Changed staff role",
  "staff.delete": "Removed staff account",
  "staff.settings": "Changed staff settings",
  "submissions.status": "Changed submission status",
  "submissions.delete": "Deleted submissions",
  "submissions.export": "Exported submissions",
  "submissions.note": "Added a note to a submission",
  "submissions.reply": "Replied to a submission by e-mail",
  "submissions.assign": "Assigned a submission",
  "feeds.retry": "Retried RSS feed",
  "applications.member_created": "Created a member from an application",
  "applications.member_linked": "Linked an application to a member",
  "applications.welcome_sent": "Sent a new member's welcome e-mail",
  "account.contact_update": "A member updated their contact details",
  "membership.plan": "Set a member's plan",
  "membership.payment": "Recorded a payment",
  "membership.refund": "Recorded a refund",
  "membership.cancel": "Cancelled a membership",
  "membership.reinstate": "Reinstated a membership",
  "membership.payments_import": "Imported payments",
  "membership.payments_mapping": "Saved a payments file's column mapping",
  "membership.co_insured": "Changed a plan's co-insured",
  "membership.online_assign": "Assigned an unmatched online payment to a member",
  "membership.online_handled": "Marked an unmatched online payment handled",
  "account.sign_out_everywhere": "Signed out everywhere else",
  "account.email_change": "A member confirmed a new e-mail address",
  "announcements.schedule": "Scheduled an announcement",
  "announcements.send": "Sent an announcement",
  "announcements.cancel": "Cancelled an announcement",
};

export interface AuditEntry {
  id: number;
  created_at: string;
  actor_id: number | null;
  actor_label: string | null;
  action: AuditAction;
  target_type: string | null;
  target_id: number | null;
  target_label: string | null;
  row_count: number | null;
  details: Record<string, unknown> | null;
}

export interface AuditRecord {
  /** The staff account acting; null for the system (a CLI run, a scheduler). */
  actorId: number | null;
  action: AuditAction;
  target?: { type: "member" | "staff" | "submission" | "feed" | "announcement"; id: number | null; label: string | null };
  /** How many rows the action touched (an import, an export); omitted for one-row actions. */
  rowCount?: number;
  /** Anything else worth keeping (a filter, a role change). Never a birthdate, digest or password. */
  details?: Record<string, unknown>;
}

/**
 * How every feature writes to the audit log (the AuditLog service implements it; services
 * receive it by constructor). Pass a transaction as `db` to record together with the change.
 */
export interface AuditRecorder {
  record(entry: AuditRecord, db?: Kysely<Database>): Promise<void>;
}
