import { spawn } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR, E2E_ENV } from "./env";
import { freePort } from "./second-site";

/**
 * `npm start` runs the built server with plain Node. Whatever NODE_ENV the caller has, the
 * server must load React's production build (the development one serves about half as many
 * pages a second).
 */
test("the production start loads React's production build even when NODE_ENV says development", async () => {
  const port = await freePort();
  const dataDir = `${E2E_DATA_DIR}-production-start`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, ...E2E_ENV, NODE_ENV: "development", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the server did not start within 30 s")), 30_000);
      child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
      readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        if (!line.startsWith("{")) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === "listening") {
          clearTimeout(timer);
          resolve(entry);
        }
      });
    });
    expect(listening.reactBuild).toBe("production");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<!DOCTYPE html>");
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
