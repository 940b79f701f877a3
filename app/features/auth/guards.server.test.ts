import type { NextFunction, Request, Response } from "express";
import type { AppLoadContext } from "react-router";
import { describe, expect, it } from "vitest";
import { HttpError } from "~/platform/http.server";
import type { Role } from "~/platform/schema";
import { apiRequireAdmin, apiRequireSuperAdmin, apiRequireUser, requireAdmin, requireSuperAdmin, requireUser } from "./guards.server";
import type { PublicUser } from "./user";

const user = (role: Role): PublicUser => ({
  id: 1,
  certificate_number: role === "user" ? "C1" : null,
  username: role === "user" ? null : "staff",
  first_name: null,
  last_name: null,
  admin: role !== "user",
  role,
  is_active: true,
  is_core_admin: false,
});
const WHO = { anonymous: null, member: user("user"), limited: user("limited_admin"), super: user("super_admin") } as const;
type Who = keyof typeof WHO;

/** What a loader guard does: the user it returns, or the status and target of what it throws. */
function loaderOutcome(guard: (context: AppLoadContext) => PublicUser, who: Who) {
  try {
    return { user: guard({ user: WHO[who] } as unknown as AppLoadContext).role };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const d = thrown as { type?: string; init?: { status?: number }; data?: unknown };
    return { status: d.init?.status, data: d.data };
  }
}

/** What an API guard passes on to next(): nothing (go on) or the error's status. */
function apiOutcome(guard: (req: Request, res: Response, next: NextFunction) => void, who: Who) {
  const calls: unknown[][] = [];
  guard({} as Request, { locals: { user: WHO[who] } } as unknown as Response, ((...args: unknown[]) => calls.push(args)) as NextFunction);
  expect(calls).toHaveLength(1);
  const [err] = calls[0];
  return err === undefined ? "next" : err instanceof HttpError ? err.status : err;
}

describe("loader guards", () => {
  it("requireUser: 401 screen for visitors, anyone signed in passes", () => {
    expect(loaderOutcome(requireUser, "anonymous")).toEqual({ status: 401, data: { reason: "auth-required" } });
    expect(loaderOutcome(requireUser, "member")).toEqual({ user: "user" });
    expect(loaderOutcome(requireUser, "limited")).toEqual({ user: "limited_admin" });
  });

  it("requireAdmin: members go home, staff pass", () => {
    expect(loaderOutcome(requireAdmin, "anonymous")).toEqual({ status: 401, data: { reason: "auth-required" } });
    expect(loaderOutcome(requireAdmin, "member")).toEqual({ status: 302, location: "/" });
    expect(loaderOutcome(requireAdmin, "limited")).toEqual({ user: "limited_admin" });
    expect(loaderOutcome(requireAdmin, "super")).toEqual({ user: "super_admin" });
  });

  it("requireSuperAdmin: limited admins go to the dashboard, members home", () => {
    expect(loaderOutcome(requireSuperAdmin, "anonymous")).toEqual({ status: 401, data: { reason: "auth-required" } });
    expect(loaderOutcome(requireSuperAdmin, "member")).toEqual({ status: 302, location: "/" });
    expect(loaderOutcome(requireSuperAdmin, "limited")).toEqual({ status: 302, location: "/admin/dashboard?notice=super-admin-only" });
    expect(loaderOutcome(requireSuperAdmin, "super")).toEqual({ user: "super_admin" });
  });
});

describe("API guards", () => {
  it("answer 401 without a user and 403 for a role below the route's, else go on", () => {
    const table = (["anonymous", "member", "limited", "super"] as const).map((who) => [
      who,
      apiOutcome(apiRequireUser, who),
      apiOutcome(apiRequireAdmin, who),
      apiOutcome(apiRequireSuperAdmin, who),
    ]);
    expect(table).toEqual([
      ["anonymous", 401, 401, 401],
      ["member", "next", 403, 403],
      ["limited", "next", "next", 403],
      ["super", "next", "next", "next"],
    ]);
  });
});
