import type { Role } from "~/platform/schema";

/** The current user as the browser sees it (spec section 3), for display only. */
export interface PublicUser {
  id: number;
  certificate_number: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  admin: boolean;
  role: Role;
  is_active: boolean;
  is_core_admin: boolean;
}

export const isAdminRole = (role: Role) => role === "limited_admin" || role === "super_admin";
export const isAdmin = (user: PublicUser | null | undefined) => !!user && isAdminRole(user.role);
export const isSuperAdmin = (user: PublicUser | null | undefined) => user?.role === "super_admin";

/** The name in the header's welcome line. */
export function displayName(user: PublicUser): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ").trim();
  return name || user.username || user.certificate_number || "Member";
}

/** A signed-in member's id, kept with what they send (their account page lists it); staff and visitors: null. */
/** What a staff account hears from a page or call that is a member's own (My account, the membership card). */
export const MEMBERS_ONLY = "My account is for members. Staff accounts have no membership.";

export const memberIdOf = (user: PublicUser | null | undefined) => (user && user.role === "user" ? user.id : null);
