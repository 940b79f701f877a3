// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettier from "eslint-config-prettier";
import globals from "globals";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", ".tmp/", "data/", "node_modules/", "public/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  reactHooks.configs.flat["recommended-latest"] ?? reactHooks.configs.flat.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      // No two modules import each other, directly or through others.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // The ground floor imports no feature and nothing from the floors above it.
    files: ["app/platform/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/features/*", "~/server/*", "~/routes/*", "~/components/*", "../features/*", "../server/*"], message: "app/platform is the ground floor: it imports no feature." }] },
      ],
    },
  },
  {
    // Migrations are frozen: they import nothing but Kysely (and their own types file).
    files: ["app/platform/migrations/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["~/*", "../*"], message: "Migrations import nothing but Kysely." }] }],
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**", "bench/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
);
