/**
 * The server's building blocks, in one module so a test can take them all from one module
 * graph: Vitest's own (test-app.ts), or the Vite dev server's together with the pages
 * (page-app.ts), as production does with its single server build.
 */
export { loadConfig } from "../../app/platform/config.server";
export { migrateToLatest, openDatabase } from "../../app/platform/db.server";
export { createLogger } from "../../app/platform/logger.server";
export { configureHttpServer } from "../../app/platform/http.server";
export { createServices } from "../../app/server/services.server";
export { createApp } from "../../app/server/app.server";
