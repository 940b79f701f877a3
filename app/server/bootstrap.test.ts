import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../tests/support/test-app";
import { ensureFirstAdmin } from "./bootstrap.server";
import { ConfigError, loadConfig, publicConfig } from "~/platform/config.server";
import { loadAuthSecret } from "~/features/auth/credentials.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("first administrator from the environment", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect, { ADMIN_USERNAME: "Founder", ADMIN_PASSWORD: "founder-password-1" });
  });
  afterAll(() => ctx.close());

  it("creates the first super_admin once, then leaves staff alone", async () => {
    expect(await ensureFirstAdmin(ctx.services)).toBe("created");
    const founder = await ctx.services.auth.users.findStaffByUsername("founder");
    expect(founder).toMatchObject({ role: "super_admin", is_core_admin: 1 });
    expect(await ensureFirstAdmin(ctx.services)).toBe("exists");
  });
});

describeEachDatabase("first administrator when several instances start at once", (dialect) => {
  it("creates it once and lets every instance start", async () => {
    const ctx = await createTestContext(dialect, { ADMIN_USERNAME: "Founder", ADMIN_PASSWORD: "founder-password-1" });
    try {
      const outcomes = await Promise.all([ensureFirstAdmin(ctx.services), ensureFirstAdmin(ctx.services), ensureFirstAdmin(ctx.services)]);
      expect(outcomes.sort()).toEqual(["created", "exists", "exists"]);
      expect(await ctx.services.auth.users.countStaff()).toBe(1);
    } finally {
      await ctx.close();
    }
  });
});

describeEachDatabase("start-up without staff", (dialect) => {
  it("reports that no staff account exists (the server then prints how to create one)", async () => {
    const ctx = await createTestContext(dialect);
    try {
      expect(await ensureFirstAdmin(ctx.services)).toBe("none");
    } finally {
      await ctx.close();
    }
  });
});

describe("configuration", () => {
  it("stops with every problem listed", () => {
    expect(() => loadConfig({ PORT: "http", ADMIN_PASSWORD: "short", DATABASE_URL: "not a url" })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: "http", ADMIN_PASSWORD: "short" });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/ADMIN_PASSWORD: ADMIN_PASSWORD must be at least 12 characters/);
    }
  });

  it("gives the browser only the public part", () => {
    const config = loadConfig({ AUTH_SECRET: "x".repeat(40), SMTP_URL: "smtp://user:pw@mail.example:25" });
    const visible = JSON.stringify(publicConfig(config));
    expect(visible).not.toContain("x".repeat(40));
    expect(visible).not.toContain("smtp");
    expect(Object.keys(publicConfig(config)).sort()).toEqual([
      "address",
      "email",
      "onlinePayments",
      "orgName",
      "paymentPortalUrl",
      "phone",
      "publicUrl",
      "timeZone",
    ]);
  });
});

describe("birthdate key file", () => {
  it("is generated once with mode 600 and reused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-key-"));
    try {
      const first = loadAuthSecret(undefined, dir);
      const second = loadAuthSecret(undefined, dir);
      expect(first.equals(second)).toBe(true);
      expect(first.length).toBe(32);
      expect(fs.statSync(path.join(dir, "auth-secret.key")).mode & 0o777).toBe(0o600);
      expect(loadAuthSecret("configured-secret-configured-secret!", dir).toString()).toBe("configured-secret-configured-secret!");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
