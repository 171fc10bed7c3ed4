/**
 * CI has no Docker engine, so the image is never built here. What can drift without anyone noticing
 * is checked instead: every file and npm script the Dockerfile and compose.yaml name exists, the
 * command the image runs is the production build's server, and that server, started the way the
 * image starts it (its ENV, plain `node`, a data directory of its own), answers the image's
 * HEALTHCHECK and stops cleanly on SIGTERM inside Docker's 10 s grace period.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "#tests/free-port";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dockerfile = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const compose = fs.readFileSync(path.join(ROOT, "compose.yaml"), "utf8");
const packageJson = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

/** Dockerfile instructions with their continuation lines joined, comments dropped. */
function instructions(text: string): { keyword: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

const steps = instructions(dockerfile);
const argsOf = (keyword: string) => steps.filter((step) => step.keyword === keyword).map((step) => step.args);
const execForm = (args: string) => JSON.parse(args) as string[];

/** ENV KEY=value pairs (the form this Dockerfile uses). */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of argsOf("ENV")) {
    for (const [, key, value] of args.matchAll(/([A-Z_]+)=(\S+)/g)) env[key] = value;
  }
  return env;
}

describe("Dockerfile", () => {
  it("copies only files that exist, from the build context or an earlier stage", () => {
    const stages = argsOf("FROM").map((args) => args.split(/\s+AS\s+/i)[1]);
    for (const args of argsOf("COPY")) {
      const parts = args.split(/\s+/);
      const from = parts.find((part) => part.startsWith("--from="));
      const paths = parts.filter((part) => !part.startsWith("--"));
      const sources = paths.slice(0, -1);
      if (from) {
        expect(stages).toContain(from.slice("--from=".length));
        continue;
      }
      for (const source of sources) expect(fs.existsSync(path.join(ROOT, source)), `COPY ${source}`).toBe(true);
    }
  });

  it("runs only npm scripts that package.json has", () => {
    const runs = argsOf("RUN").join(" && ");
    const scripts = [...runs.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]);
    expect(scripts).toContain("build");
    for (const script of scripts) expect(packageJson.scripts, `npm run ${script}`).toHaveProperty(script);
    expect(runs).toContain("npm ci --omit=dev");
  });

  it("runs the server that `npm run build` makes, with plain node, as the file `npm run serve` runs", () => {
    const command = execForm(argsOf("CMD")[0]);
    expect(command[0]).toBe("node");
    const script = command.find((part) => part.endsWith(".js"))!;
    expect(script).toBe("build/node/server.js");
    expect(packageJson.scripts.serve).toContain(`node --enable-source-maps ${script}`);
    // The integration tests run after `npm run build`.
    expect(fs.existsSync(path.join(ROOT, script))).toBe(true);
    expect(packageJson.scripts.build).toContain("scripts/build-server.ts");
  });

  it("runs as an unprivileged user with the database in the /data volume", () => {
    expect(argsOf("USER")).toEqual(["node"]);
    expect(argsOf("VOLUME")).toEqual(["/data"]);
    expect(imageEnv().DATABASE_PATH).toMatch(/^\/data\//);
    expect(argsOf("EXPOSE")).toEqual([imageEnv().PORT]);
  });

  it("starts the way the image does, passes its HEALTHCHECK and stops on SIGTERM within Docker's grace period", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-container-"));
    const port = String(await freePort());
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...imageEnv(),
      HOST: "127.0.0.1",
      PORT: port,
      DATABASE_PATH: imageEnv().DATABASE_PATH!.replace(/^\/data/, dataDir),
    };
    const command = execForm(argsOf("CMD")[0]);
    const server = spawn(process.execPath, command.slice(1), { cwd: ROOT, env });
    const output: string[] = [];
    server.stdout.on("data", (chunk) => output.push(String(chunk)));
    server.stderr.on("data", (chunk) => output.push(String(chunk)));
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    try {
      const healthcheck = execForm(argsOf("HEALTHCHECK")[0].replace(/^(--\S+\s+)*CMD\s+/, ""));
      expect(healthcheck[0]).toBe("node");
      let healthy = false;
      for (let attempt = 0; attempt < 100 && !healthy; attempt++) {
        healthy = spawnSync(process.execPath, healthcheck.slice(1), { env }).status === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(healthy, output.join("")).toBe(true);
      // The database and the session secret land in the volume.
      expect(fs.readdirSync(dataDir)).toEqual(expect.arrayContaining(["quiz.sqlite", "session-secret"]));

      const stopSignal = argsOf("STOPSIGNAL")[0] ?? "SIGTERM";
      const stopAt = Date.now();
      server.kill(stopSignal as NodeJS.Signals);
      expect(await exited).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(10_000);
      expect(output.join("")).toContain('"event":"server_stopped"');
    } finally {
      server.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("compose.yaml", () => {
  it("builds this Dockerfile, keeps /data in a volume and mounts a Caddyfile that exists", () => {
    expect(compose).toMatch(/^\s+build: \.$/m);
    expect(compose).toMatch(/- quiz-data:\/data$/m);
    const caddyfile = compose.match(/- \.\/(\S+):\/etc\/caddy\/Caddyfile/)?.[1];
    expect(caddyfile).toBeDefined();
    const text = fs.readFileSync(path.join(ROOT, caddyfile!), "utf8");
    // The same file serves the compose service and a Caddy on the host: both through placeholders.
    expect(text).toContain("{$QUIZ_NIGHT_DOMAIN");
    expect(text).toContain("{$QUIZ_NIGHT_UPSTREAM");
    expect(compose).toContain("QUIZ_NIGHT_UPSTREAM: quiz-night:3000");
  });
});
