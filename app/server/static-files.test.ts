import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticFiles } from "./static-files.server";

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-static-"));
  fs.writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
  fs.mkdirSync(path.join(dir, "images"));
  fs.writeFileSync(path.join(dir, "images", "front porch.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const app = express();
  app.use(staticFiles(dir));
  app.use((req, res) => res.status(404).send(`page ${req.path}`));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the build's public files", () => {
  it("serves each file of the build, names with spaces included, for an hour", async () => {
    const favicon = await fetch(`${base}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(await favicon.text()).toBe("<svg/>");
    expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
    const image = await fetch(`${base}/images/front%20porch.png`);
    expect(image.status).toBe(200);
    expect((await fetch(`${base}/favicon.svg`, { method: "HEAD" })).status).toBe(200);
  });

  it("hands everything else on without looking at the disk: files are listed once, at start", async () => {
    fs.writeFileSync(path.join(dir, "added-later.txt"), "not part of the build");
    for (const p of ["/added-later.txt", "/images", "/images/", "/knowledge-center", "/favicon.svg/x"]) {
      const res = await fetch(`${base}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).toMatch(/^page /);
    }
    expect((await fetch(`${base}/favicon.svg`, { method: "POST" })).status).toBe(404);
  });
});
