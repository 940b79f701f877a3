import type { RequestHandler } from "express";
import { data, redirect, type AppLoadContext } from "react-router";
import { forbidden, unauthorized } from "~/platform/http.server";
import { isAdmin, isSuperAdmin, type PublicUser } from "./user";

/*
 * Authorization happens here, on the server, from the session: the browser's copy of the
 * user is for display only. Loaders use the require* helpers, API routers the api* ones.
 */

/** For loaders/actions: a logged-out visitor gets the 401 "Authentication Required" screen. */
export function requireUser(context: AppLoadContext): PublicUser {
  if (!context.user) throw data({ reason: "auth-required" }, { status: 401 });
  return context.user;
}

/** The members-only gate (spec: the page shown to visitors who are not logged in). */
export const MEMBERS_GATE = "/members-only";
/** The knowledge center's two addresses, with or without a trailing slash. */
const KNOWLEDGE_CENTER_PATH = /^\/knowledge(?:-center)?\/?$/;

/**
 * For the knowledge center: a visitor who is not signed in goes to the members-only gate,
 * where every Knowledge Center link of the site takes a visitor, rather than the bare
 * "Authentication Required" screen. `pathname` is the page asked for; other pages are left
 * to requireUser.
 */
export function gateVisitorFromKnowledgeCenter(context: AppLoadContext, pathname: string): void {
  if (!context.user && KNOWLEDGE_CENTER_PATH.test(pathname)) throw redirect(MEMBERS_GATE);
}

/** A signed-in non-admin is sent to /. */
export function requireAdmin(context: AppLoadContext): PublicUser {
  const user = requireUser(context);
  if (!isAdmin(user)) throw redirect("/");
  return user;
}

/** A limited_admin is sent to the dashboard, which tells them why; a member to /. */
export function requireSuperAdmin(context: AppLoadContext): PublicUser {
  const user = requireUser(context);
  if (!isSuperAdmin(user)) throw redirect(isAdmin(user) ? "/admin/dashboard?notice=super-admin-only" : "/");
  return user;
}

const currentUser = (res: { locals: Record<string, unknown> }) => res.locals.user as PublicUser | null | undefined;

export const apiRequireUser: RequestHandler = (_req, res, next) => {
  if (!currentUser(res)) return next(unauthorized());
  next();
};

export const apiRequireAdmin: RequestHandler = (_req, res, next) => {
  const user = currentUser(res);
  if (!user) return next(unauthorized());
  if (!isAdmin(user)) return next(forbidden());
  next();
};

export const apiRequireSuperAdmin: RequestHandler = (_req, res, next) => {
  const user = currentUser(res);
  if (!user) return next(unauthorized());
  if (!isSuperAdmin(user)) return next(forbidden());
  next();
};
