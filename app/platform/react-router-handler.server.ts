import "./context";
import express, { type Request, type RequestHandler, type Response } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Services } from "./services.server";
import { clientIp } from "./http.server";

/**
 * Serves React Router pages from Express. The request body is read (and size-limited)
 * before React Router sees it, whatever its Content-Type, so a page action cannot be
 * flooded the way an unlimited stream could.
 */
export function reactRouterHandler(
  services: Services,
  build: ServerBuild | (() => Promise<ServerBuild>),
  opts: { mode: string; bodyLimit?: string },
): RequestHandler[] {
  const handle = createRequestHandler(build as ServerBuild, opts.mode);
  const readBody = express.raw({ type: () => true, limit: opts.bodyLimit ?? "1mb" });
  const render: RequestHandler = async (req, res, next) => {
    try {
      const request = toFetchRequest(req);
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
  return [readBody, render];
}

function toFetchRequest(req: Request): globalThis.Request {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  const controller = new AbortController();
  req.socket.once("close", () => controller.abort());
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
