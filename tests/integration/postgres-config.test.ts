/**
 * The built server (`npm run serve`) with DATABASE_URL: it refuses to start without SESSION_SECRET,
 * saying why, and with it runs on the PostgreSQL database, saying which; the SQLite backup commands
 * send the operator to PostgreSQL's own tools (docs/configuration.md).
 * Runs in both passes: on a PostgreSQL of its own in the SQLite pass.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "#db/connection.server";
import { freePort } from "../free-port";
import { describeWithPostgres } from "./with-postgres";
import { testPostgres, type TestPostgres } from "../postgres";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The built server in a child process, its output kept. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(ROOT, "build/node/server.js")], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describeWithPostgres("the server on DATABASE_URL", () => {
  let postgres: TestPostgres;
  let dir: string;
  let baseEnv: Record<string, string>;

  beforeAll(async () => {
    postgres = await testPostgres();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-pg-config-"));
    baseEnv = {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      // A SQLite file the server must not touch when DATABASE_URL is set.
      DATABASE_PATH: path.join(dir, "quiz.sqlite"),
      SEED_DEMO: "true",
      LOG_LEVEL: "info",
    };
  });
  afterAll(async () => {
    await postgres?.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start without SESSION_SECRET, naming both variables", async () => {
    const url = await postgres.freshDatabase("config_no_secret");
    const server = startServer({ ...baseEnv, PORT: String(await freePort()), DATABASE_URL: url });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("SESSION_SECRET: must be set when DATABASE_URL is");
    expect(fs.existsSync(path.join(dir, "session-secret"))).toBe(false);
  });

  it("has npm run db:backup and db:restore refuse, pointing to pg_dump and pg_restore, and write nothing", async () => {
    const url = await postgres.freshDatabase("config_backup");
    const toolEnv: Record<string, string> = { ...baseEnv, DATABASE_URL: url };
    for (const command of ["backup", "restore"]) {
      const file = path.join(dir, `quiz-${command}.sqlite`);
      // What `npm run db:backup -- FILE` runs.
      const tool = spawn(process.execPath, [path.join(ROOT, "build/node/db-backup.js"), command, file], {
        cwd: ROOT,
        env: toolEnv as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      tool.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => tool.once("exit", resolve));
      expect(code, command).toBe(1);
      expect(stderr).toContain("DATABASE_URL is set");
      expect(stderr).toContain("pg_dump");
      expect(stderr).toContain("pg_restore");
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("runs on the PostgreSQL database and says so, leaving DATABASE_PATH alone", async () => {
    const url = await postgres.freshDatabase("config_runs");
    const port = await freePort();
    const server = startServer({ ...baseEnv, PORT: String(port), DATABASE_URL: url, SESSION_SECRET: "x".repeat(40) });
    try {
      await expect.poll(() => server.output(), { timeout: 20_000 }).toContain('"event":"server_started"');
      const started = JSON.parse(
        server
          .output()
          .split("\n")
          .find((line) => line.includes('"event":"server_started"'))!,
      );
      const { port: databasePort, pathname } = new URL(url);
      expect(started.database).toBe(`PostgreSQL 127.0.0.1:${databasePort}${pathname}`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      // The demo quizzes went into PostgreSQL; no SQLite file (nor a limits file) was made.
      const db = openDatabase(url, { poolSize: 2 });
      try {
        const { n } = await db
          .selectFrom("quizzes")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        expect(n).toBeGreaterThan(0);
      } finally {
        await db.destroy();
      }
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });
});
