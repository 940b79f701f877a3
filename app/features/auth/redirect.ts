import type { PublicUser } from "./user";
import { isAdmin } from "./user";

/** Only local paths are followed after login (never //host or a full URL). */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  if (value.startsWith("/login") || value.startsWith("/logout")) return null;
  return value;
}

/** Staff land on /admin/dashboard; members on the page they came from, else /knowledge-center. */
export function landingPath(user: Pick<PublicUser, "role">, redirectTo: string | null | undefined): string {
  if (isAdmin(user as PublicUser)) return "/admin/dashboard";
  return safeRedirectPath(redirectTo) ?? "/knowledge-center";
}

export const LOGIN_NAVIGATION_DELAY_MS = 100;
