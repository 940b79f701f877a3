import type { CliCommand } from "~/platform/cli";
import { missingOptions } from "~/platform/cli";
import { UniqueViolationError } from "~/platform/db.server";
import type { AuthService } from "./auth.server";

/** A staff account from the command line (the first super_admin, typically). */
export const createAdminCommand: CliCommand<{ auth: AuthService }> = {
  name: "create-admin",
  usage: "create-admin --username <u> --password <p> --role super_admin|limited_admin",
  options: ["username", "password", "role"],
  async run({ values }, { auth }) {
    const missing = missingOptions(values, ["username", "password", "role"]);
    if (missing) return missing;
    const role = values.role;
    if (role !== "super_admin" && role !== "limited_admin") return { code: 2, out: "--role must be super_admin or limited_admin" };
    const isFirst = (await auth.users.countStaff()) === 0;
    try {
      await auth.createStaff(values.username!, values.password!, role, isFirst && role === "super_admin");
    } catch (err) {
      if (err instanceof UniqueViolationError) return { code: 1, out: "That username is already taken." };
      throw err;
    }
    return { code: 0, out: `Created ${role} "${values.username!.trim().toLowerCase()}".` };
  },
};

/** A staff member's new password; their sessions end. */
export const setPasswordCommand: CliCommand<{ auth: AuthService }> = {
  name: "set-password",
  usage: "set-password --username <u> --password <p>",
  options: ["username", "password"],
  async run({ values }, { auth }) {
    const missing = missingOptions(values, ["username", "password"]);
    if (missing) return missing;
    await auth.setPassword(values.username!, values.password!);
    return { code: 0, out: `Password changed for "${values.username!.trim().toLowerCase()}"; their sessions have ended.` };
  },
};
