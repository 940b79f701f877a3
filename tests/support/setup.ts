import { afterEach, beforeEach, vi } from "vitest";

/** Any console.error during a test fails it: errors must be expected and asserted, not printed. */
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length) {
    const text = errors.map((a) => a.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});
