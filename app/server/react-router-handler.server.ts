import "./context";
import express, { type Request, type RequestHandler, type Response } from "express";
import { createRequestHandler, matchRoutes, type AppLoadContext, type RouteObject, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { Services } from "./services.server";
import { clientIp, HttpError, MALFORMED_URL, notFound } from "~/platform/http.server";
import {
  publicPageQuery,
  signedInPageOf,
  type SignedInPageOf,
  type SignedInFrameName,
  type SignedInPageContent,
} from "~/platform/public-page";
import type { PublicUser } from "~/features/auth/user";
import { newCspNonce, type ContentSecurityPolicy } from "~/platform/security.server";
import {
  bodyFor,
  inlineScriptHashes,
  keepPage,
  keptPageAddress,
  MAX_CACHED_URL_LENGTH,
  NOT_FOUND_KEY,
  NOT_FOUND_RENDER_PATH,
  type PageCache,
  pickEncoding,
  PUBLIC_PAGE_CACHE_CONTROL,
  type CachedPage,
} from "./page-cache.server";
import { fillTemplate, userShape, valuesOf, type FrameContent, type SignedInPages, type StandInRender } from "./signed-in-pages.server";
import { PAGE_FRAMES } from "./page-frames.server";

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
  opts: { mode: string; csp: ContentSecurityPolicy; bodyLimit?: string; pageCache?: PageCache; signedInPages?: SignedInPages },
): RequestHandler[] {
  const handle = createRequestHandler(build as ServerBuild, opts.mode);
  // Kept pages are rendered from the site's own address: without PUBLIC_URL the site does not
  // know it (its pages name whatever Host was asked for), and no page is kept.
  const siteOrigin = services.config.PUBLIC_URL ? new URL(services.config.PUBLIC_URL).origin : null;
  const allowedMethod: RequestHandler = (req, _res, next) => {
    if (!PAGE_METHOD_SET.has(req.method))
      return next(new HttpError(405, "Method not allowed", undefined, { Allow: PAGE_METHODS.join(", ") }));
    // A path React Router cannot decode (/%ff) is the caller's mistake, answered here.
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(new HttpError(400, MALFORMED_URL));
    }
    next();
  };
  // A POST to a page that has no action (POST /admin/dashboard, or React Router's own
  // POST /admin/dashboard.data) is a plain 405, answered before the body is read, rather
  // than React Router's error naming the route module and an error log line.
  const loadBuild = typeof build === "function" ? build : () => build;
  const postNeedsAction: RequestHandler = async (req, _res, next) => {
    if (req.method !== "POST") return next();
    try {
      const data = req.path.endsWith(".data");
      // Joined to the origin, never resolved against it: a path starting with `//` would name a
      // host (`//x`) or none at all (`//`, an invalid URL, which was a 500).
      const target = actionTarget(
        await loadBuild(),
        new URL(`http://localhost${data ? documentPathOf(req.path) : req.path}${searchOf(req)}`),
      );
      if (target === "page-with-action") return next();
      // React Router answers its own client's request for an address it does not know, in its own encoding.
      if (target === "not-found") return data ? next() : next(notFound("Not found"));
      next(new HttpError(405, "Method not allowed", undefined, { Allow: "GET, HEAD" }));
    } catch (err) {
      next(err);
    }
  };
  const readBody = express.raw({ type: () => true, limit: opts.bodyLimit ?? "1mb" });
  const render: RequestHandler = async (req, res, next) => {
    try {
      if (res.locals.countRoute) {
        const path = req.path.endsWith(".data") ? documentPathOf(req.path) : req.path;
        res.locals.pageRouteId = pageRouteOf(await loadBuild(), path).id ?? undefined;
      }
      const context: AppLoadContext = {
        services,
        user: res.locals.user ?? null,
        sessionToken: res.locals.sessionToken ?? null,
        cspNonce: undefined,
        publicConfig: services.publicConfig,
        ip: clientIp(req),
        secure: req.secure,
      };
      const kept = opts.pageCache && siteOrigin ? keptAddress(req, res, await loadBuild()) : null;
      if (kept !== null) {
        const served = await servePublicPage(req, res, opts.csp, opts.pageCache!, kept, () =>
          handle(toFetchRequest(req, res, siteOrigin + kept.renderFrom), { ...context }),
        );
        if (served) return;
      }
      const signedIn = opts.signedInPages && siteOrigin ? signedInAddress(req, res, await loadBuild()) : null;
      if (signedIn !== null) {
        const user = res.locals.user as PublicUser;
        const frame = signedIn.frame ? PAGE_FRAMES[signedIn.frame] : null;
        // A frame's own content, read for this user and rendered alone (decision 013).
        const ownContent =
          frame &&
          (async (): Promise<FrameContent> => {
            const data = await frame.data(services, user);
            const at = { path: signedIn.renderFrom, config: services.publicConfig };
            return { data, render: (standIn) => frame.render(data, { ...at, user: standIn?.user ?? user }) };
          });
        const served = await serveSignedInPage(
          req,
          res,
          opts.csp,
          opts.signedInPages!,
          signedIn,
          user,
          ownContent,
          async (standIn, content) => {
            const response = await handle(toFetchRequest(req, res, siteOrigin + signedIn.renderFrom, { asStandIn: true }), {
              ...context,
              user: standIn.user,
              sessionToken: null,
              cspNonce: standIn.nonce,
              // A frame is rendered with its stand-in's marker where its content goes, or with a content's data to check it.
              ...(frame ? { frameContent: content ?? standIn.values.content } : {}),
            });
            const html = response.headers.get("content-type")?.startsWith("text/html") ?? false;
            if (response.status !== signedIn.status || !html || !response.body || response.headers.has("set-cookie")) {
              await response.body?.cancel();
              return null;
            }
            return { html: await response.text(), headers: keptHeaders(response.headers) };
          },
        );
        if (served) return;
      }
      // A page rendered for this request alone carries a nonce; React Router's data answers are not pages.
      if (!req.path.endsWith(".data")) {
        context.cspNonce = newCspNonce();
        res.setHeader(CSP, opts.csp.forPage([`'nonce-${context.cspNonce}'`]));
      }
      const response = await handle(toFetchRequest(req, res), context);
      // A resource route's file (robots.txt, a calendar) or a redirect is not a page: no script runs in it.
      if (context.cspNonce && !response.headers.get("content-type")?.startsWith("text/html")) res.setHeader(CSP, opts.csp.forAnyAnswer);
      await sendFetchResponse(res, response);
    } catch (err) {
      next(err);
    }
  };
  return [allowedMethod, postNeedsAction, readBody, render];
}

