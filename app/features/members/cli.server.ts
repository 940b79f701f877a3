import type { CliCommand } from "~/platform/cli";
import { missingOptions } from "~/platform/cli";
import { isIsoDate } from "~/platform/dates";
import { holdsWebOrMailAddress, isOneLine } from "~/platform/text-fields";
import { UniqueViolationError } from "~/platform/db.server";
import type { AuthService } from "~/features/auth/auth.server";
import { isCertificateNumber, normalizeCertificate } from "~/features/auth/normalize";

/** Members from the command line (many at once: the CSV import in the admin panel). */
export const memberCommands: ReadonlyArray<CliCommand<{ auth: AuthService }>> = [
  {
    name: "add-member",
    usage: "add-member --certificate <c> --birthdate <YYYY-MM-DD> [--first-name <f>] [--last-name <l>]",
    options: ["certificate", "birthdate", "first-name", "last-name"],
    async run({ values }, { auth }) {
      const missing = missingOptions(values, ["certificate", "birthdate"]);
      if (missing) return missing;
      if (!isIsoDate(values.birthdate!)) return { code: 2, out: "--birthdate must be a real date written YYYY-MM-DD" };
      const certificate = normalizeCertificate(values.certificate!);
      if (!certificate) return { code: 2, out: "--certificate must not be empty" };
      if (!isCertificateNumber(certificate)) return { code: 2, out: "--certificate may contain only letters, digits and -" };
      for (const option of ["first-name", "last-name"] as const) {
        const value = values[option];
        if (value && (!isOneLine(value) || holdsWebOrMailAddress(value)))
          return { code: 2, out: `--${option} must be a name, not a web or e-mail address` };
      }
      try {
        await auth.users.createMember({
          certificate,
          birthdateDigest: auth.digestBirthdate(values.birthdate!),
          firstName: values["first-name"]?.trim() || null,
          lastName: values["last-name"]?.trim() || null,
        });
      } catch (err) {
        if (err instanceof UniqueViolationError) return { code: 1, out: "A member with that certificate number already exists." };
        throw err;
      }
      return { code: 0, out: `Added member ${certificate}.` };
    },
  },
];
