import { Router, type Request, type RequestHandler, type Response } from "express";
import { clientIp, handler, jsonBody, noStore } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { Logger } from "~/platform/logger.server";
import { toPublicUser } from "./users.server";
import type { AuthService } from "./auth.server";
import { loginSchema } from "./contract";
import { clearSessionCookie, readSessionToken, sessionCookie } from "./cookie.server";
import { deviceCookieHeader, readDeviceCookie } from "./device-cookie.server";

/** Resolves the session cookie once per request into res.locals.user / res.locals.sessionToken. */
export function sessionMiddleware({ auth }: { auth: AuthService }): RequestHandler {
  return (req, res, next) => {
    const token = readSessionToken(req.headers.cookie, req.secure);
    res.locals.sessionToken = null;
    res.locals.user = null;
    // No session cookie: nobody to look up, and no promise to wait on.
    if (!token) return next();
    auth.userForSession(token, req.secure).then((row) => {
      if (row) {
        res.locals.sessionToken = token;
        res.locals.user = toPublicUser(row);
      }
      next();
    }, next);
  };
}

export function authRouter({ auth, logger }: { auth: AuthService; logger: Logger }): Router {
  const router = Router();
  const json = jsonBody();

  const login = handler(async (req: Request, res: Response) => {
    const input = parseInput(loginSchema, req.body ?? {});
    const result = await auth.login(input, clientIp(req), req.secure, readDeviceCookie(req.headers.cookie, req.secure));
    // A new session id at every login: the old one (if any) ends here.
    await auth.logout(res.locals.sessionToken ?? readSessionToken(req.headers.cookie, req.secure) ?? undefined);
    res.setHeader("Set-Cookie", [
      sessionCookie(result.token, result.expiresAt, req.secure),
      deviceCookieHeader(result.deviceCookie, req.secure),
    ]);
    logger.info({ userId: result.user.id, role: result.user.role }, "login");
    res.json({ success: true, user: result.user });
  });

  const logout = handler(async (req: Request, res: Response) => {
    await auth.logout(readSessionToken(req.headers.cookie, req.secure) ?? undefined);
    res.setHeader("Set-Cookie", clearSessionCookie(req.secure));
    res.json({ success: true });
  });

  router.post(["/api/auth/login", "/.netlify/functions/admin-login"], json, login);
  router.post(["/api/auth/logout", "/.netlify/functions/logout"], json, logout);
  router.get("/api/auth/me", noStore, (_req, res) => {
    res.json({ success: true, user: res.locals.user ?? null });
  });
  return router;
}
