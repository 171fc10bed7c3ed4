/**
 * Last step of `npm run build`: compiles the server and the operator's command-line tools to
 * JavaScript in build/node/, so that production runs them with plain `node` (`npm run serve`,
 * `npm run db:backup`, ...) on a production install (`npm ci --omit=dev`), without tsx.
 * Packages stay imports of node_modules; only this repository's own TypeScript is bundled.
 * docs/decisions/0023-production-build-and-container.md says why esbuild and not tsc.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const SERVER_OUT_DIR = path.resolve("build/node");

/** Entry points and the file each becomes in build/node/. */
const SERVER_ENTRIES = {
  server: "server.ts",
  // The worker thread server/heavy-work.ts starts for imports; found beside server.js.
  "heavy-worker": "server/heavy-worker.ts",
  "db-migrate": "db/migrate-cli.ts",
  "db-backup": "db/backup-cli.ts",
  user: "db/user-cli.ts",
} as const;

fs.rmSync(SERVER_OUT_DIR, { recursive: true, force: true });
const result = await build({
  entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.resolve(file)])),
  outdir: SERVER_OUT_DIR,
  bundle: true,
  // Every package (including Vite, imported only in development mode) is resolved from node_modules at run time.
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
  metafile: true,
});
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith(".js"))
  .reduce((sum, [, output]) => sum + output.bytes, 0);
console.log(`[server] build/node/: ${Object.values(SERVER_ENTRIES).join(", ")} as JavaScript (${(bytes / 1024).toFixed(0)} KiB)`);