/**
 * The kept 404 page for a path no page has. It shows nothing of the request but which menu link
 * is marked current (a menu link is marked on the addresses below it, /contact-us/anything,
 * whatever the case): one page is kept per page's first segment the path starts with, and one
 * for every other path, each rendered from a fixed unknown address below that segment (or, if
 * that address is a page's, from this path). Null when the build's first segments are not known.
 */
function keptNotFound(build: ServerBuild, path: string): KeptAddress | null {
  const { segments } = firstSegments(build);
  if (segments === null) return null;
  const first = path.split("/")[1]?.toLowerCase() ?? "";
  const section = segments.has(first) ? `/${first}` : "";
  const fixed = section + NOT_FOUND_RENDER_PATH;
  return { key: NOT_FOUND_KEY + section, renderFrom: pageRouteOf(build, fixed).notFound ? fixed : path, status: 404 };
}

/** Where a request is answered from among the kept public pages: its key, the address it is rendered from, the status it keeps. */
interface KeptAddress {
  key: string;
  renderFrom: string;
  status: 200 | 404;
}

/**
 * The kept public page this request may be answered from, or null: only an anonymous GET or
 * HEAD of a document (not React Router's `.data`) whose page declares itself public
 * (`handle.publicPage`: kept under its path and the page's own parameters), or of a path no
 * page has (the one kept 404 page, rendered from a fixed unknown address: it shows nothing of
 * the request). A signed-in visitor's 404 shows their header and is rendered for them.
 */
function keptAddress(req: Request, res: Response, build: ServerBuild): KeptAddress | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || res.locals.user) return null;
  if (req.path.endsWith(".data") || isRouteDiscovery(build, req.path)) return null;
  const route = pageRouteOf(build, req.path);
  if (route.notFound) return keptNotFound(build, req.path);
  if (route.publicQuery === null) return null;
  const address = keptPageAddress(req.path, new URLSearchParams(searchOf(req)), route.publicQuery);
  return address.length > MAX_CACHED_URL_LENGTH ? null : { key: address, renderFrom: address, status: 200 };
}

/**
 * React Router's own route discovery (`/__manifest`, asked by the client when it navigates to
 * a route it has not met): no page matches its path but the catch-all, and React Router
 * answers it before any page, so it is never one of the kept pages (the kept 404 there left
 * the client unable to open the page it was going to).
 */
