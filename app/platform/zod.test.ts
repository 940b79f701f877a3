import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Every module of the app that reaches zod does so through platform/zod (jitless in the browser: see there). */
describe("zod", () => {
  it("is imported by the app's modules only through ~/platform/zod", () => {
    const root = path.resolve("app");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && file !== path.join(root, "platform", "zod.ts")) {
          if (/from\s+["']zod(\/[^"']*)?["']/.test(fs.readFileSync(file, "utf8"))) offenders.push(path.relative(root, file));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
