import { runCommand, type CliCommand, type CliResult } from "~/platform/cli";
import { DomainError } from "~/platform/errors";
import { createAdminCommand, setPasswordCommand } from "~/features/auth/cli.server";
import { memberCommands } from "~/features/members/cli.server";
import { caseCommands } from "~/features/applications/cli.server";
import { backupCommands } from "~/platform/backup.server";
import type { Services } from "./services.server";

/** `npm run admin -- <command>`: every feature's commands, in the order the usage lists them. */
export const ADMIN_COMMANDS: ReadonlyArray<CliCommand<AdminCliServices>> = [
  createAdminCommand,
  ...memberCommands,
  setPasswordCommand,
  ...caseCommands,
  ...backupCommands,
];

type AdminCliServices = Pick<Services, "auth" | "applications" | "database">;

/** Runs one admin command line; a refusal by a service becomes exit code 1 with its message. */
export async function runAdminCommand(argv: string[], services: AdminCliServices): Promise<CliResult> {
  try {
    return await runCommand(argv, ADMIN_COMMANDS, services);
  } catch (err) {
    if (err instanceof DomainError) return { code: 1, out: err.message };
    throw err;
  }
}
