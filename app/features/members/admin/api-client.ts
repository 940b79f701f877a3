/**
 * Browser calls to /api/admin/... Every call reads the JSON answer and throws an ApiError
 * carrying the server's `error` text (or 'HTTP error! status: N').
 */
import { jsonClient } from "~/platform/json-client";
import type {
  AuditPage,
  CreateStaffInput,
  MemberAnswer,
  MemberEditInput,
  MembersPage,
  StaffAnswer,
  StaffList,
  StaffRole,
  StaffSettingsInput,
} from "../contract";

export { errorReason as errorText } from "~/platform/json-client";

const call = jsonClient();

export const membersApi = {
  list: (query: URLSearchParams, signal?: AbortSignal) => call<MembersPage>(`/api/admin/members?${query}`, { signal }),
  exportHref: (query: URLSearchParams) => `/api/admin/members/export?${query}`,
  setActive: (id: number, isActive: boolean) =>
    call<MemberAnswer>(`/api/admin/members/${id}`, { method: "PATCH", json: { is_active: isActive } }).then((b) => b.member),
  update: (id: number, input: MemberEditInput) =>
    call<MemberAnswer>(`/api/admin/members/${id}`, { method: "PUT", json: input }).then((b) => b.member),
  remove: (id: number) => call<{ success: true }>(`/api/admin/members/${id}`, { method: "DELETE" }),
};

export const staffApi = {
  list: () => call<StaffList>("/api/admin/staff").then((b) => b.staff),
  create: (input: CreateStaffInput) => call<StaffAnswer>("/api/admin/staff", { method: "POST", json: input }).then((b) => b.staff),
  changeRole: (id: number, role: StaffRole) =>
    call<StaffAnswer>(`/api/admin/staff/${id}`, { method: "PATCH", json: { role } }).then((b) => b.staff),
  settings: (id: number, input: StaffSettingsInput) =>
    call<StaffAnswer>(`/api/admin/staff/${id}/settings`, { method: "PUT", json: input }).then((b) => b.staff),
  resetPassword: (id: number, password: string) =>
    call<{ success: true }>(`/api/admin/staff/${id}/password`, { method: "POST", json: { password } }),
  remove: (id: number) => call<{ success: true }>(`/api/admin/staff/${id}`, { method: "DELETE" }),
};

export const auditApi = {
  list: (query: URLSearchParams, signal?: AbortSignal) => call<AuditPage>(`/api/admin/audit?${query}`, { signal }),
};
