import { describe, expect, it } from "vitest";
import { displayName, isAdmin, isAdminRole, isSuperAdmin, memberIdOf, type PublicUser } from "./user";

const user = (over: Partial<PublicUser> = {}): PublicUser => ({
  id: 7,
  certificate_number: "C-7",
  username: null,
  first_name: null,
  last_name: null,
  admin: false,
  role: "user",
  is_active: true,
  is_core_admin: false,
  ...over,
});

describe("roles", () => {
  it("counts only limited and super admins as staff, and only super admins as super", () => {
    expect([isAdminRole("user"), isAdminRole("limited_admin"), isAdminRole("super_admin")]).toEqual([false, true, true]);
    expect([null, undefined, user(), user({ role: "limited_admin" }), user({ role: "super_admin" })].map(isAdmin)).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
    expect([null, undefined, user(), user({ role: "limited_admin" }), user({ role: "super_admin" })].map(isSuperAdmin)).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it("keeps a member's id with what they send, never staff's or a visitor's", () => {
    expect(memberIdOf(user({ id: 41 }))).toBe(41);
    expect(memberIdOf(user({ id: 42, role: "limited_admin" }))).toBeNull();
    expect(memberIdOf(user({ id: 43, role: "super_admin" }))).toBeNull();
    expect(memberIdOf(null)).toBeNull();
    expect(memberIdOf(undefined)).toBeNull();
  });
});

describe("displayName", () => {
  it("prefers the full name, then either part, then the username, the certificate number, and 'Member'", () => {
    expect(displayName(user({ first_name: "Ann", last_name: "Lee", username: "ann" }))).toBe("Ann Lee");
    expect(displayName(user({ first_name: "Ann" }))).toBe("Ann");
    expect(displayName(user({ last_name: "Lee" }))).toBe("Lee");
    expect(displayName(user({ first_name: " ", last_name: null, username: "staffer" }))).toBe("staffer");
    expect(displayName(user({ username: "staffer" }))).toBe("staffer");
    expect(displayName(user())).toBe("C-7");
    expect(displayName(user({ certificate_number: null }))).toBe("Member");
    expect(displayName(user({ first_name: "", last_name: "", username: "", certificate_number: "" }))).toBe("Member");
  });
});
