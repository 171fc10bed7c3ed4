/**
 * Backups (issue 15): `npm run db:backup` copies the database while a game writes to it, and
 * `npm run db:restore` puts the copy back so a new server resumes the game where the copy left it.
 * The commands run as child processes, as an operator runs them, so the copy is taken by another
 * process while this one's server keeps committing answers.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "#db/backup.server";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-backup-"));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `db/backup-cli.ts` as `npm run db:backup` / `db:restore` do, on `databasePath`. */
function runCli(args: string[], databasePath: string): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: databasePath };
  delete env.INIT_CWD;
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["db/backup-cli.ts", ...args], { cwd: root, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function answersStored(server: TestServer, gameCode: string, questionIndex: number): Promise<number[]> {
  const rows = await server.db
    .selectFrom("answers")
    .innerJoin("games", "games.id", "answers.game_id")
    .select("answers.player_id")
    .where("games.game_code", "=", gameCode)
    .where("answers.question_index", "=", questionIndex)
    .execute();
  return rows.map((row) => row.player_id).sort((a, b) => a - b);
}

describe("backups", () => {
  it("copies the database while answers arrive, and a server restored from the copy resumes the game", async () => {
    const backupFile = path.join(dir, "live", "quiz-backup.sqlite");
    const first = await startTestServer();
    const clients: TestClient[] = [];
    let gameCode = "";
    let hostClientId = "";
    let annId = 0;
    let bobId = 0;
    let annScoreAfterQ1 = 0;
    let ackedAtExit = 0;
    try {
      ({ gameCode, hostClientId } = await createGameFixture(first));
      const host = await TestClient.connect(first, hostClientId);
      await host.joinAsHost(gameCode);
      const ann = await TestClient.connect(first, "ann-backup");
      const bob = await TestClient.connect(first, "bob-backup");
      const cat = await TestClient.connect(first, "cat-backup"); // never answers question 2, so it stays open
      annId = await ann.joinAsPlayer(gameCode, "Ann");
      bobId = await bob.joinAsPlayer(gameCode, "Bob");
      await cat.joinAsPlayer(gameCode, "Cat");
      const crowd: { client: TestClient; id: number }[] = [];
      for (let i = 0; i < 30; i++) {
        const client = await TestClient.connect(first, `crowd-${i}-backup`);
        crowd.push({ client, id: await client.joinAsPlayer(gameCode, `Crowd ${i}`) });
      }
      clients.push(host, ann, bob, cat, ...crowd.map((member) => member.client));

      host.send("START_GAME", { gameCode });
      await ann.next("QUESTION_STARTED");
      ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
      await ann.next("ANSWER_ACCEPTED");
      host.send("NEXT_QUESTION", { gameCode });
      annScoreAfterQ1 = (await ann.next("ANSWER_RESULTS")).playerResults[0].score;
      expect(annScoreAfterQ1).toBeGreaterThan(0);
      await ann.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);

      // Question 2: Ann's answer is acknowledged before the backup starts, so the copy must hold it.
      ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 0 });
      expect(await ann.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 2, answerIndex: 0 });

      // The backup runs in another process while the crowd keeps answering, one after another.
      let acked = 0;
      let backupDone = false;
      const backup = runCli(["backup", backupFile], first.databasePath).finally(() => {
        backupDone = true;
        ackedAtExit = acked;
      });
      for (const member of crowd) {
        if (backupDone) break;
        member.client.send("SUBMIT_ANSWER", { gameCode, playerId: member.id, answerIndex: 0 });
        await member.client.next("ANSWER_ACCEPTED");
        acked++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const backupRun = await backup;
      expect(backupRun.stderr).toBe("");
      expect(backupRun.stdout).toMatch(/^Backed up .* to .*quiz-backup\.sqlite \(.* KiB, \d+ ms\); integrity check ok\./);
      expect(backupRun.code).toBe(0);
      expect(acked).toBeGreaterThan(0); // answers were being committed while the copy ran

      // Bob answers after the copy was taken: the restored game will not have it.
      bob.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 0 });
      await bob.next("ANSWER_ACCEPTED");
    } finally {
      await first.stop();
      await Promise.all(clients.map((client) => client.close()));
    }

    // Restore into a fresh folder, as onto a new machine, with the command an operator runs.
    const restoredPath = path.join(dir, "restored", "quiz.sqlite");
    const restoreRun = await runCli(["restore", backupFile], restoredPath);
    expect(restoreRun.stderr).toBe("");
    expect(restoreRun.stdout).toContain(`Restored ${backupFile} to ${restoredPath}`);
    expect(restoreRun.code).toBe(0);

    const second = await startTestServer({ databasePath: restoredPath });
    try {
      // The copy is one moment of the game: every answer acknowledged before it began, none after it ended.
      const stored = await answersStored(second, gameCode, 1);
      expect(stored).toContain(annId);
      expect(stored).not.toContain(bobId);
      expect(stored.length).toBeLessThanOrEqual(1 + ackedAtExit + 1); // Ann, the crowd's acknowledged ones, one in flight

      const annBack = await TestClient.connect(second, "ann-backup");
      annBack.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      expect(await annBack.next("PLAYER_JOINED")).toEqual({ player: { id: annId, nickname: "Ann" } });
      expect(await annBack.next("GAME_SNAPSHOT")).toMatchObject({ phase: "question", questionNumber: 2, playerCount: 33 });
      expect((await annBack.next("QUESTION_STARTED")).questionNumber).toBe(2);
      expect(await annBack.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 2, answerIndex: 0 });

      const bobBack = await TestClient.connect(second, "bob-backup");
      bobBack.send("JOIN_GAME", { gameCode, nickname: "Bob" });
      expect(await bobBack.next("PLAYER_JOINED")).toEqual({ player: { id: bobId, nickname: "Bob" } });
      expect(await bobBack.next("GAME_SNAPSHOT")).toMatchObject({ phase: "question", questionNumber: 2 });
      await bobBack.expectNone("ANSWER_ACCEPTED");
      bobBack.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 2 });
      expect(await bobBack.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 2, answerIndex: 2 });

      const hostBack = await TestClient.connect(second, hostClientId);
      await hostBack.joinAsHost(gameCode);
      hostBack.send("NEXT_QUESTION", { gameCode });
      const result = (await annBack.next("ANSWER_RESULTS")).playerResults[0];
      expect(result).toMatchObject({ playerId: annId, answerIndex: 0, correct: true, streak: 2 });
      expect(result.score).toBe(annScoreAfterQ1 + result.points);
      await Promise.all([annBack.close(), bobBack.close(), hostBack.close()]);
    } finally {
      await second.stop();
    }
  });

  it("refuses to restore over a database a running server holds, and to back up over an existing file", async () => {
    const server = await startTestServer();
    try {
      await createGameFixture(server);
      const backupFile = path.join(dir, "refusals", "quiz-backup.sqlite");
      const made = backupDatabase(server.databasePath, backupFile);
      expect(made).toMatchObject({ status: "ok", targetPath: backupFile });
      const before = fs.readFileSync(backupFile);

      expect(backupDatabase(server.databasePath, backupFile)).toMatchObject({ status: "refused", reason: "target-exists" });
      const again = await runCli(["backup", backupFile], server.databasePath);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`${backupFile} already exists`);
      expect(again.stderr).toContain("--force replaces it");
      expect(fs.readFileSync(backupFile).equals(before)).toBe(true);
      expect(fs.readdirSync(path.dirname(backupFile))).toEqual(["quiz-backup.sqlite"]); // no partial file left

      const restored = restoreDatabase(backupFile, server.databasePath);
      expect(restored).toMatchObject({ status: "refused", reason: "in-use" });
      const restoreRun = await runCli(["restore", backupFile], server.databasePath);
      expect(restoreRun.code).toBe(1);
      expect(restoreRun.stderr).toContain(`${server.databasePath} is in use: stop the server`);
      // The server still works on its own database.
      expect((await server.api("/api/game-sessions")).status).toBe(200);

      expect(backupDatabase(server.databasePath, backupFile, { overwrite: true })).toMatchObject({ status: "ok" });
      const usage = await runCli(["restore"], server.databasePath);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("Usage:");
    } finally {
      await server.stop();
    }
  });
});

describe("a backup's permissions", () => {
  it("is readable by its owner only (0600), in a folder it creates for its owner only (0700), whatever the umask", async () => {
    // The copy holds every account's email and password hash: a umask of 022 would make it world-readable.
    const server = await startTestServer();
    const previous = process.umask(0o022);
    try {
      await createGameFixture(server);
      const folder = path.join(dir, "permissions", "nightly");
      const backupFile = path.join(folder, "quiz-backup.sqlite");
      expect(backupDatabase(server.databasePath, backupFile)).toMatchObject({ status: "ok" });
      expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.dirname(folder)).mode & 0o777).toBe(0o700);

      // Written again over an existing, world-readable file: the copy still ends up 0600.
      fs.chmodSync(backupFile, 0o644);
      expect(backupDatabase(server.databasePath, backupFile, { overwrite: true })).toMatchObject({ status: "ok" });
      expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);

      // As the operator runs it.
      const cliFile = path.join(dir, "permissions", "cli", "quiz-backup.sqlite");
      const run = await runCli(["backup", cliFile], server.databasePath);
      expect(run.code).toBe(0);
      expect(fs.statSync(cliFile).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(cliFile)).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
      await server.stop();
    }
  });
});