function isRouteDiscovery(build: ServerBuild, pathname: string): boolean {
  const discovery = build.routeDiscovery;
  if (discovery && discovery.mode !== "lazy") return false;
  const manifestPath = discovery?.manifestPath || "/__manifest";
  const basename = build.basename && build.basename !== "/" ? build.basename.replace(/\/$/, "") : "";
  return pathname === basename + manifestPath;
}

/**
 * Where a signed-in request is answered from among the kept signed-in pages: its key, the
 * address it is rendered from, the shared content it shows (none for the 404 page), its own
 * content's frame (My account, decision 013), the status it keeps.
 */
interface SignedInAddress {
  key: string;
  renderFrom: string;
  content: SignedInPageContent | null;
  frame: SignedInFrameName | null;
  status: 200 | 404;
}

/**
 * The kept signed-in page this request may be answered from, or null: only a signed-in user's
 * GET or HEAD of a document whose page declares itself kept per role (`handle.signedInPage`),
 * or of a path no page has (the 404 page, which shows the user's header and nothing of the
 * request but the menu link marked: kept as the anonymous one is, per role and shape).
 */
function signedInAddress(req: Request, res: Response, build: ServerBuild): SignedInAddress | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || !res.locals.user) return null;
  if (req.path.endsWith(".data") || isRouteDiscovery(build, req.path)) return null;
  const route = pageRouteOf(build, req.path);
  if (route.notFound) {
    const notFound = keptNotFound(build, req.path);
    return notFound && { key: notFound.key, renderFrom: notFound.renderFrom, content: null, frame: null, status: 404 };
  }
  const page = route.signedIn;
  if (page === null) return null;
  const address = keptPageAddress(req.path, new URLSearchParams(searchOf(req)), page.query);
  return address.length > MAX_CACHED_URL_LENGTH
    ? null
    : { key: address, renderFrom: address, content: page.content, frame: page.frame, status: 200 };
}

/**
 * Answers a signed-in page from its kept template, filled with this user and a nonce of its
 * own, and for a frame with its own content read and rendered for this user. False when this
 * request must be rendered for the user alone (a shape that is not kept, a page that is not a
 * plain page of its status for a stand-in, a content that could not be read).
 */
async function serveSignedInPage(
  req: Request,
  res: Response,
  csp: ContentSecurityPolicy,
  pages: SignedInPages,
  page: SignedInAddress,
  user: PublicUser,
  ownContent: (() => Promise<FrameContent>) | null,
  renderAs: StandInRender,
): Promise<boolean> {
  const shape = userShape(user);
  if (shape === null) return false;
  let template;
  let own: { data: string; html: string } | undefined;
  try {
    template = await pages.template(page.content, `${page.key}|${shape}`, user, renderAs, ownContent ?? undefined);
    if (!template) return false;
    if (ownContent) {
      const content = await ownContent();
      own = { data: content.data, html: content.render(null) };
    }
  } catch {
    // The content's version or a frame's own content could not be read: rendered for this
    // request alone, as before, which says what went wrong.
    return false;
  }
  const nonce = newCspNonce();
  const body = fillTemplate(template, valuesOf(user, nonce, own?.data), own?.html);
  res.setHeader(CSP, csp.forPage([`'nonce-${nonce}'`]));
  for (const [name, value] of template.headers) res.setHeader(name, value);
  res.setHeader("Content-Length", body.length);
  res.status(page.status);
  if (req.method === "HEAD") res.end();
  else res.end(body);
  return true;
}

/** A rendered answer's headers worth keeping with its page: not its length, cookies or caching (the request's own). */
function keptHeaders(headers: Headers): Array<[string, string]> {
  return [...headers.entries()].filter(([name]) => name !== "content-length" && name !== "set-cookie" && name !== "cache-control");
}

// Matching a path against the route table ranks every route each time: the answer is kept per
// path (a few hundred at most, then started afresh, so odd paths cannot grow it without bound).
const pageRoutes = new WeakMap<ServerBuild, Map<string, PageRoute>>();
const KEPT_PATH_ANSWERS = 500;

interface PageRoute {
  /** The deepest matching route's id ("routes/home"), or null when none matches. */
  id: string | null;
  /** The parameters the page reads when it is a public page, else null. */
  publicQuery: readonly string[] | null;
  /** The parameters, content and frame of a signed-in page kept per role, else null. */
  signedIn: SignedInPageOf | null;
  /** True when only the catch-all route matches: the 404 page of unknown paths. */
  notFound: boolean;
}

