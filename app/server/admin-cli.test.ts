import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, describeEachDatabase, type TestContext } from "../../tests/support/test-app";
import { runAdminCommand } from "./admin-cli.server";
import { LOADED_TEST_TIMEOUT_MS } from "../../tests/support/loaded-machine";

// Hashes passwords, starts servers or waits for mail: a budget for a loaded machine (tests/support/loaded-machine.ts).
vi.setConfig({ testTimeout: LOADED_TEST_TIMEOUT_MS });

describeEachDatabase("admin CLI", (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());
  const run = (...argv: string[]) => runAdminCommand(argv, ctx.services);

  it("creates staff accounts that can sign in, and refuses duplicates", async () => {
    expect(await run("create-admin", "--username", "Boss", "--password", "long-enough-pass", "--role", "super_admin")).toEqual({
      code: 0,
      out: 'Created super_admin "boss".',
    });
    const boss = await ctx.services.auth.users.findStaffByUsername("boss");
    expect(boss).toMatchObject({ role: "super_admin", is_core_admin: 1, certificate_number: null });
    expect(boss!.password_hash).toMatch(/^scrypt\$/);
    const again = await run("create-admin", "--username", "boss", "--password", "long-enough-pass", "--role", "limited_admin");
    expect(again).toEqual({ code: 1, out: "That username is already taken." });
    const login = await ctx.services.auth.login({ username: "boss", password: "long-enough-pass", kind: "staff" }, "127.0.0.1", false);
    expect(login.user.role).toBe("super_admin");
  });

  it("checks the role and the password length", async () => {
    expect((await run("create-admin", "--username", "x1", "--password", "long-enough-pass", "--role", "user")).code).toBe(2);
    expect(await run("create-admin", "--username", "x2", "--password", "short", "--role", "limited_admin")).toEqual({
      code: 1,
      out: "Password must be at least 12 characters",
    });
    expect((await run("create-admin", "--username", "x3")).out).toMatch(/Missing --password, --role/);
  });

  it("adds members with a birthdate digest, never the birthdate", async () => {
    const res = await run("add-member", "--certificate", " aha-77 ", "--birthdate", "1979-11-02", "--first-name", "Lee");
    expect(res).toEqual({ code: 0, out: "Added member AHA-77." });
    const row = await ctx.services.auth.users.findMemberByCertificate("AHA-77");
    expect(row).toMatchObject({ first_name: "Lee", role: "user", username: null, password_hash: null });
    expect(row!.birthdate_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toMatch(/1979|110279/);
    const login = await ctx.services.auth.login({ username: "aha-77", password: "110279", kind: "member" }, "127.0.0.1", false);
    expect(login.user.first_name).toBe("Lee");
    expect((await run("add-member", "--certificate", "AHA-77", "--birthdate", "1979-11-02")).out).toBe(
      "A member with that certificate number already exists.",
    );
    expect((await run("add-member", "--certificate", "AHA-78", "--birthdate", "11/02/1979")).code).toBe(2);
    expect(
      await run("add-member", "--certificate", "AHA-80", "--birthdate", "1979-11-02", "--first-name", "Pay at evil.example/pay"),
    ).toEqual({
      code: 2,
      out: "--first-name must be a name, not a web or e-mail address",
    });
    for (const odd of ["AHA 79", "AHA/79", "<b>79", "AHA_79"])
      expect(await run("add-member", "--certificate", odd, "--birthdate", "1979-11-02")).toEqual({
        code: 2,
        out: "--certificate may contain only letters, digits and -",
      });
  });

  it("sets a password and ends that account's sessions", async () => {
    await run("create-admin", "--username", "rotate", "--password", "first-password-1", "--role", "limited_admin");
    const first = await ctx.services.auth.login({ username: "rotate", password: "first-password-1", kind: "staff" }, "127.0.0.2", false);
    expect((await run("set-password", "--username", "rotate", "--password", "second-password-2")).code).toBe(0);
    expect(await ctx.services.auth.userForSession(first.token, false)).toBeNull();
    await expect(
      ctx.services.auth.login({ username: "rotate", password: "first-password-1", kind: "staff" }, "127.0.0.2", false),
    ).rejects.toThrow();
    expect((await run("set-password", "--username", "nobody", "--password", "second-password-2")).out).toBe(
      "No staff account named nobody",
    );
  });

  it("explains usage for unknown commands and options", async () => {
    expect((await run("frobnicate")).out).toMatch(/Unknown command "frobnicate"[\s\S]*npm run admin -- create-admin/);
    expect((await run("add-member", "--nope", "1")).code).toBe(2);
    expect((await run("create-admin", "--certificate", "1")).code).toBe(2);
    expect(await run()).toEqual({
      code: 2,
      out: `Usage:
  npm run admin -- create-admin --username <u> --password <p> --role super_admin|limited_admin
  npm run admin -- add-member --certificate <c> --birthdate <YYYY-MM-DD> [--first-name <f>] [--last-name <l>]
  npm run admin -- set-password --username <u> --password <p>
  npm run admin -- import-cases <file.csv>   (header: case_number plus any of firstName, lastName,
                                              applicantName, coverage, email, phone, address1, city,
                                              state, zip, gender; a known case number is updated)
  npm run admin -- backup <file>             (a consistent copy of the embedded database, taken while the site runs)
  npm run admin -- restore <file>            (replaces the embedded database with a backup; refused while the site runs)`,
    });
    expect((await run("import-cases")).out).toMatch(/^import-cases takes one CSV file\n\nUsage:\n/);
  });
});

describe("npm run admin (a real process)", () => {
  // Two cold starts of tsx compiling the CLI: slow on a busy two-core machine.
  it("creates an account in DATA_DIR and exits 0, or exits non-zero with a message", { timeout: LOADED_TEST_TIMEOUT_MS }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aha-cli-"));
    const exec = promisify(execFile);
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" };
    try {
      const ok = await exec(
        "npx",
        ["tsx", "scripts/admin.ts", "create-admin", "--username", "cli", "--password", "cli-password-123", "--role", "super_admin"],
        { env },
      );
      expect(ok.stdout).toContain('Created super_admin "cli".');
      expect(fs.existsSync(path.join(dataDir, "app.db"))).toBe(true);
      const key = fs.statSync(path.join(dataDir, "auth-secret.key"));
      expect(key.mode & 0o777).toBe(0o600);
      await expect(exec("npx", ["tsx", "scripts/admin.ts", "add-member", "--certificate", "A1"], { env })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringContaining("Missing --birthdate"),
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
