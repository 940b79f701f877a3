import express, { type RequestHandler } from "express";
import { filesBelow } from "./hashed-assets.server";

/**
 * The build's other public files (favicon, images, robots.txt...) with `express.static`, asked
 * only for the paths that are files there. The list is read once at start (a build does not
 * change while it runs), so a page or API request never waits on a look at the disk.
 */
export function staticFiles(clientDir: string): RequestHandler {
  const serve = express.static(clientDir, { maxAge: "1h", index: false });
  const paths = new Set<string>();
  for (const [urlPath] of filesBelow(clientDir)) paths.add(encodeURI(urlPath));
  return (req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && paths.has(req.path)) return serve(req, res, next);
    next();
  };
}
