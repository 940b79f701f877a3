import fs from "node:fs";

/** Nothing to do: the data directory is wiped by scripts/test.ts before the server starts. */
export default async function globalSetup() {
  if (!fs.existsSync(`${process.env.BUILD_DIR ?? "build"}/server/index.js`)) throw new Error("Run `npm run build` before the browser tests.");
}
