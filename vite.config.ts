import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import fs from "node:fs";
import { shellChunk, type SiteChunk } from "./vite-shell-chunk";
import { workerUrl } from "./vite-worker-url";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // The RSS ingest's feed reader thread (app/features/articles/feed-reader.server.ts).
    workerUrl("FEED_READER_WORKER_URL", "./app/features/articles/feed-reader.worker.ts", "feed-reader.worker.js"),
  ],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: {
    assetsInlineLimit: 0,
    // The client's manifest (build/client/.vite/manifest.json, never served: dot folders are
    // skipped) is what scripts/js-budget.ts measures each page's first-load JavaScript from.
    manifest: !isSsrBuild,
    rollupOptions: isSsrBuild
      ? // The server build's entry is the whole server (Express app, services, pages): one module graph.
        { input: "./app/server/main.ts" }
      : // What every page needs (the client entry, the root route and their imports) in one chunk, and
        // the small modules the public pages share in another ("site"): vite-shell-chunk.ts.
        { output: { manualChunks: shellChunk(undefined, undefined, siteChunk()), onlyExplicitManualChunks: true } },
  },
}));

/** A route module (app/routes/*), by its module id; a public page's module says `handle = PUBLIC_PAGE` (or publicPage(...)), as scripts/js-budget.ts reads it. */
function siteChunk(): SiteChunk {
  const route = /\/app\/routes\/[^/?]+\.tsx?(\?|$)/;
  const publicHandle = /export\s+const\s+handle\s*=\s*(?:PUBLIC_PAGE\b|publicPage\()/;
  const known = new Map<string, boolean>();
  return {
    name: "site",
    isRoute: (id) => route.test(id),
    isPublicRoute: (id) => {
      const file = id.split("?")[0];
      if (!route.test(id)) return false;
      if (!known.has(file)) known.set(file, publicHandle.test(fs.readFileSync(file, "utf8")));
      return known.get(file)!;
    },
    maxBytes: 4000,
  };
}
