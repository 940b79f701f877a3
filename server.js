// @ts-check
/**
 * Process entry. Production (`npm start`): runs the Vite server build with plain Node, always
 * with NODE_ENV=production so React loads its production build whatever the caller's
 * environment. Development (`npm run dev`): the same server module loaded through Vite, with
 * hot reload.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const dev = process.argv.includes("--dev");
process.env.NODE_ENV = dev ? "development" : "production";

if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { startServer, reportStartupError } = await vite.ssrLoadModule("/app/server/main.ts");
  await startServer({ vite }).catch(reportStartupError);
} else {
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const entry = path.join(buildDir, "server", "index.js");
  const { startServer, reportStartupError } = await import(pathToFileURL(entry).href).catch((err) => {
    console.error(`No server build at ${entry}: run \`npm run build\` first (${err.code ?? err.message}).`);
    process.exit(1);
  });
  await startServer({ clientDir: path.join(buildDir, "client") }).catch(reportStartupError);
}
