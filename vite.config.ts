import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { pathAliases } from "./vite.aliases";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/** React and Remix: one chunk, which changes only with their versions. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|@remix-run\/[^/]+|turbo-stream)\//;
/**
 * The app's modules every page or the join, lobby and game screens use, as one chunk: a dozen
 * small files compress about a fifth worse than the same code in one (docs/decisions/0025-player-download.md).
 * A module left out only costs its own small file; one put in is downloaded by every page, so
 * nothing only the host's or the editor's pages use belongs here.
 */
const PLAYER_PATH = new RegExp(
  "/app/(" +
    [
      "game/client/",
      "game/(protocol-constants|rules|question-kinds)\\.ts",
      "components/(layout|flash-toasts|toaster|install-prompt|error-boundary|connection-failure-toast|game-ui|answer-inputs|form-field|round-label)\\.tsx",
      "sessions/(user)\\.ts",
      "theme/(theme)\\.ts",
      "schemas/(field-rules)\\.ts",
      "teams/(team-choice)\\.ts",
      "game-pages/(game-messages|game-screens)\\.ts",
      "http/(nonce)\\.ts",
      "pwa/(install|platform|service-worker-client|online)\\.ts",
      "i18n/(translator|use-translation|error-text|i18n|languages|meta|messages-context)\\.tsx?",
    ].join("|") +
    ")",
);

function manualChunks(id: string): string | undefined {
  if (FRAMEWORK.test(id)) return "framework";
  if (PLAYER_PATH.test(id)) return "common";
  return undefined;
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: pathAliases },
  // The server's build stays one file.
  build: { target: "es2022", rollupOptions: isSsrBuild ? undefined : { output: { manualChunks } } },
  // Server-only native packages: the dev dependency scanner must not try their browser builds.
  optimizeDeps: { exclude: ["@node-rs/argon2"] },
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
}));
