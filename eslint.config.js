// ESLint flat config (docs/decisions/0022-lint-and-format.md). Formatting is Prettier's job: nothing
// here is stylistic, so the two never disagree (no eslint-config-prettier needed).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Code that runs in the server process, where logging goes through pino (server/logger.ts), never console. */
const SERVER_CODE = [
  "server.ts",
  "server/**",
  "db/**",
  "migrations/**",
  "app/**/*.server.ts",
  "app/**/*.server.tsx",
  "app/entry.server.tsx",
  "app/models/**",
  // Route modules: their loaders and actions run on the server, and no route logs from its component.
  "app/routes/**",
];

/** Command-line tools, scripts and tests inside those folders, which talk to a terminal. */
const CONSOLE_ALLOWED = ["db/*-cli.ts", "**/*.test.ts", "**/*.test.tsx"];

export default tseslint.config(
  {
    // Generated or not ours: Remix and the service worker build (scripts/build-sw.ts) write only under build/.
    ignores: [
      "build/",
      "public/build/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "coverage/",
      ".cache/",
      "bench/results*",
      "bench/profiles/",
      "**/*.min.js",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
  js.configs.recommended,
  // The recommended set without type information: the type-checked set took ~50 s on two cores (against ~8 s)
  // and mostly reports the `any` that tests and Kysely migrations use on purpose; `tsc` still checks types.
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore, or a property left out of a `...rest` copy, is unused on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["app/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["app/sw/**"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["app/**"],
    ...reactHooks.configs.flat.recommended,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // The v7 preset's React Compiler rules stay on, but for two that the app does not use the compiler for and
      // that would need contortions to satisfy:
      // - refs: the "latest value" ref (`ref.current = value` during render, read by long-lived socket and timer
      //   callbacks in game-provider and connection-badge) is deliberate; moving it into an effect lets a callback
      //   see the previous render's value.
      // - set-state-in-effect: `useHydrated` (state true after hydration, so server and first client render agree)
      //   and effects that copy an action's reply or a browser-only fact (platform, standalone) into state are the
      //   Remix way; each runs once per change, not in a loop.
      "react-hooks/refs": "off",
      "react-hooks/set-state-in-effect": "off",
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: { ...globals.browser } },
  },
  {
    files: ["tests/**", "migrations/**"],
    rules: {
      // Tests read JSON replies and hand-built route arguments loosely; migrations take `Kysely<any>` as Kysely
      // advises, since a migration must not depend on today's schema types.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: SERVER_CODE,
    ignores: CONSOLE_ALLOWED,
    rules: { "no-console": "error" },
  },
  {
    // One error style: models and utilities return results; only routes and app/utils/api.server.ts answer with
    // HTTP (a status, a redirect, a Response). docs/product.md#http-api lists what each endpoint answers.
    files: ["app/models/**", "app/utils/**", "app/game/**", "db/**"],
    ignores: ["app/utils/api.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@remix-run/node",
              importNames: ["json", "redirect", "redirectDocument", "data"],
              message: "Answer with HTTP in the route or app/utils/api.server.ts.",
            },
            { name: "@remix-run/react", importNames: ["json", "redirect", "data"], message: "Answer with HTTP in the route or app/utils/api.server.ts." },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='Response']", message: "Return a result; the route or app/utils/api.server.ts makes the Response." },
        { selector: "CallExpression[callee.object.name='Response']", message: "Return a result; the route or app/utils/api.server.ts makes the Response." },
      ],
    },
  },
);
