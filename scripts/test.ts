/**
 * `npm test`: unit and integration tests (Vitest, SQLite and, with TEST_DATABASE_URL,
 * PostgreSQL) and, beside them, the browser tests (Playwright on the system Chromium) against a
 * fresh build, with them the JavaScript budget of the public pages (tests/e2e/js-budget.spec.ts,
 * from that build's manifest). Without a Chromium the browser tests are skipped loudly; REQUIRE_E2E=1 makes
 * that a failure. Ends with each phase's wall-clock seconds and one "passed, failed" line.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromePath, E2E_DATA_DIR } from "../tests/e2e/env";

const tmp = path.resolve(".tmp");
fs.mkdirSync(tmp, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = false;

const phases: Record<string, number> = {};

/** Runs a command to its end; its output goes to ours, or to `logFile` (printed after) when it runs beside another. */
function run(phase: string, cmd: string, args: string[], env: Record<string, string> = {}, logFile?: string): Promise<number> {
  const started = Date.now();
  const out = logFile ? fs.openSync(logFile, "w") : "inherit";
  const child = spawn(cmd, args, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => {
      phases[phase] = Math.round((Date.now() - started) / 1000);
      if (typeof out === "number") fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// Extra arguments (file filters) go to both runners: `npm test -- auth`.
const filters = process.argv.slice(2);

// 1. Unit + integration.
const vitestJson = path.join(tmp, `vitest-${process.pid}.json`);
fs.rmSync(vitestJson, { force: true });
const vitestArgs = [
  "vitest",
  "run",
  "--passWithNoTests",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${vitestJson}`,
  ...filters,
];
// The browser tests run beside Vitest, on a build made as Vitest starts (no Vitest test reads
// it): each leaves part of the machine idle while it waits (on a database, a browser, a socket),
// so side by side they end sooner than one after the other. The browser tests' output is kept
// in a file and printed when they end, so the two logs do not mix.
const chrome = chromePath();
const wantBrowser = Boolean(chrome) && process.env.SKIP_E2E !== "1";
const buildLog = path.join(tmp, `build-${process.pid}.log`);
const pwLog = path.join(tmp, `playwright-${process.pid}.log`);
const pwJson = path.join(tmp, `playwright-${process.pid}.json`);
let vitestFinished = () => {};
const vitestDone = new Promise<void>((resolve) => (vitestFinished = resolve));
const browserTests = wantBrowser ? browserPhase() : Promise.resolve();
const vitestStatus = await run("vitest", "npx", vitestArgs);
if (vitestStatus !== 0) failedStep = true;
const vitestProblems: string[] = [];
const v = readJson(vitestJson);
if (v) {
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests;
  totals.skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  // A file that fails outside its tests (a hook, an import, an unhandled error) fails the run
  // with no failed test: name it here, at the end, where a CI log's tail shows it.
  for (const file of v.testResults ?? []) {
    if (file.status === "failed" && !(file.assertionResults ?? []).some((t: any) => t.status === "failed"))
      vitestProblems.push(
        `${path.relative(process.cwd(), file.name)}: ${String(file.message || "failed outside its tests").slice(0, 2000)}`,
      );
  }
} else failedStep = true;
vitestFinished();
if (wantBrowser && !phases.playwright) console.log("\nVitest is done; waiting for the browser tests...");

// 2. Browser tests.
if (!chrome) {
  const line = "!".repeat(78);
  console.error(`\n${line}\n  BROWSER TESTS SKIPPED: no Chromium found (set CHROME_PATH or install /usr/bin/chromium)\n${line}\n`);
  if (process.env.REQUIRE_E2E === "1") {
    console.error("REQUIRE_E2E=1: a missing browser is a failure.");
    failedStep = true;
  }
} else if (process.env.SKIP_E2E === "1") {
  console.error("\nBROWSER TESTS SKIPPED: SKIP_E2E=1\n");
} else {
  await browserTests;
}

/** Builds the site, then runs the browser tests on it; adds their outcome to the totals. */
async function browserPhase(): Promise<void> {
  const buildStatus = await run("build", "npx", ["react-router", "build"], {}, buildLog);
  if (buildStatus !== 0) {
    await vitestDone;
    process.stderr.write(fs.readFileSync(buildLog, "utf8"));
    console.error(`\nBUILD FAILED (exit ${buildStatus}): the browser tests did not run.`);
    failedStep = true;
    return;
  }
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.rmSync(pwJson, { force: true });
  const status = await run(
    "playwright",
    "npx",
    ["playwright", "test", "--pass-with-no-tests", ...filters],
    { PW_JSON_OUTPUT: pwJson, CHROME_PATH: chrome! },
    pwLog,
  );
  await vitestDone;
  console.log("\nBrowser tests (Playwright):\n");
  process.stdout.write(fs.readFileSync(pwLog, "utf8"));
  if (status !== 0) failedStep = true;
  const p = readJson(pwJson);
  if (p?.stats) {
    totals.passed += p.stats.expected + (p.stats.flaky ?? 0);
    totals.failed += p.stats.unexpected;
    totals.skipped += p.stats.skipped;
    if (status !== 0 && p.stats.unexpected === 0)
      for (const e of p.errors?.length ? p.errors : [{ message: `Playwright exited with ${status} and no failed test` }])
        console.error(`\nPLAYWRIGHT FAILED OUTSIDE A TEST: ${String(e.message ?? e).slice(0, 2000)}`);
  } else failedStep = true;
}

if (vitestStatus !== 0 && totals.failed === 0 && vitestProblems.length === 0)
  vitestProblems.push(`Vitest exited with ${vitestStatus} and no failed test: look for "Unhandled Errors" in its output above`);
for (const problem of vitestProblems) console.error(`\nVITEST FAILED OUTSIDE A TEST: ${problem}`);
console.log(`\nphases (s, wall clock): ${JSON.stringify(phases)}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 ? 1 : 0);
