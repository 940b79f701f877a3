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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  rate_limit_hits: RateLimitHitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
