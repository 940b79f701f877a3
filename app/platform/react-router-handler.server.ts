import "./context";
import express, { type Request, type RequestHandler, type Response } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Services } from "./services.server";
import { clientIp, HttpError } from "./http.server";

/** What a page answers to: reading it, and posting its form (the page's action). */
export const PAGE_METHODS = ["GET", "HEAD", "POST"] as const;
const PAGE_METHOD_SET = new Set<string>(PAGE_METHODS);

/**
 * Serves React Router pages from Express. The request body is read (and size-limited)
 * before React Router sees it, whatever its Content-Type, so a page action cannot be
 * flooded the way an unlimited stream could. Pages take GET, HEAD and POST only: any other
 * method (DELETE, PUT, and TRACE, which a Fetch Request cannot even carry) is a 405.
 */
export function reactRouterHandler(
  services: Services,
  build: ServerBuild | (() => Promise<ServerBuild>),
  opts: { mode: string; bodyLimit?: string },
): RequestHandler[] {
  const handle = createRequestHandler(build as ServerBuild, opts.mode);
  const allowedMethod: RequestHandler = (req, _res, next) => {
    if (PAGE_METHOD_SET.has(req.method)) return next();
    next(new HttpError(405, "Method not allowed", undefined, { Allow: PAGE_METHODS.join(", ") }));
  };
  const readBody = express.raw({ type: () => true, limit: opts.bodyLimit ?? "1mb" });
  const render: RequestHandler = async (req, res, next) => {
    try {
      const request = toFetchRequest(req, res);
      const context: AppLoadContext = {
        services,
        user: res.locals.user ?? null,
        sessionToken: res.locals.sessionToken ?? null,
        cspNonce: res.locals.cspNonce,
        publicConfig: services.publicConfig,
        ip: clientIp(req),
        secure: req.secure,
      };
      const response = await handle(request, context);
      await sendFetchResponse(res, response);
    } catch (err) {
      next(err);
    }
  };
  return [allowedMethod, readBody, render];
}

function toFetchRequest(req: Request, res: Response): globalThis.Request {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  // Aborted when the client goes away before the answer is sent. The listener sits on this
  // request's response, not on the socket: a keep-alive socket outlives many requests, and a
  // listener per request there would pile up.
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && Buffer.isBuffer(req.body) && req.body.length > 0;
  return new Request(url.href, {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(req.body as Buffer) : undefined,
    signal: controller.signal,
  });
}

async function sendFetchResponse(res: Response, response: globalThis.Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") continue;
    res.append(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.append("Set-Cookie", cookies);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
