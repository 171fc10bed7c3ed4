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

/**
 * The layers below the routes (docs/decisions/0050-folders-by-what-they-hold.md): routes -> route helpers
 * -> models -> db, with the domain folders (schemas, limits, pictures, quiz files, billing's plans,
 * nights, teams, reports, the browser's own ids, env) importable from anything above them. These files
 * import no route helper, no route, no component; app/game, whose client draws with components, has its
 * own block.
 */
const BELOW_ROUTES = [
  "app/models/**",
  "db/**",
  "migrations/**",
  "app/schemas/**",
  "app/limits/**",
  "app/pictures/**",
  "app/quiz-files/**",
  "app/billing/**",
  "app/nights/**",
  "app/teams/**",
  "app/reports/**",
  "app/sessions/**",
  "app/env/**",
];

/**
 * Route helpers: what reads a route's request or answers it with HTTP, and what runs models on a
 * route's behalf (a session's user, an upload's allowance, a game page's data). They live beside the
 * domain they serve; these are the ones a route may import and nothing below the routes may.
 * Written as path tails, so `#app/http/x` and `../http/x` are both caught.
 */
const ROUTE_HELPERS = [
  "**/http/*",
  "**/forms/*",
  "**/auth/*",
  "**/game-pages/*",
  "**/theme/theme.server",
  "**/sessions/session.server",
  "**/sessions/user",
  "**/quiz-files/quiz-import.server",
  "**/pictures/picture-uploads.server",
  "**/teams/join-teams.server",
  "**/reports/game-report-files.server",
  "**/ai/quiz-limit.server",
];

const ROUTE_HELPER_MESSAGE = "A route helper (it reads a request or runs models for a route): only routes and route helpers import it (decision 0050).";
const ROUTES = ["**/routes/*", "#app/root", "#app/entry.*"];

/** The route helpers of ROUTE_HELPERS that live in a folder otherwise below the routes. */
const ROUTE_HELPER_FILES = [
  "app/sessions/session.server.ts",
  "app/sessions/user.ts",
  "app/quiz-files/quiz-import.server.ts",
  "app/pictures/picture-uploads.server.ts",
  "app/teams/join-teams.server.ts",
  "app/reports/game-report-files.server.ts",
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
    // Layering (docs/decisions/0050-folders-by-what-they-hold.md): nothing below the routes imports upward.
    // typescript-eslint's copy of the rule, so the error style's `no-restricted-imports` below keeps its own
    // options for the same files (a later block's options replace an earlier one's); type imports count too.
    files: BELOW_ROUTES,
    ignores: ROUTE_HELPER_FILES,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ROUTE_HELPERS, message: ROUTE_HELPER_MESSAGE },
            { group: [...ROUTES, "**/components/*"], message: "Routes and components sit on top: nothing below them imports one (decision 0050)." },
          ],
        },
      ],
    },
  },
  {
    // The game's rules and client: the client draws with the app's components, and imports nothing else above it.
    files: ["app/game/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ROUTE_HELPERS, message: ROUTE_HELPER_MESSAGE },
            { group: ROUTES, message: "Routes sit on top: nothing below them imports one (decision 0050)." },
          ],
        },
      ],
    },
  },
  {
    // A component runs in the browser: a server module's values never reach it (its types may).
    files: ["app/components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/*.server", "**/*.server.ts", "**/*.server.tsx", "#db/*", "#server/*"],
              allowTypeImports: true,
              message: "Server-only code: a component imports its types at most, and gets its data from the route's loader.",
            },
          ],
        },
      ],
    },
  },
  {
    // One error style: models and everything below the routes return results; only routes and
    // app/http/api.server.ts answer with HTTP (a status, a redirect, a Response). docs/product.md#http-api lists
    // what each endpoint answers. The route helpers that are not api.server.ts return results too.
    files: [
      ...BELOW_ROUTES,
      "app/game/**",
      "app/http/**",
      "app/forms/**",
      "app/auth/**",
      "app/game-pages/**",
      "app/theme/**",
      "app/ai/quiz-limit.server.ts",
      // A file still in app/utils (one the move did not know of) keeps the rule it had.
      "app/utils/**",
    ],
    ignores: ["app/http/api.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@remix-run/node",
              importNames: ["json", "redirect", "redirectDocument", "data"],
              message: "Answer with HTTP in the route or app/http/api.server.ts.",
            },
            { name: "@remix-run/react", importNames: ["json", "redirect", "data"], message: "Answer with HTTP in the route or app/http/api.server.ts." },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='Response']", message: "Return a result; the route or app/http/api.server.ts makes the Response." },
        { selector: "CallExpression[callee.object.name='Response']", message: "Return a result; the route or app/http/api.server.ts makes the Response." },
      ],
    },
  },
);
