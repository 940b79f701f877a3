import { parseArgs } from "node:util";

/**
 * The admin command line (`npm run admin -- <command>`): each feature contributes its
 * commands, `app/server/admin-cli.server.ts` lists them, `runCommand` parses and dispatches.
 */

export interface CliResult {
  code: number;
  out: string;
  /** Print the usage after `out` (a wrong command line). */
  usage?: boolean;
}

export interface CliArgs {
  values: Record<string, string | undefined>;
  positionals: string[];
}

export interface CliCommand<Services> {
  name: string;
  /** The usage lines, each starting with the command name. */
  usage: string;
  /** Its `--name <value>` options. */
  options?: readonly string[];
  /** Whether it takes positional arguments (a file name...). */
  positionals?: boolean;
  run: (args: CliArgs, services: Services) => Promise<CliResult>;
}

const PREFIX = "  npm run admin -- ";

/** Every command's usage; a usage's continuation lines are indented under its command. */
export function usageOf(commands: ReadonlyArray<Pick<CliCommand<never>, "usage">>): string {
  const lines = commands.flatMap((c) => c.usage.split("\n"));
  return `Usage:\n${lines.map((line) => (line.startsWith(" ") ? " ".repeat(PREFIX.length) : PREFIX) + line).join("\n")}`;
}

/** "Missing --a, --b" (and the usage) when a required option is absent or empty. */
export function missingOptions(values: CliArgs["values"], names: string[]): CliResult | null {
  const lack = names.filter((n) => !values[n]);
  return lack.length ? { code: 2, out: `Missing ${lack.map((n) => `--${n}`).join(", ")}`, usage: true } : null;
}

/**
 * Runs one command line against the services. Exit code 2 for a wrong command line, 1 for a
 * refusal, 0 for success; `out` is what to print (never a secret).
 */
export async function runCommand<Services>(
  argv: string[],
  commands: ReadonlyArray<CliCommand<Services>>,
  services: Services,
): Promise<CliResult> {
  const usage = usageOf(commands);
  const [name, ...rest] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) return { code: 2, out: name ? `Unknown command "${name}"\n\n${usage}` : usage };
  let args: CliArgs;
  try {
    args = parseArgs({
      args: rest,
      options: Object.fromEntries((command.options ?? []).map((o) => [o, { type: "string" as const }])),
      strict: true,
      allowPositionals: command.positionals ?? false,
    }) as CliArgs;
  } catch (err) {
    return { code: 2, out: `${(err as Error).message}\n\n${usage}` };
  }
  const result = await command.run(args, services);
  return { code: result.code, out: result.usage ? `${result.out}\n\n${usage}` : result.out };
}
