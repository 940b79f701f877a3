/**
 * `npm run test:mutation`: StrykerJS changes the code where a fault loses data or lets someone
 * in, one small change (a mutant) at a time, and runs the Vitest tests that cover it; a mutant
 * no test notices is a fault the tests would let through. Prints the score per file (goal: 85%
 * or more in each). Not part of CI: it runs the covering tests thousands of times. On SQLite
 * only, unless MUTATION_DATABASE_URL names a PostgreSQL server: then the tests run on both, as
 * `npm test` does with TEST_DATABASE_URL, and the PostgreSQL-only code is mutated too (each
 * test file works in a schema of its own, so concurrent runners do not meet). One area at a
 * time: `npm run test:mutation -- --mutate <glob>`.
 */
if (process.env.MUTATION_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.MUTATION_DATABASE_URL;
else delete process.env.TEST_DATABASE_URL;

export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  mutate: [
    // auth, sessions, guards
    "app/features/auth/{auth,sessions,credentials,guards,cookie,throttle,users}.server.ts",
    "app/features/auth/{redirect,normalize,user,contract}.ts",
    // platform security and rate limits
    "app/platform/{security,rate-limit,ip-policy}.server.ts",
    // submissions admin
    "app/features/submissions/admin/{service,queries,api}.server.ts",
    // applications validation
    "app/features/applications/contract.ts",
    // the member import
    "app/features/member-import/{import,import-claims,members-writer,api}.server.ts",
    "app/features/member-import/{parse-csv,birthdate,contract}.ts",
    // member and staff administration
    "app/features/members/{member-admin,api,audit-log}.server.ts",
  ],
  ignoreStatic: true,
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 30_000,
  timeoutFactor: 3,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: `.tmp/mutation/${process.env.MUTATION_REPORT ?? "report"}.json` },
  htmlReporter: { fileName: ".tmp/mutation/report.html" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  ignorePatterns: ["/.tmp", "/build", "/data", "/coverage", "/.react-router"],
  tempDirName: ".tmp/stryker",
  cleanTempDir: "always",
};
