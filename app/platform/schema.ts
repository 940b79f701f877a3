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
}

export interface SessionsTable {
  /** SHA-256 of the session token: a leaked table does not hand out sessions. */
  id_hash: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  idle_minutes: number;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  /** "account:<kind>:<identifier>" or "ip:<address>" */
  key: string;
  attempted_at: Timestamp;
}

export interface RateLimitHitsTable {
  id: Generated<number>;
  bucket: string;
  key: string;
  hit_at: Timestamp;
}

/** Admin-side spec, section 4: a missing status is treated as pending. */
export type SubmissionStatus = "pending" | "in-review" | "approved" | "rejected" | "completed";

interface SubmissionColumns {
  id: Generated<number>;
  status: Generated<SubmissionStatus>;
  submitted_at: Timestamp;
  updated_at: Timestamp;
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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  rate_limit_hits: RateLimitHitsTable;
  contact_messages: ContactMessagesTable;
  cpa_requests: CpaRequestsTable;
  homeowner_material_requests: HomeownerMaterialRequestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
