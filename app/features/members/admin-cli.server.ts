import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { UniqueViolationError } from "~/platform/db.server";
import { HttpError } from "~/platform/http.server";
import type { AuthService } from "~/features/auth/auth.server";
import type { ApplicationsService } from "~/features/applications/service.server";
import { normalizeCertificate } from "~/features/auth/normalize";
import { importCasesCsv, MAX_IMPORT_PROBLEMS_SHOWN } from "~/features/applications/case-import.server";

/** A case file larger than this is refused before it is read. */
export const MAX_CASE_FILE_BYTES = 50 * 1024 * 1024;

export const USAGE = `Usage:
  npm run admin -- create-admin --username <u> --password <p> --role super_admin|limited_admin
  npm run admin -- add-member --certificate <c> --birthdate <YYYY-MM-DD> [--first-name <f>] [--last-name <l>]
  npm run admin -- set-password --username <u> --password <p>
  npm run admin -- import-cases <file.csv>   (header: case_number plus any of firstName, lastName,
                                              applicantName, coverage, email, phone, address1, city,
                                              state, zip, gender; a known case number is updated)`;

export interface CliResult {
  code: number;
  out: string;
}

/** A calendar date written YYYY-MM-DD that exists (no 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The staff/member account commands. Returns an exit code and what to print; never prints secrets. */
export async function runAdminCommand(
  argv: string[],
  { auth, applications }: { auth: AuthService; applications: ApplicationsService },
): Promise<CliResult> {
  const [command, ...rest] = argv;
  let values: Record<string, string | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: {
        username: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
        certificate: { type: "string" },
        birthdate: { type: "string" },
        "first-name": { type: "string" },
        "last-name": { type: "string" },
      },
      strict: true,
      allowPositionals: command === "import-cases",
    }) as { values: Record<string, string | undefined>; positionals: string[] });
  } catch (err) {
    return { code: 2, out: `${(err as Error).message}\n\n${USAGE}` };
  }
  const missing = (names: string[]) => names.filter((n) => !values[n]);

  try {
    switch (command) {
      case "create-admin": {
        const lack = missing(["username", "password", "role"]);
        if (lack.length) return { code: 2, out: `Missing ${lack.map((n) => `--${n}`).join(", ")}\n\n${USAGE}` };
        if (values.role !== "super_admin" && values.role !== "limited_admin") {
          return { code: 2, out: `--role must be super_admin or limited_admin` };
        }
        const isFirst = (await auth.users.countStaff()) === 0;
        await auth.createStaff(values.username!, values.password!, values.role, isFirst && values.role === "super_admin");
        return { code: 0, out: `Created ${values.role} "${values.username!.trim().toLowerCase()}".` };
      }
      case "add-member": {
        const lack = missing(["certificate", "birthdate"]);
        if (lack.length) return { code: 2, out: `Missing ${lack.map((n) => `--${n}`).join(", ")}\n\n${USAGE}` };
        if (!isIsoDate(values.birthdate!)) return { code: 2, out: `--birthdate must be a real date written YYYY-MM-DD` };
        const certificate = normalizeCertificate(values.certificate!);
        if (!certificate) return { code: 2, out: `--certificate must not be empty` };
        await auth.users.createMember({
          certificate,
          birthdateDigest: auth.digestBirthdate(values.birthdate!),
          firstName: values["first-name"]?.trim() || null,
          lastName: values["last-name"]?.trim() || null,
        });
        return { code: 0, out: `Added member ${certificate}.` };
      }
      case "set-password": {
        const lack = missing(["username", "password"]);
        if (lack.length) return { code: 2, out: `Missing ${lack.map((n) => `--${n}`).join(", ")}\n\n${USAGE}` };
        await auth.setPassword(values.username!, values.password!);
        return { code: 0, out: `Password changed for "${values.username!.trim().toLowerCase()}"; their sessions have ended.` };
      }
      case "import-cases":
        return await importCases(positionals, applications);
      default:
        return { code: 2, out: command ? `Unknown command "${command}"\n\n${USAGE}` : USAGE };
    }
  } catch (err) {
    if (err instanceof UniqueViolationError) {
      return {
        code: 1,
        out: command === "add-member" ? "A member with that certificate number already exists." : "That username is already taken.",
      };
    }
    if (err instanceof HttpError) return { code: 1, out: err.message };
    throw err;
  }
}

async function importCases(args: string[], applications: ApplicationsService): Promise<CliResult> {
  if (args.length !== 1) return { code: 2, out: `import-cases takes one CSV file\n\n${USAGE}` };
  const file = args[0];
  let text: string;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return { code: 2, out: `${file} is not a file` };
    if (stat.size > MAX_CASE_FILE_BYTES) return { code: 1, out: `${file} is larger than 50 MB; split it into smaller files.` };
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    return { code: 2, out: `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const result = await importCasesCsv(text, applications.repository);
  if (!result.ok) {
    const shown = result.problems.slice(0, MAX_IMPORT_PROBLEMS_SHOWN);
    const more = result.problems.length - shown.length;
    return {
      code: 1,
      out: `Nothing was imported. Fix these problems and run the import again:\n${shown.map((p) => `  ${p}`).join("\n")}${
        more > 0 ? `\n  ...and ${more} more` : ""
      }`,
    };
  }
  const total = result.added + result.updated;
  return { code: 0, out: `Imported ${total} case${total === 1 ? "" : "s"}: ${result.added} new, ${result.updated} updated.` };
}
