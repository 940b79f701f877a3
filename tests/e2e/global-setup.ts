import fs from "node:fs";

/** The browser tests serve a build: say so plainly when there is none. (scripts/test.ts builds and wipes the data directory.) */
export default async function globalSetup() {
  if (!fs.existsSync(`${process.env.BUILD_DIR ?? "build"}/server/index.js`))
    throw new Error("Run `npm run build` before the browser tests.");
}