/**
 * What a path's first segment says of a build's pages: the first segments of its page addresses,
 * lowercased ("about-us", "admin"...), and the catch-all route's id (the 404 page). `segments`
 * is null when a route's first segment is dynamic, optional or a splat (other than the
 * catch-all's) or the build has a basename: then any path may match a page, and every path is matched.
 */
interface FirstSegments {
  segments: ReadonlySet<string> | null;
  catchAll: PageRoute | null;
}
const firstSegmentsOf = new WeakMap<ServerBuild, FirstSegments>();

function firstSegments(build: ServerBuild): FirstSegments {
  let known = firstSegmentsOf.get(build);
  if (known) return known;
  const segments = new Set<string>();
  let anyPath = (build.basename ?? "/") !== "/";
  let catchAllId: string | null = null;
  // A layout or index route (the root too) adds no segment: its children's addresses start where it stands.
  const walk = (routes: RouteObject[], prefix: string) => {
    for (const route of routes) {
      if (route.path === "*" && !prefix) {
        catchAllId = route.id ?? null;
        continue;
      }
      const full = [prefix, route.path ?? ""].filter(Boolean).join("/");
      const first = full.split("/").find(Boolean);
      if (first === undefined) walk(route.children ?? [], full);
      else if (/[:*?]/.test(first)) anyPath = true;
      else segments.add(first.toLowerCase());
    }
  };
  walk(routeTree(build), "");
  known = {
    segments: anyPath ? null : segments,
    catchAll: catchAllId === null ? null : { id: catchAllId, publicQuery: null, signedIn: null, notFound: true },
  };
  firstSegmentsOf.set(build, known);
  return known;
}

/**
 * The catch-all route when no page can match this path but it: the path's first segment
 * (decoded, as React Router matches it, case-insensitively) is no page's. Such a path is
 * answered without ranking the route table, and without a place among the kept answers: a walk
 * through unknown paths costs no more than a kept page. Null when a page might match.
 */
