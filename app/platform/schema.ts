import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Booleans are stored as 0/1 and timestamps as ISO-8601 UTC strings on both dialects. */
export type Bool = number;
export type Timestamp = string;

export type Role = "user" | "limited_admin" | "super_admin";

export interface UsersTable {
  id: Generated<number>;
  certificate_number: string | null;
  birthdate_digest: string | null;
  username: string | null;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  is_active: Bool;
  is_core_admin: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Set at each successful sign-in (migration 0006). */
  last_login_at: Timestamp | null;
  /** A member's e-mail address (migration 0016). */
  email: string | null;
  /** A member's phone and postal address, which they keep up to date themselves (migration 0017). */
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

/** Migration 0037: a member's new e-mail address, waiting for the link sent to it to be followed. */
export interface EmailChangesTable {
  /** SHA-256 (hex) of the link's token: the table hands out no link. */
  token_digest: string;
  user_id: number;
  new_email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** When the link was followed (a link is used once); null while it waits. */
  used_at: Timestamp | null;
}

/** Migration 0039: an announcement (issue 41); its recipients are rows of membership_reminders (kind "announcement"). */
export interface AnnouncementsTable {
  id: Generated<number>;
  subject: string;
  body: string;
  /** JSON of the audience (features/announcements/contract.ts: Audience). */
  audience: string;
  status: string;
  scheduled_at: Timestamp | null;
  /** Outbox rows added when sending started. */
  recipients: number | null;
  created_by: number | null;
  updated_by: number | null;
  sent_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  cancelled_at: Timestamp | null;
}

/** Migration 0039: a member who stopped announcements. */
export interface AnnouncementOptOutsTable {
  user_id: number;
  source: string;
  created_at: Timestamp;
}

/** Migration 0039: what a super_admin lets a limited_admin do beyond their role. */
export interface StaffPermissionsTable {
  user_id: number;
  permission: string;
  granted_by: number | null;
  granted_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the session token: a leaked table does not hand out sessions. */
  id_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  idle_minutes: number;
  /** 1 when issued over HTTPS (the __Host- cookie); the token is accepted only on the same scheme. */
  secure: Bool;
}

/** rate-limiter-flexible's store: points used in the window that ends at `expire` (epoch ms). */
export interface RateLimitsTable {
  /** "<limiter>:<key>", e.g. "login_account:staff:chief" */
  key: string;
  points: number;
  expire: number | null;
}

export interface RssFeedsTable {
  id: Generated<number>;
  name: string;
  url: string;
  category: string;
  is_active: Bool;
  last_ingested_at: Timestamp | null;
  last_error: string | null;
  /** When last_error happened (migration 0014); cleared with it by the next successful fetch. */
  last_error_at: Timestamp | null;
  consecutive_failures: Generated<number>;
  /** Backoff: a failing feed is skipped until then. */
  next_attempt_at: Timestamp | null;
  etag: string | null;
  last_modified: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticlesTable {
  id: Generated<number>;
  feed_id: number;
  dedupe_key: string;
  guid: string | null;
  link: string;
  title: string;
  summary: string | null;
  content: string | null;
  image_url: string | null;
  published_at: Timestamp;
  category: string;
  source_name: string | null;
  content_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Kept by triggers on articles (migration 0003). */
export interface ArticleCategoryCountsTable {
  category: string;
  n: number;
}

/** Articles per day (the first ten characters of published_at), kept by triggers (migration 0012). */
export interface ArticleDayCountsTable {
  day: string;
  n: number;
}

/** Articles per category and day, kept by triggers (migration 0012). */
export interface ArticleCategoryDayCountsTable {
  category: string;
  day: string;
  n: number;
}

export interface IngestRunsTable {
  id: Generated<number>;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  /** running | success | failed */
  status: string;
  reason: string;
  articles_added: Generated<number>;
  articles_updated: Generated<number>;
  feeds_total: Generated<number>;
  feeds_failed: Generated<number>;
  feeds_not_modified: Generated<number>;
  feeds_skipped: Generated<number>;
  error: string | null;
}

/** Migration 0036: one row per lease name (platform/lease.server.ts), made by its first take. */
export interface LeasesTable {
  name: string;
  holder: string | null;
  expires_at: Timestamp | null;
  /** The run the holder is doing, for a job that records its runs (the ingest's `ingest_runs.id`). */
  run_id: number | null;
}

export interface RssMetaTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** Admin-side spec, section 4: a missing status is treated as pending. */
export type SubmissionStatus = "pending" | "in-review" | "approved" | "rejected" | "completed";

/**
 * What every kind's row has besides its own fields; its status, dates and submitter are its
 * submission's (`submissions`, migration 0031).
 */
interface SubmissionColumns {
  /** The kind's number (the 12 of contact_12), handed out from submission_numbers (migration 0030). */
  id: number;
  /** submissions.id; the row is deleted with its submission (migration 0030). */
  submission_id: number;
}

export interface ContactMessagesTable extends SubmissionColumns {
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
}

export interface CpaRequestsTable extends SubmissionColumns {
  first_name: string;
  last_name: string | null;
  email: string;
  phone: string | null;
  firm_name: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  notes: string | null;
  member_id: string | null;
}

export interface HomeownerMaterialRequestsTable extends SubmissionColumns {
  first_name: string;
  last_name: string | null;
  email: string;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  materials_requested: string | null;
  notes: string | null;
  member_id: string | null;
}

/** One staff action (migration 0006). details is JSON text and never holds a birthdate or a secret. */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: Timestamp;
  actor_id: number | null;
  /** The actor's username when the entry was written. */
  actor_label: string | null;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_label: string | null;
  row_count: number | null;
  details: string | null;
}

/** Hands out certificate numbers for members made from applications (migration 0016). */
export interface CertificateCounterTable {
  name: string;
  last_value: number;
}

/** A staff member's internal note on a submission (migration 0015; keyed by the submission's list row since 0028). */
export interface SubmissionNotesTable {
  id: Generated<number>;
  /** submissions.id; the note is deleted with the submission (migration 0028). */
  submission_id: number;
  author_id: number | null;
  /** The author's username when the note was written. */
  author_label: string | null;
  /** "note" (internal) or "reply" (an e-mail sent to the sender, with its subject). */
  kind: Generated<string>;
  subject: string | null;
  body: string;
  created_at: Timestamp;
}

/** Migration 0018: the staff member a submission is assigned to (keyed by its list row since 0028). */
export interface SubmissionAssignmentsTable {
  /** submissions.id, the primary key; the assignment is deleted with the submission (migration 0028). */
  submission_id: number;
  user_id: number;
  assigned_by: number | null;
  assigned_at: Timestamp;
}

export interface VideosTable {
  id: Generated<number>;
  /** An article category value (domain/article-categories.ts). */
  category: string;
  title: string;
  description: Generated<string>;
  /** 11 characters of [A-Za-z0-9_-]. */
  youtube_id: string;
  /** "m:ss" or "h:mm:ss" */
  duration: string | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One-time flags (for example: the default video catalogue was seeded). */
export interface AppFlagsTable {
  key: string;
  created_at: Timestamp;
}

/** Migration 0007: a membership application; signatures are PNG data URLs (data:image/png;base64,...). */
export interface ApplicationsTable extends SubmissionColumns {
  /**
   * The member made from (or linked to) this application once approved (migration 0016); set
   * null when that member is deleted (migration 0031). A member's "From application_N" is the
   * lowest application linked to them.
   */
  member_user_id: number | null;
  /**
   * Set while a member is being made from it, in the same transaction that links the member
   * and clears it: of two staff doing this at once, the second waits and sees the link (0031).
   */
  member_claimed_at: Timestamp | null;
  /** When the welcome e-mail was claimed for sending; set once (migration 0016). */
  welcome_sent_at: Timestamp | null;
  case_number: string | null;
  /** Decimal dollars with 2 places, e.g. "250000.00". */
  amount_of_coverage: string;
  applicant_name: string;
  co_applicant_name: string | null;
  /** Dates are YYYY-MM-DD. */
  dob: string;
  co_dob: string | null;
  gender: string;
  co_gender: string | null;
  email: string;
  co_email: string | null;
  phone: string;
  co_phone: string | null;
  todays_date: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  beneficiary_name: string | null;
  beneficiary_relationship: string | null;
  beneficiary_phone: string | null;
  beneficiary_email: string | null;
  payment_monthly_billing: Bool;
  payment_automatic_checking: Bool;
  payment_use_credit_card: Bool;
  cc_name_on_card: string | null;
  cc_cardholder_signature: string | null;
  cc_process_date: string | null;
  confirm_accuracy: Bool;
  applicant_signature: string;
  co_applicant_signature: string | null;
  ach_applicant_signature: string | null;
  ach_co_applicant_signature: string | null;
}

/**
 * Migration 0012 (as submission_list), 0030: one row per submission, the submission's identity.
 * Written with the kind's row by features/submissions/store.server.ts, with what the admin
 * list shows, sorts, filters and searches by, and the status, dates and submitter, which the
 * kind rows no longer hold (0031). Notes, assignments and the kind rows point at its id with
 * `on delete cascade`.
 */
export interface SubmissionsTable {
  id: Generated<number>;
  /** The kind's table. */
  source: string;
  /** The kind's number: the row's id in that table. */
  row_id: number;
  status: string;
  /** 1-5 in the workflow's order (an unknown status is 1, pending). */
  status_rank: number;
  /** 1-4: contact, CPA, material request, application. */
  type_rank: number;
  submitted_at: Timestamp;
  name_key: string;
  email_key: string;
  /** Lower-case name, e-mail and details, one per line. */
  search_text: string;
  /** An application's amount of coverage, lower case; null for the other sources. */
  coverage: string | null;
  /** As the list shows them (migration 0030). */
  name: string | null;
  email: string | null;
  phone: string | null;
  details: string | null;
  updated_at: Timestamp | null;
  /** The user who sent it while signed in, else null; set null when that user is deleted (migration 0031). */
  submitted_by: number | null;
}

/** The last number handed out per kind (migration 0030). */
export interface SubmissionNumbersTable {
  source: string;
  last: number;
}

/** Submissions per source and status, kept by triggers (migration 0012). */
export interface SubmissionCountsTable {
  source: string;
  status: string;
  n: number;
}

/** Migration 0007: a case record the application's case lookup answers from (admin CLI import-cases). */
export interface CasesTable {
  id: Generated<number>;
  /** Digits only, unique. */
  case_number: string;
  first_name: string | null;
  last_name: string | null;
  applicant_name: string | null;
  coverage: string | null;
  email: string | null;
  phone: string | null;
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  gender: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * Migration 0010: a member CSV import in progress (answer null) or finished, keyed by the staff
 * member and the SHA-256 of the file; a repeated post of the same upload is answered from here.
 */
export interface MemberImportClaimsTable {
  actor_id: number;
  content_digest: string;
  /** The claiming request's random id: only it may store the answer or release the claim. */
  token: string;
  claimed_at: Timestamp;
  finished_at: Timestamp | null;
  /** JSON of the HTTP status and body the first request answered with. */
  answer: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  rss_feeds: RssFeedsTable;
  articles: ArticlesTable;
  article_category_counts: ArticleCategoryCountsTable;
  article_day_counts: ArticleDayCountsTable;
  article_category_day_counts: ArticleCategoryDayCountsTable;
  ingest_runs: IngestRunsTable;
  leases: LeasesTable;
  rss_meta: RssMetaTable;
  contact_messages: ContactMessagesTable;
  cpa_requests: CpaRequestsTable;
  homeowner_material_requests: HomeownerMaterialRequestsTable;
  audit_log: AuditLogTable;
  submission_notes: SubmissionNotesTable;
  submission_assignments: SubmissionAssignmentsTable;
  certificate_counter: CertificateCounterTable;
  videos: VideosTable;
  app_flags: AppFlagsTable;
  applications: ApplicationsTable;
  cases: CasesTable;
  member_import_claims: MemberImportClaimsTable;
  submissions: SubmissionsTable;
  submission_numbers: SubmissionNumbersTable;
  submission_counts: SubmissionCountsTable;
  membership_plans: MembershipPlansTable;
  membership_co_insured: MembershipCoInsuredTable;
  membership_payments: MembershipPaymentsTable;
  membership_events: MembershipEventsTable;
  membership_verify_tokens: MembershipVerifyTokensTable;
  membership_reminders: MembershipRemindersTable;
  membership_reminder_days: MembershipReminderDaysTable;
  membership_online: MembershipOnlineTable;
  stripe_events: StripeEventsTable;
  page_generations: PageGenerationsTable;
  email_changes: EmailChangesTable;
  announcements: AnnouncementsTable;
  announcement_opt_outs: AnnouncementOptOutsTable;
  staff_permissions: StaffPermissionsTable;
  payments_import_mappings: PaymentsImportMappingsTable;
}

/** Migration 0040: a column mapping staff chose for a payments file's header (issue 40). */
export interface PaymentsImportMappingsTable {
  header_key: string;
  columns: string;
  mapping: string;
  saved_by: number | null;
  saved_by_label: string | null;
  saved_at: string;
}

/** Migration 0029: a counter per kind of shared content kept signed-in pages show (decision 011). */
export interface PageGenerationsTable {
  name: string;
  generation: number;
}

/** Migration 0026: the proof-of-coverage token of a member (derived from nonce; only its digest kept). */
export interface MembershipVerifyTokensTable {
  user_id: number;
  nonce: string;
  token_digest: string;
  created_at: Timestamp;
}

/** Migration 0026: a member's plan (one per member). Days are YYYY-MM-DD. */
export interface MembershipPlansTable {
  user_id: number;
  billing: string;
  coverage_cents: number | null;
  beneficiary_name: string | null;
  beneficiary_relationship: string | null;
  approved_on: string | null;
  carried_paid_through: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 0034: the co-insured of a household plan (the application's co-applicant); at most one per plan. */
export interface MembershipCoInsuredTable {
  user_id: number;
  first_name: string;
  last_name: string | null;
  /** YYYY-MM-DD */
  birthdate: string | null;
  gender: string | null;
  email: string | null;
  phone: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 0026: the ledger; a refund is a negative entry naming its payment, never an edit. */
export interface MembershipPaymentsTable {
  id: Generated<number>;
  user_id: number;
  amount_cents: number;
  paid_on: string;
  method: string;
  reference: string | null;
  refund_of: number | null;
  note: string | null;
  /** Migration 0033: the reinstatement (membership_events.id) this entry carried money into a new term with. */
  carried_with: Generated<number | null>;
  recorded_by: number | null;
  recorded_by_label: string | null;
  recorded_at: Timestamp;
}

/** Migration 0026: cancellations and reinstatements, in the order staff recorded them. */
export interface MembershipEventsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  on_date: string;
  reason: string | null;
  recorded_by: number | null;
  recorded_by_label: string | null;
  recorded_at: Timestamp;
}

/** Migration 0027: the reminder outbox; one row per member, kind and period (unique). */
export interface MembershipRemindersTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  period: string;
  due_on: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  claimed_by: string | null;
  claimed_until: Timestamp | null;
  last_error: string | null;
  sent_to: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 0027: a day whose reminders were planned (finished_at set once all are in the outbox). */
export interface MembershipReminderDaysTable {
  day: string;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  queued: Generated<number>;
}

/** Migration 0038: a member's payment reference and the provider's ids and autopay state (issue 40). */
export interface MembershipOnlineTable {
  user_id: number;
  payment_reference: string;
  customer_id: string | null;
  subscription_id: string | null;
  autopay: Generated<string>;
  autopay_billing: string | null;
  autopay_next_charge_on: string | null;
  autopay_reason: string | null;
  autopay_as_of: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 0038: each signed event of the payment provider, once by its id, with what became of it. */
export interface StripeEventsTable {
  id: string;
  type: string;
  created: number;
  state: string;
  reason: string | null;
  waits_for: string | null;
  member_id: number | null;
  payment_id: number | null;
  amount_cents: number | null;
  currency: string | null;
  client_reference: string | null;
  payment_intent: string | null;
  charge_id: string | null;
  invoice_id: string | null;
  subscription_id: string | null;
  customer_id: string | null;
  payload: string;
  received_at: Timestamp;
  applied_at: Timestamp | null;
  handled_by: number | null;
  handled_by_label: string | null;
  handled_at: Timestamp | null;
  handled_note: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
