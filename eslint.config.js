// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettier from "eslint-config-prettier";
import globals from "globals";

const FEATURE_FLOOR = {
  group: ["~/shell/**", "~/server/**", "~/routes/**", "~/root", "../../shell/**", "../../server/**", "../../routes/**"],
  message: "A feature imports no route, shell or server module: they import it.",
};
const NO_HTTP_BELOW_ROUTERS = {
  group: ["express", "~/platform/http.server"],
  message: "Nothing below a router knows HTTP: a service throws DomainError (~/platform/errors) and its router answers.",
};
const FEATURE_HTTP_ADAPTERS = [
  "app/features/**/api.server.ts",
  "app/features/**/guards.server.ts",
  "app/features/**/form-action.server.ts",
];

/** Kysely's writing calls, the table name users (aliased or with its schema), and SQL that writes users. */
const USERS_WRITE_CALL = "/^(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/";
const USERS_TABLE = String.raw`/^\s*(\w+\.)?users(\s|$)/i`;
const USERS_SQL = String.raw`/(insert\s+(or\s+\w+\s+)?into|update|delete\s+from|replace\s+into|merge\s+into)\s+("?\w+"?\.)?"?users\b/i`;
const USERS_WRITER_MESSAGE =
  "Only app/features/auth/users.server.ts (UsersRepo) writes users: call its method with your transaction (new UsersRepo(trx)).";

/**
 * The features in the order they stand on each other: each may import only those before it
 * (ESLint below). Coverage and payments come first, then the member's own account (its
 * contact details and e-mail, which imports and staff change too), the imports, member
 * administration, the applications that make members, and the admin dashboard over all.
 */
const FEATURE_ORDER = [
  "marketing",
  "calendar",
  "email-confirmation",
  "mortgage",
  "seo",
  "auth",
  "videos",
  "submissions",
  "contact",
  "form-requests",
  "payments",
  "articles",
  "membership",
  "announcements",
  "account",
  "member-import",
  "members",
  "applications",
  "admin",
];

export default tseslint.config(
  { ignores: ["build/", ".react-router/", ".tmp/", "data/", "node_modules/", "public/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    // The classic hooks rules. react-hooks 7 also ships the React Compiler's rules; we do not
    // compile with it, and those rules flag patterns that are correct without it.
    plugins: { "import-x": importX, "react-hooks": reactHooks },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      // No two modules import each other, directly or through others.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // A scrollable region takes focus so keyboard users can scroll it (axe: scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // The module augmentation of React Router's AppLoadContext is an interface extending ours.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      "prefer-const": ["error", { destructuring: "all" }],
    },
  },
  {
    // The ground floor imports no feature and nothing from the floors above it.
    files: ["app/platform/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/features/**", "**/server/**", "**/routes/**", "**/components/**", "**/shell/**", "**/domain/**"],
              message: "app/platform is the ground floor: it imports no feature and nothing from the floors above.",
            },
          ],
        },
      ],
    },
  },
  {
    // The domain floor: what several features share about the association's business (article
    // categories, formats of money and phones, the audit recorder's shape). It stands on the
    // platform alone, so any feature may use it without leaning on another feature.
    files: ["app/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/features/**", "~/server/**", "~/routes/**", "~/components/**", "~/shell/**", "~/root", "../*"],
              message: "app/domain stands on app/platform alone: it imports no feature and nothing from the floors above.",
            },
          ],
        },
      ],
    },
  },
  {
    // Shared UI serves every feature and imports none: what it needs of one (the signed-in user,
    // say) reaches it as props. The site shell (app/shell) is the place that may import them.
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/features/**", "**/shell/**", "**/server/**", "**/routes/**", "~/root", "**/root"],
              message: "app/components is shared UI: it imports no feature, shell, route or server module, nor the root route.",
            },
          ],
        },
      ],
    },
  },
  {
    // A feature sits below the routes, the shell and the assembled server; it reaches other
    // features directly and is wired by app/server. Only its HTTP adapters (the router, the
    // guards, the page-form adapter) know HTTP: services throw DomainError and the router
    // turns it into an answer.
    files: ["app/features/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx", ...FEATURE_HTTP_ADAPTERS],
    rules: { "no-restricted-imports": ["error", { patterns: [FEATURE_FLOOR, NO_HTTP_BELOW_ROUTERS] }] },
  },
  {
    // Features stand on each other in one direction (FEATURE_ORDER): none imports one after it.
    files: ["app/features/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: FEATURE_ORDER.map((feature, i) => ({
            target: `./app/features/${feature}`,
            from: FEATURE_ORDER.slice(i + 1).map((later) => `./app/features/${later}`),
            message: `Features stand in one order (FEATURE_ORDER in eslint.config.js): ${feature} may not import a feature after it; move what both need to app/domain.`,
          })).filter((zone) => zone.from.length > 0),
        },
      ],
    },
  },
  {
    files: FEATURE_HTTP_ADAPTERS,
    rules: { "no-restricted-imports": ["error", { patterns: [FEATURE_FLOOR] }] },
  },
  {
    // One writer of users (docs/architecture.md): every insert, update and delete of a user row
    // goes through app/features/auth/users.server.ts (UsersRepo), which owns a new row's
    // defaults, the birthdate digest and the sessions a change ends. Tests set up their rows
    // as they need; migrations are frozen.
    files: ["app/**"],
    ignores: ["app/features/auth/users.server.ts", "app/platform/migrations/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...[
          // db.insertInto("users"), trx.updateTable("users as u"), deleteFrom(`users`)...
          `CallExpression[callee.property.name=${USERS_WRITE_CALL}][arguments.0.value=${USERS_TABLE}]`,
          `CallExpression[callee.property.name=${USERS_WRITE_CALL}][arguments.0.quasis.0.value.raw=${USERS_TABLE}]`,
          // ...and SQL text: sql`insert into users ...`, "UPDATE users SET ...", "delete from public.users".
          `Literal[value=${USERS_SQL}]`,
          `TemplateElement[value.raw=${USERS_SQL}]`,
        ].map((selector) => ({ selector, message: USERS_WRITER_MESSAGE })),
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
    // ...and of their own folder only types: a helper a migration needs is its own frozen copy
    // (idType), so changing a live helper cannot change what a landed migration does.
    files: ["app/platform/migrations/0*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["./*"], allowTypeImports: true, message: "A migration imports only types from its folder; copy the helper into it." },
          ],
        },
      ],
    },
  },
  {
    // Migrations run against the schema of their day, not today's: Kysely's documented type for them is Kysely<any>.
    files: ["app/platform/migrations/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**", "bench/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Playwright fixtures: \`use\` is not a React hook, and \`{}\` is how a fixture says it needs no other.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
  prettier,
);
