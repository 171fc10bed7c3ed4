/**
 * `tsx scripts/together.ts typecheck build`: runs those npm scripts at the same time and fails if any
 * fails. `npm test` runs the type check beside the build: each is mostly one thread, so on two cores
 * the pair takes about as long as the slower one (docs/decisions/0049-ten-minute-test-loop.md). Each
 * script's output is held and printed whole when it ends, so the two never interleave.
 */
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: tsx scripts/together.ts <npm script> [<npm script> ...]");
  process.exit(2);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(name: string): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", name], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" },
    });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("close", (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`\n> npm run ${name}\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`${ok ? "✓" : "✘"} npm run ${name}: ${ok ? "done" : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(names.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