function onlyCatchAll(build: ServerBuild, pathname: string): PageRoute | null {
  const { segments, catchAll } = firstSegments(build);
  if (segments === null || catchAll === null) return null;
  const raw = pathname.split("/").find(Boolean);
  if (raw === undefined) return null;
  let first: string;
  try {
    first = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return segments.has(first.toLowerCase()) || /[/\\]/.test(first) ? null : catchAll;
}

/** The page route at this path. */
function pageRouteOf(build: ServerBuild, pathname: string): PageRoute {
  let known = pageRoutes.get(build);
  if (!known) pageRoutes.set(build, (known = new Map()));
  let answer = known.get(pathname);
  if (answer === undefined) {
    const catchAll = onlyCatchAll(build, pathname);
    if (catchAll) return catchAll;
  }
  if (answer === undefined) {
    const matches = matchRoutes(routeTree(build), pathname, build.basename);
    const leaf = matches?.[matches.length - 1];
    const id = leaf?.route.id ?? null;
    const handle = id ? build.routes[id]?.module.handle : undefined;
    answer = {
      id,
      publicQuery: id ? publicPageQuery(handle) : null,
      signedIn: id ? signedInPageOf(handle) : null,
      notFound: leaf?.route.path === "*",
    };
    if (known.size >= KEPT_PATH_ANSWERS) known.clear();
    known.set(pathname, answer);
  }
  return answer;
}

const CSP = "Content-Security-Policy";

/**
 * Answers from the kept page, rendering it first when there is none. False when this request
 * must be rendered as usual: a HEAD with nothing kept yet, or a render that was not a plain
 * 200 page (a redirect, a 404) for someone else's request.
 */
async function servePublicPage(
  req: Request,
  res: Response,
  csp: ContentSecurityPolicy,
  cache: PageCache,
  { key, status }: KeptAddress,
  renderWithoutNonce: () => Promise<globalThis.Response>,
): Promise<boolean> {
  if (req.method === "HEAD") {
    const kept = cache.get(key);
    if (!kept) return false;
    await sendKeptPage(req, res, csp, kept);
    return true;
  }
  let ownResponse: { response: globalThis.Response; body: Buffer | null } | null = null;
  const page = await cache.getOrRender(key, async () => {
    const response = await renderWithoutNonce();
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
    const html = response.headers.get("content-type")?.startsWith("text/html") ?? false;
    if (response.status === status && html && body && !response.headers.has("set-cookie")) {
      return keepPage(
        [...response.headers.entries()].filter(([name]) => name !== "content-length"),
        body,
        Date.now(),
        status,
      );
    }
    ownResponse = { response, body };
    return null;
  });
  if (page) {
    await sendKeptPage(req, res, csp, page);
    return true;
  }
  if (!ownResponse) return false;
  // Not kept (a redirect, a 404 page): answered once, its inline scripts allowed by their hashes.
  const { response, body } = ownResponse as { response: globalThis.Response; body: Buffer | null };
  res.setHeader(CSP, csp.forPage(body ? inlineScriptHashes(body.toString("utf8")) : []));
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) if (name !== "set-cookie" && name !== "content-length") res.append(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.append("Set-Cookie", cookies);
  res.end(body ?? undefined);
  return true;
}

async function sendKeptPage(req: Request, res: Response, csp: ContentSecurityPolicy, page: CachedPage) {
  res.setHeader(CSP, csp.forPage(page.scriptHashes));
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  // A page is shared and revalidated by its ETag; the 404 page goes out as it did when rendered
  // for each request (no caching headers: a 404 is no resource to revalidate).
  if (page.status === 200) {
    res.setHeader("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
    res.setHeader("ETag", page.etag);
    if (req.headers["if-none-match"] === page.etag) {
      res.status(304).end();
      return;
    }
  }
  const encoding = pickEncoding(req.headers["accept-encoding"]);
  const body = await bodyFor(page, encoding);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(page.status);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

/**
 * The request's path and query as sent, for a URL on our own origin. Never `new URL(req.url,
 * base)`: a path starting with `//` (`//evil.example/contact-us`) would name another host.
 */
function pathAndQuery(req: Request): string {
  return req.path + searchOf(req);
}

/** The page a React Router data request (`/about-us.data`, `/_root.data` for `/`) is about. */
function documentPathOf(dataPath: string): string {
  const path = dataPath.slice(0, -".data".length);
  return path === "/_root" ? "/" : path;
}

/** The query of the request, `?` included, or "". */
function searchOf(req: Request): string {
  const at = req.originalUrl.indexOf("?");
  return at < 0 ? "" : req.originalUrl.slice(at);
}

/**
 * The Fetch request React Router reads: this request's, or its `url` (a kept page rendered from
 * the site's own address). `asStandIn`: a GET without the caller's credentials, not aborted
 * when the caller goes (a kept signed-in page, rendered for every user of its shape).
 */
function toFetchRequest(
  req: Request,
  res: Response,
  url: string = `${req.protocol}://${req.get("host") ?? "localhost"}${pathAndQuery(req)}`,
  { asStandIn = false } = {},
): globalThis.Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (asStandIn && (key === "cookie" || key === "authorization")) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  // Aborted when the client goes away before the answer is sent. The listener sits on this
  // request's response, not on the socket: a keep-alive socket outlives many requests, and a
  // listener per request there would pile up.
  if (asStandIn) return new Request(url, { method: "GET", headers });
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && Buffer.isBuffer(req.body) && req.body.length > 0;
  return new Request(url, {
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

const routeTrees = new WeakMap<ServerBuild, RouteObject[]>();

/** The build's flat route manifest as the nested route objects matchRoutes reads. */
function routeTree(build: ServerBuild): RouteObject[] {
  let tree = routeTrees.get(build);
  if (!tree) {
    const children = (parentId: string | undefined): RouteObject[] =>
      Object.values(build.routes)
        .filter((r) => r && r.parentId === parentId)
        .map(
          (r) => ({ id: r!.id, path: r!.path, index: r!.index, caseSensitive: r!.caseSensitive, children: children(r!.id) }) as RouteObject,
        );
    tree = children(undefined);
    routeTrees.set(build, tree);
  }
  return tree;
}

/**
 * Which route a POST to this URL reaches, as React Router picks it: the deepest route that
 * contributes to the path (an index route only with `?index`). The catch-all route stays
 * React Router's, which answers its 404.
 */
function actionTarget(build: ServerBuild, url: URL): "page-with-action" | "page-without-action" | "not-found" {
  const matches = matchRoutes(routeTree(build), url.pathname, build.basename);
  if (!matches) return "not-found";
  const leaf = matches[matches.length - 1];
  const target =
    leaf.route.index && url.searchParams.getAll("index").some((v) => v === "")
      ? leaf
      : matches.filter((m, i) => i === 0 || (m.route.path && m.route.path.length > 0)).pop()!;
  if (target.route.path === "*") return "not-found";
  return build.routes[target.route.id!]?.module.action ? "page-with-action" : "page-without-action";
}
