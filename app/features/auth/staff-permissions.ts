/** What a super_admin may let a limited_admin do beyond their role (migration 0039): the names and their labels, for server and browser. */
export const STAFF_PERMISSIONS = ["announcements"] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];
export const STAFF_PERMISSION_LABELS: Record<StaffPermission, string> = {
  announcements: "May write and send announcements",
};
