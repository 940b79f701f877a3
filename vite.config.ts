import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { shellChunk } from "./vite-shell-chunk";
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
      : // What every page needs (the client entry, the root route and their imports) in one chunk: vite-shell-chunk.ts.
        { output: { manualChunks: shellChunk(), onlyExplicitManualChunks: true } },
  },
}));
