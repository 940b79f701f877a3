import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The tests `npm run test:mutation` runs against each mutant: those of the modules it mutates
 * (their features' own tests and the cross-cutting integration tests that guard them), not
 * every other feature's tests that merely sign in on the way. A mutant these miss is a fault
 * the tests that are meant to guard the module would let through.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // MUTATION_TESTS (comma-separated globs) narrows them for one area at a time.
    include: process.env.MUTATION_TESTS?.split(",") ?? [
      "app/features/{auth,members,member-import,submissions,applications}/**/*.test.ts",
      "app/platform/{security,ip-policy}.server.test.ts",
      "tests/integration/{authorization-matrix,login-redirect,control-characters,private-answers}.test.ts",
    ],
  },
});
