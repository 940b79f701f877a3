import crypto from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests made by another site: `Sec-Fetch-Site: cross-site`, or,
 * where a browser sends no Sec-Fetch-Site, an `Origin` that is not ours. Requests carrying
 * neither header do not come from a browser page and cannot ride on a visitor's cookie.
 */
export function sameOriginGuard(publicUrl: string | undefined): RequestHandler {
  const configuredOrigin = publicUrl ? new URL(publicUrl).origin : null;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    if (site) {
      if (site === "cross-site") return refuse(res);
      return next();
    }
    const origin = req.get("origin");
    if (!origin) return next();
    const ownOrigin = configuredOrigin ?? `${req.protocol}://${req.get("host")}`;
    if (origin !== ownOrigin) return refuse(res);
    next();
  };
}

function refuse(res: Parameters<RequestHandler>[1]) {
  res.status(403).json({ success: false, error: "Cross-site request refused" });
}

/** A fresh CSP nonce per request, in res.locals.cspNonce. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(18).toString("base64");
  next();
};

export function securityHeaders(opts: { dev: boolean; frameSources?: string[] }): RequestHandler {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as { locals: { cspNonce: string } }).locals.cspNonce}'`;
  const strict = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": opts.dev ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : [nonce, "'strict-dynamic'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": opts.dev ? ["'self'", "ws:"] : ["'self'"],
        "frame-src": opts.frameSources ?? ["'none'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      },
    },
    // HSTS is only meaningful (and only sent) over HTTPS; see below.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 31536000, includeSubDomains: true });
  return (req, res, next) => {
    strict(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.secure) return hsts(req, res, next);
      next();
    });
  };
}
