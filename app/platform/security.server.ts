import crypto from "node:crypto";
import type { RequestHandler } from "express";
import helmet from "helmet";
import onHeaders from "on-headers";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that another site may have made. A browser's
 * `Sec-Fetch-Site` must say `same-origin` (our own pages) or `none` (typed by the user);
 * `same-site` is refused too, since a sibling subdomain or another port of the host is not
 * us. A browser that sends no Sec-Fetch-Site must send our exact `Origin`. Requests carrying
 * neither header do not come from a browser page and cannot ride on a visitor's cookie.
 */
export function sameOriginGuard(publicUrl: string | undefined): RequestHandler {
  const configuredOrigin = publicUrl ? new URL(publicUrl).origin : null;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    if (site !== undefined) {
      if (site === "same-origin" || site === "none") return next();
      return refuse(res);
    }
    const origin = req.get("origin");
    if (origin === undefined) return next();
    const ownOrigin = configuredOrigin ?? `${req.protocol}://${req.get("host")}`;
    if (origin !== ownOrigin) return refuse(res);
    next();
  };
}

// A host name (letters, digits, dots, dashes, underscores), an IPv4 address, or a bracketed IPv6 address,
// with an optional port.
const HOST_PATTERN = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/** True for a Host header that names a host (and port) and nothing else. */
export function isValidHost(host: string): boolean {
  const match = HOST_PATTERN.exec(host);
  if (!match) return false;
  if (match[1] !== undefined && Number(match[1]) > 65535) return false;
  try {
    // The URL parser has the last word (it refuses an IPv4 address like 1.2.3.999).
    return new URL(`http://${host}`).host !== "";
  } catch {
    return false;
  }
}

/**
 * A malformed Host header (`a b`, `evil:99999`, `[::1`) is the client's error: 400 before
 * anything builds a URL from it. HTTP/1.0 requests may carry none.
 */
export const hostHeaderGuard: RequestHandler = (req, res, next) => {
  const host = req.headers.host;
  if (host === undefined || knownGoodHosts.has(host)) return next();
  if (isValidHost(host)) {
    // The site answers to a handful of names: remember them rather than parse each request's.
    if (knownGoodHosts.size >= 64) knownGoodHosts.clear();
    knownGoodHosts.add(host);
    return next();
  }
  res.status(400).json({ success: false, error: "Bad Host header" });
};
const knownGoodHosts = new Set<string>();

/**
 * Whatever is answered to a signed-in user (page, data request, API answer) is that user's
 * alone: `Cache-Control: private, no-store`, set as the headers go out so that no handler's
 * own caching header can loosen it.
 */
export const privateWhenSignedIn: RequestHandler = (_req, res, next) => {
  if (res.locals.user) {
    onHeaders(res, function (this: typeof res) {
      this.setHeader("Cache-Control", "private, no-store");
    });
  }
  next();
};

function refuse(res: Parameters<RequestHandler>[1]) {
  res.status(403).json({ success: false, error: "Cross-site request refused" });
}

/** The Content-Security-Policy header: one for pages (their scripts named), one for every other answer. */
export interface ContentSecurityPolicy {
  /** For an answer that is not a page (JSON, a file, an error): no script runs in it. */
  readonly forAnyAnswer: string;
  /**
   * For a page: its inline scripts allowed by a nonce (`'nonce-…'`) or by their hashes
   * (`'sha256-…'`); 'strict-dynamic' lets the modules they import load. In development Vite's
   * scripts are allowed as they are.
   */
  forPage(scriptSources: string[]): string;
}

/** A fresh nonce for one page render (decision 007: only pages rendered for one visitor carry one). */
export function newCspNonce(): string {
  return crypto.randomBytes(18).toString("base64");
}

/**
 * Both policies are written out once; a page's differs from the other only in its script
 * sources, so no answer pays for building the header or drawing a nonce it does not use.
 */
export function contentSecurityPolicy(opts: { dev: boolean; frameSources?: string[] }): ContentSecurityPolicy {
  const directives = (scriptSrc: string[]) =>
    [
      ["default-src", "'self'"],
      ["script-src", ...scriptSrc],
      ["style-src", "'self'", "'unsafe-inline'"],
      ["img-src", "'self'", "data:", "https:"],
      ["font-src", "'self'"],
      ["connect-src", ...(opts.dev ? ["'self'", "ws:"] : ["'self'"])],
      ["frame-src", ...(opts.frameSources ?? ["'none'"])],
      ["object-src", "'none'"],
      ["base-uri", "'none'"],
      ["form-action", "'self'"],
      ["frame-ancestors", "'none'"],
    ]
      .map((d) => d.join(" "))
      .join(";");
  const devPolicy = directives(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
  const [before, after] = directives(["{scripts}"]).split("{scripts}");
  return {
    forAnyAnswer: opts.dev ? devPolicy : directives(["'none'"]),
    forPage: (scriptSources) => (opts.dev ? devPolicy : `${before}${[...scriptSources, "'strict-dynamic'"].join(" ")}${after}`),
  };
}

/** Helmet's headers without its CSP, which `csp` supplies; HSTS over HTTPS only. */
export function securityHeaders(csp: ContentSecurityPolicy): RequestHandler {
  const strict = helmet({
    contentSecurityPolicy: false,
    // HSTS is only meaningful (and only sent) over HTTPS; see below.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 31536000, includeSubDomains: true });
  return (req, res, next) => {
    res.setHeader("Content-Security-Policy", csp.forAnyAnswer);
    strict(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.secure) return hsts(req, res, next);
      next();
    });
  };
}
