import fs from "node:fs/promises";
import type { CliCommand } from "~/platform/cli";
import { importCasesCsv, MAX_IMPORT_PROBLEMS_SHOWN } from "./case-import.server";
import type { ApplicationsService } from "./service.server";

/** A case file larger than this is refused before it is read. */
export const MAX_CASE_FILE_BYTES = 50 * 1024 * 1024;

/** The case list behind the application form's lookup, from a CSV file. */
export const caseCommands: ReadonlyArray<CliCommand<{ applications: ApplicationsService }>> = [
  {
    name: "import-cases",
    usage: `import-cases <file.csv>   (header: case_number plus any of firstName, lastName,
                           applicantName, coverage, email, phone, address1, city,
                           state, zip, gender; a known case number is updated)`,
    positionals: true,
    async run({ positionals }, { applications }) {
      if (positionals.length !== 1) return { code: 2, out: "import-cases takes one CSV file", usage: true };
      const file = positionals[0];
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
    },
  },
];
